"""A warm worker: forked from the zygote (child.zygote) with the heavy libraries imported, it forks
a fresh child for every job.

The trusted parent talks to the worker over a Unix socket: it sends a "run" message with three pipe
ends (the child's request, its result channel, its printed output) and later a "stop"; the worker
answers "started" and "exited". The worker never reads a job's request or results: the parent and
the child talk through the pipes directly, so no learner's data ever lives in the worker's memory.

In the sandbox each job's child first moves into namespaces of its own (child.isolate): its /tmp,
/dev/shm and IPC objects are the job's alone and end with it. Only then does it say "ready" on its
result channel; a child that cannot set itself up never says it, and never runs learner code. At
the end of every job the worker kills the child's whole process tree (it is a subreaper, so
processes that called setsid come back to it); run as an unprivileged user without the sandbox
(asuser), it also removes what that user left in the machine's shared folders and IPC.
"""
import contextlib
import ctypes
import gc
import importlib
import json
import os
import select
import shutil
import signal
import socket
import sys

from . import asuser, isolate, limits, runner, warm

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
MADV_HUGEPAGE, MADV_COLLAPSE = 14, 25
HUGE_PAGE = 2 << 20
MAX_MESSAGE = 4096
CHILD_FDS = 3           # request on 0, printed output on 1 and 2, results on 3
RUNNER_FAILED = 70      # the child's exit status when the runner itself could not go on
# What a job's child does on these signals, set in the child whatever it inherited: nothing
# interrupts it (the parent ends a job by killing it), SIGTERM ends it, and so does writing to a
# pipe the parent has closed.
CHILD_SIGNALS = {signal.SIGINT: signal.SIG_IGN, signal.SIGTERM: signal.SIG_DFL,
                 signal.SIGPIPE: signal.SIG_DFL}


def prctl(option, value):
    ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def preload(modules):
    """Import the libraries every job shares, torch on one thread (its ops then start no thread a
    fork would lose); answer a made-up job; then freeze what all that made (the cyclic collector,
    off meanwhile, never visits it again, so no child writes to those objects' pages to collect
    them). Done once in the zygote, for all its workers."""
    gc.disable()
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    limits.after_import()
    warm.answer_made_up_job()
    gc.freeze()
    gc.enable()


