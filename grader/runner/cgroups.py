"""A cgroup per worker: each job's memory and processes bounded as a whole, and accounted alone.

The per-process limits a child sets itself (runner.child.limits) bound each process, so a job of
several processes could use several times its memory. Where the grader may write a cgroup (root,
or a delegated cgroup v2 subtree) every warm worker gets an account of its own: a fresh cgroup,
checked empty, that the worker is moved into once it has imported its libraries (what it holds
stays charged where it was). A job's child is forked into it, so it is confined from its first
instruction, with the job's memory (swap included, and an allowance for what the worker itself
touches, ALLOWANCE_MB) and its tasks (beside the worker's own). Before every job the account must
hold nothing but the worker: no task left, and no more memory charged than the allowance. A job
that ended a moment ago may still weigh on it (pages it read stay charged; its IPC namespace is
freed a moment later, and may hold hundreds of MB): the worker then moves to a fresh account, so
no job is charged with another's memory, and the old one is removed. The worker is shielded from
the kernel's memory killer where the grader may do so (oom_score_adj -1000) and every job's
processes are its first choice (+1000). The accounts live in a folder of the grader's own, removed
when the pool closes (a folder left by a grader that was killed is removed by the next one).
cgroup v1: inside the cgroup the grader runs in, so any limit set on the grader still holds. cgroup
v2 (a cgroup with processes cannot enable controllers for its sub-cgroups): in the nearest cgroup
from the grader's own up that enables memory and pids for its sub-cgroups.

cgroup v1 (memory and pids hierarchies): memory.limit_in_bytes and memory.memsw.limit_in_bytes,
pids.max; an eventfd tells of a job's first out-of-memory, and the parent then ends the job.
cgroup v2: memory.max, memory.swap.max, memory.oom.group where the worker is shielded (the kernel
ends the whole job, never the worker) and pids.max; memory.events counts the kills. Elsewhere: the
per-process limits alone.
"""
import contextlib
import itertools
import os
import re
import time

MiB = 1 << 20
ALLOWANCE_MB = 64       # what the worker itself may have charged to its account between jobs
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
    """A worker's new cgroup already holds processes or memory."""


class Account:
    """One worker's cgroup (a folder per hierarchy): made for it, under a job's limits, then removed.
    `group_kill` (cgroup v2): the kernel ends every process of the cgroup but a shielded one when
    one of them runs it out of memory."""

    def __init__(self, group, name, memory_mb, tasks, group_kill=True):
        self.group = group
        self.dirs = []
        self.fd = None          # cgroup v1: readable when the job ran out of memory
        self.kills = 0          # cgroup v2: the kills counted before the current job began
        self.memory_mb = self.tasks = None
        self.group_kill = group_kill
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
        """`memory_mb` of memory, swap included, and `tasks` tasks (written only where changed)."""
        if (memory_mb, tasks) == (self.memory_mb, self.tasks):
            return
        memory = memory_mb * MiB
        if self.group.version == 2:
            write(self.file("memory.max"), memory)
            with contextlib.suppress(FileNotFoundError):
                write(self.file("memory.swap.max"), 0)
            write(self.file("memory.oom.group"), int(self.group_kill))
        else:       # memory and swap may never be allowed less than memory alone
            both = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
            for name in both[::-1] if self.memory_mb and memory_mb > self.memory_mb else both:
                with contextlib.suppress(FileNotFoundError):        # no swap accounting
                    write(self.file(name), memory)
        write(self.file("pids.max"), tasks)
        self.memory_mb, self.tasks = memory_mb, tasks

    def charged(self):
        """(bytes of memory charged to the cgroup, tasks in it)."""
        memory = "memory.current" if self.group.version == 2 else "memory.usage_in_bytes"
        return int(read(self.file(memory))), int(read(self.file("pids.current")))

    def attach(self, pid):
        """Move process `pid` (the worker, running no job) into this cgroup, which must be empty;
        raises NotEmpty if it is not."""
        if self.charged() != (0, 0):
            raise NotEmpty(f"a worker's new cgroup was not empty (memory and tasks: {self.charged()})")
        for folder in self.dirs:
            write(os.path.join(folder, "cgroup.procs"), pid)

    def begin(self):
        """A job begins: out-of-memory is counted from now on."""
        if self.fd is not None:
            with contextlib.suppress(BlockingIOError):
                os.eventfd_read(self.fd)
        elif self.dirs:
            self.kills = self.killed()

    def killed(self):
        try:
            return counter(read(self.file("memory.events")), "oom_kill")
        except OSError:
            return 0

    def out_of_memory(self):
        """Whether the current job has hit its memory limit."""
        if self.fd is not None:         # cgroup v1 (reading memory.oom_control is slow)
            try:
                return os.eventfd_read(self.fd) > 0
            except BlockingIOError:
                return False
        return self.killed() > self.kills

    def processes(self):
        """The pids in the cgroup (one hierarchy is enough: a task is in one cgroup of each)."""
        try:
            return [int(p) for p in read(os.path.join(self.dirs[-1], "cgroup.procs")).split()]
        except (OSError, IndexError):
            return []

    def close(self, wait=2.0):
        """Remove the cgroup, waiting up to `wait` seconds for its last processes to end (else it
        is left for the grader's folder to take)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        for folder in self.dirs:
            remove(folder, wait)
        self.dirs = []


class Group:
    """The grader's own cgroup folder (one per hierarchy), holding a cgroup per worker."""

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

    def account(self, memory_mb, tasks, group_kill=True):
        """A new cgroup for a worker and its jobs, under these limits."""
        return Account(self, f"worker-{next(self.numbers)}", memory_mb, tasks, group_kill)

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
