"""A cgroup per job: the memory and the processes of a job bounded as a whole, and accounted alone.

The per-process limits a child sets itself (runner.child.limits) bound each process, so a job of
several processes could use several times its memory. Where the grader may write a cgroup (root,
or a delegated cgroup v2 subtree) every job gets an account of its own: a fresh cgroup, checked
empty (no process, no memory charged), that the job's child is moved into before it reads its
request (so before any learner code runs), with the job's memory (swap included) and task limits,
and that is removed when the job ends. A cgroup is never reused: what the kernel frees only after a
job has ended (its IPC namespace goes a moment later) and what stays charged to it (cached pages it
read) weigh on that job's account alone, never on the next job's. The accounts live in a folder of
the grader's own, removed when the pool closes (a folder left by a grader that was killed is removed
by the next one). cgroup v1: inside the cgroup the grader runs in, so any limit set on the grader
still holds. cgroup v2 (a cgroup with processes cannot enable controllers for its sub-cgroups): in
the nearest cgroup from the grader's own up that enables memory and pids for its sub-cgroups.

cgroup v1 (memory and pids hierarchies): memory.limit_in_bytes and memory.memsw.limit_in_bytes,
pids.max; an eventfd tells of the job's first out-of-memory, and the parent then ends the job.
cgroup v2: memory.max, memory.swap.max, memory.oom.group (the kernel ends the whole job) and
pids.max; memory.events counts the kills. Elsewhere: the per-process limits alone.
"""
import contextlib
import itertools
import os
import re
import time

MiB = 1 << 20
V1 = ("memory", "pids")
PREFIX = "grader-"


def mounts(path="/proc/self/mounts"):
    """{controller: mount point} of the cgroup v1 hierarchies, and the cgroup v2 mount point."""
    v1, v2 = {}, None
    with open(path) as f:
        for line in f:
            _, point, kind, options, *_ = line.split()
            point = point.replace("\\040", " ")
            if kind == "cgroup2" and v2 is None:
                v2 = point
            elif kind == "cgroup":
                for name in set(options.split(",")) & set(V1):
                    v1[name] = point
    return v1, v2


def own(path="/proc/self/cgroup"):
    """{controller: this process's cgroup path}; cgroup v2's under the key ""."""
    found = {}
    with open(path) as f:
        for line in f:
            _, names, where = line.rstrip("\n").split(":", 2)
            for name in names.split(",") if names else [""]:
                found[name] = where
    return found


def write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def read(path):
    with open(path) as f:
        return f.read()


def counter(text, key):
    """The number after `key` in a flat keyed file such as memory.events."""
    match = re.search(rf"^{key} (\d+)$", text, re.M)
    return int(match.group(1)) if match else 0


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def remove(folder, seconds=2.0):
    """Remove a cgroup folder and its sub-cgroups; a cgroup whose last processes are still exiting
    is busy for a moment, so retry for up to `seconds`."""
    deadline = time.monotonic() + seconds
    try:
        subs = [e.path for e in os.scandir(folder) if e.is_dir()]
    except FileNotFoundError:
        return True
    for sub in subs:
        remove(sub, seconds)
    while True:
        try:
            os.rmdir(folder)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)


def sweep(base):
    """Remove the folders graders that no longer run left in `base`."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(base):
            match = re.fullmatch(rf"{PREFIX}(\d+)-[0-9a-f]+", entry.name)
            if match and entry.is_dir() and not alive(int(match.group(1))):
                remove(entry.path, 0)


class NotEmpty(OSError):
    """A job's new cgroup already holds processes or memory."""


