"""The process warm workers are forked from: it imports the heavy libraries once, whatever number of
workers the parent asks for, then forks a worker on each request (the name is Android's, for the
process its apps are forked from).

The parent sends {"fork": UID or null, "as_user": bool} with one end of a new socket; the zygote
forks, and the new process is a worker (child.worker) serving on that socket, whose jobs' children
run as UID (a user of that worker's own) where the worker may switch users. The zygote runs no job
and reads nothing of one. In the sandbox each worker first takes a network namespace of its own, so
the jobs of two workers sharing the sandbox cannot reach each other even over abstract Unix sockets.

The zygote is a subreaper: the processes of a worker that died come back to it, and it kills every
child of its own that is not a live worker.
"""
import contextlib
import json
import os
import signal
import socket

from . import isolate, worker

CLONE_NEWNET = 0x40000000
MAX_MESSAGE = 4096


class Zygote:
    def __init__(self, control, sandboxed):
        self.control, self.sandboxed = control, sandboxed
        self.workers = set()

    def serve(self):
        signal.signal(signal.SIGCHLD, self.reap)
        while True:
            data, fds, _, _ = socket.recv_fds(self.control, MAX_MESSAGE, 1)
            if not data:
                return
            try:
                message = json.loads(data)
            except ValueError:
                message = None
            if isinstance(message, dict) and len(fds) == 1 and self.valid(message):
                self.fork(fds[0], message["fork"], message["as_user"])
            for fd in fds:
                os.close(fd)

    @staticmethod
    def valid(message):
        uid = message.get("fork")
        return (uid is None or type(uid) is int and uid > 0) and type(message.get("as_user")) is bool

    def fork(self, fd, uid, as_user):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})    # reap() knows it first
        try:
            pid = os.fork()
            if pid == 0:
                self.become_worker(fd, uid, as_user)
            self.workers.add(pid)
        except OSError:
            pass            # the parent sees the new worker's socket close
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})

    def become_worker(self, fd, uid, as_user):
        try:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            self.control.close()
            worker.prctl(worker.PR_SET_CHILD_SUBREAPER, 1)     # not inherited across fork
            if self.sandboxed:
                isolate.call("unshare", CLONE_NEWNET)
            worker.huge_pages()
            worker.Worker(socket.socket(fileno=fd), self.sandboxed, uid, as_user).serve()
        finally:
            os._exit(0)

    def reap(self, *_):
        """Reap what ended; kill what came back here from a dead worker."""
        with contextlib.suppress(ChildProcessError):
            while (pid := os.waitpid(-1, os.WNOHANG)[0]):
                self.workers.discard(pid)
        for pid in worker.children(os.getpid()):
            if pid not in self.workers:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


def main(argv):
    """`python -m grader.runner.child CONTROL_FD [--sandboxed] [--preload numpy,torch]`."""
    control = socket.socket(fileno=int(argv[0]))
    modules = argv[argv.index("--preload") + 1].split(",") if "--preload" in argv else []
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)    # whatever it inherited
    worker.prctl(worker.PR_SET_DUMPABLE, 0)
    worker.prctl(worker.PR_SET_CHILD_SUBREAPER, 1)
    worker.preload(m for m in modules if m)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    Zygote(control, "--sandboxed" in argv).serve()