def huge_pages():
    """Back the worker's heap and anonymous memory with 2 MiB pages where the kernel can
    (transparent huge pages allowed, MADV_COLLAPSE since Linux 6.1; elsewhere nothing changes):
    forking the worker then copies one page-table entry per 2 MiB instead of 512, which made a
    fork of a worker holding torch about three times faster here. Each worker does it once forked
    from the zygote, into pages of its own: where it shared the zygote's, its own first writes
    would split them."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    with open("/proc/self/maps") as f:
        regions = [line.split() for line in f]
    for fields in regions:
        if fields[1] == "rw-p" and (len(fields) == 5 or fields[5] == "[heap]"):
            start, end = (int(x, 16) for x in fields[0].split("-"))
            start, end = -(-start // HUGE_PAGE) * HUGE_PAGE, end // HUGE_PAGE * HUGE_PAGE
            if end > start:
                libc.madvise(start, end - start, MADV_HUGEPAGE)
                libc.madvise(start, end - start, MADV_COLLAPSE)     # where it can: no error


def children(pid):
    """The pids whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def kill_tree(pid):
    """Kill `pid` and its process group, then every process that came back to this subreaper;
    reap them all. Returns `pid`'s wait status."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass
    _, status = os.waitpid(pid, 0)
    me = os.getpid()
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return status
        for kid in children(me):
            try:
                os.kill(kid, signal.SIGKILL)
            except OSError:
                pass
        select.select([], [], [], 0.001)


def exit_code(status):
    """The status as subprocess reports it: the exit code, or minus the signal that killed it."""
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


class Worker:
    """The worker's loop. In a sandbox every job has namespaces of its own, and `uid` (when the
    worker may switch users) is the unprivileged user every child runs as; `as_user`, without the sandbox, adds the
    network filter and the clean-up of asuser."""

    def __init__(self, control, sandboxed, uid, as_user=False):
        self.control = control
        self.sandboxed = sandboxed
        self.uid = uid
        self.as_user = as_user and uid is not None and not sandboxed
        self.isolated = sandboxed and uid is None    # no other user: a PID namespace per job
        self.shown = isolate.mounts_under("/tmp") if sandboxed else ()    # in each job's /tmp

    def send(self, **message):
        self.control.send(json.dumps(message).encode())

    def serve(self):
        # the parent finds it under the zygote, and moves it into its cgroup
        self.send(ready=True, pid=os.getpid(), zygote=os.getppid())
        while True:
            data, fds, _, _ = socket.recv_fds(self.control, MAX_MESSAGE, CHILD_FDS)
            if not data:
                return
            message = json.loads(data)
            if "run" in message and len(fds) == CHILD_FDS:
                self.job(message["run"], fds)
            else:
                for fd in fds:
                    os.close(fd)

    def job(self, job_id, fds):
        workdir = self.workdir()
        if not self.sandboxed:      # made here, so none is made once the worker has ended (the
            with contextlib.suppress(OSError):      # parent then removes its folders); else the
                self.make_workdir(workdir)          # child's chdir fails, as it would have
        if self.isolated:
            pid = isolate.fork(lambda: self.child(fds, workdir))
        else:
            pid = os.fork()
            if pid == 0:
                self.child(fds, workdir)
        for fd in fds:
            os.close(fd)
        self.send(started=job_id)
        watch = os.pidfd_open(pid)
        while watch not in select.select([self.control, watch], [], [])[0]:
            data = self.control.recv(MAX_MESSAGE)
            if not data:                       # the parent is gone: clean up and leave
                self.finish(pid, workdir, watch)
                sys.exit(0)
            message = json.loads(data)
            if message.get("where") == job_id:       # a time-out: the child reports where it is
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGUSR1)
            elif message.get("stop") == job_id:
                break
        code = self.finish(pid, workdir, watch)
        self.send(exited=job_id, code=code)

    def finish(self, pid, workdir, watch):
        status = kill_tree(pid)
        os.close(watch)
        if not self.sandboxed:       # in the sandbox it was in the job's own /tmp, gone with it
            shutil.rmtree(workdir, ignore_errors=True)
        if self.as_user:
            asuser.remove_leftovers(self.uid)
        return exit_code(status)

    def make_workdir(self, workdir):
        os.mkdir(workdir)
        os.chmod(workdir, 0o700 if self.uid is None else 0o755)   # not writable by the child,
        # whatever umask the worker inherited

    def workdir(self):
        base = "/tmp" if self.sandboxed else os.environ.get("TMPDIR", "/tmp")
        return os.path.join(base, f"job-{os.getpid()}-{os.urandom(4).hex()}")

    def child(self, fds, workdir):
        """In the forked child: own session, fixed descriptors, in the sandbox namespaces of its
        own, the job's folder; then the job."""
        try:
            os.setsid()
            with contextlib.suppress(OSError):      # the memory killer's first choice, not the worker
                with open("/proc/self/oom_score_adj", "w") as f:
                    f.write("1000")
            request_fd, result_fd, output_fd = fds
            os.dup2(request_fd, 0)
            os.dup2(output_fd, 1)
            os.dup2(output_fd, 2)
            os.dup2(result_fd, 3)
            os.closerange(4, os.sysconf("SC_OPEN_MAX"))
            if self.sandboxed:
                isolate.own_namespaces(self.shown)
                self.make_workdir(workdir)      # in the job's own /tmp
            os.chdir(workdir)
            for sig, action in CHILD_SIGNALS.items():
                signal.signal(sig, action)
            prctl(PR_SET_NO_NEW_PRIVS, 1)
            runner.main(3, self.drop_privileges)
        finally:
            os._exit(RUNNER_FAILED)

    def drop_privileges(self):
        """In the sandbox: run as the children's own user (if there is one), and without any of
        the worker's capabilities."""
        if self.uid is not None:
            os.setgroups([])
            os.setresgid(self.uid, self.uid, self.uid)
            os.setresuid(self.uid, self.uid, self.uid)
            if self.as_user:
                asuser.confine()
        if self.sandboxed:
            isolate.drop_capabilities()