class Account:
    """One job's cgroup (a folder per hierarchy): made for it, under its limits, then removed."""

    def __init__(self, group, name, memory_mb, tasks):
        self.group = group
        self.dirs = []
        self.fd = None          # cgroup v1: readable when the job ran out of memory
        self.memory_mb = memory_mb
        try:
            for base in group.dirs:
                os.mkdir(os.path.join(base, name))
                self.dirs.append(os.path.join(base, name))
            self.set_limits(memory_mb, tasks)
            if group.version == 1:
                self.watch_oom()
        except OSError:
            self.close()
            raise

    def file(self, name):
        """The path of a control file (a v1 controller's files live in its own hierarchy)."""
        if self.group.version == 2:
            return os.path.join(self.dirs[0], name)
        return os.path.join(self.dirs[0 if name.startswith("memory.") else 1], name)

    def watch_oom(self):
        self.fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
        control = os.open(self.file("memory.oom_control"), os.O_RDONLY | os.O_CLOEXEC)
        try:
            write(os.path.join(self.dirs[0], "cgroup.event_control"), f"{self.fd} {control}")
        finally:
            os.close(control)

    def set_limits(self, memory_mb, tasks):
        memory = memory_mb * MiB
        if self.group.version == 2:
            write(self.file("memory.max"), memory)
            with contextlib.suppress(FileNotFoundError):
                write(self.file("memory.swap.max"), 0)
            write(self.file("memory.oom.group"), 1)
        else:
            write(self.file("memory.limit_in_bytes"), memory)
            with contextlib.suppress(FileNotFoundError):        # no swap accounting
                write(self.file("memory.memsw.limit_in_bytes"), memory)
        write(self.file("pids.max"), tasks)

    def charged(self):
        """(bytes of memory charged to the cgroup, tasks in it)."""
        memory = "memory.current" if self.group.version == 2 else "memory.usage_in_bytes"
        return int(read(self.file(memory))), int(read(self.file("pids.current")))

    def attach(self, pid):
        """Move process `pid` (not yet running learner code) into this cgroup, which must be empty;
        raises NotEmpty if it is not."""
        if self.charged() != (0, 0):
            raise NotEmpty(f"the job's new cgroup was not empty (memory and tasks: {self.charged()})")
        for folder in self.dirs:
            write(os.path.join(folder, "cgroup.procs"), pid)

    def out_of_memory(self):
        """Whether the job has hit its memory limit."""
        if self.fd is not None:         # cgroup v1 (reading memory.oom_control is slow)
            try:
                return os.eventfd_read(self.fd) > 0
            except BlockingIOError:
                return False
        try:
            return counter(read(self.file("memory.events")), "oom_kill") > 0
        except OSError:
            return False

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        for folder in self.dirs:
            remove(folder)
        self.dirs = []


class Group:
    """The grader's own cgroup folder (one per hierarchy), holding a cgroup per running job."""

    def __init__(self, version, bases):
        self.version = version
        name = f"{PREFIX}{os.getpid()}-{os.urandom(4).hex()}"
        self.dirs = []
        self.numbers = itertools.count(1)       # accounts are made from several threads
        try:
            for base in bases:
                sweep(base)
                os.mkdir(os.path.join(base, name))
                self.dirs.append(os.path.join(base, name))
            if version == 2:
                write(os.path.join(self.dirs[0], "cgroup.subtree_control"), "+memory +pids")
        except OSError:
            self.close()
            raise

    def account(self, memory_mb, tasks):
        """A new cgroup for one job, under these limits."""
        return Account(self, f"job-{next(self.numbers)}", memory_mb, tasks)

    def close(self):
        for folder in self.dirs:
            remove(folder)
        self.dirs = []


def bases():
    """(version, [folders to create the grader's folder in]) where this machine offers the
    memory and pids controllers, or (None, why not)."""
    v1, v2 = mounts()
    paths = own()
    if all(name in v1 and name in paths for name in V1):
        return 1, [os.path.normpath(os.path.join(v1[name], paths[name].lstrip("/"))) for name in V1]
    if v2 and "" in paths:
        path = paths[""]
        while True:     # the nearest cgroup, from the grader's own up, that enables both below it
            base = os.path.normpath(os.path.join(v2, path.lstrip("/")))
            try:
                enabled = read(os.path.join(base, "cgroup.subtree_control")).split()
            except OSError:
                enabled = []
            if set(V1) <= set(enabled):
                return 2, [base]
            if path in ("/", ""):
                break
            path = os.path.dirname(path)
        return None, ("no cgroup v2 folder from the grader's own up enables the memory and pids "
                      "controllers for its sub-cgroups")
    return None, "this machine mounts no cgroup with the memory and pids controllers"


def open_group():
    """(Group, None) where the grader can make cgroups, else (None, why not)."""
    version, found = bases()
    if version is None:
        return None, found
    if not all(os.access(base, os.W_OK) for base in found):
        who = "root" if os.geteuid() == 0 else "an ordinary user"
        return None, f"the grader, run by {who}, may not create cgroups in {' or '.join(found)}"
    try:
        return Group(version, found), None
    except OSError as exc:
        return None, f"the grader could not create a cgroup ({exc.strerror})"


def describe(group, why, memory_mb, processes):
    """In plain words, how a job's memory and processes are bounded: by `group` (a Group), or by
    per-process limits alone, for the reason `why`."""
    each = f"{memory_mb} MiB of memory and {processes} more processes"
    if group:
        return f"cgroup v{group.version}: {each} for each job as a whole"
    return f"per-process limits only, {each} for each process of a job: {why}"
