"""The zygote, seen from the trusted side: one process (sandboxed, when bubblewrap is given) that
imports numpy and torch once and forks every warm worker asked of it (child.zygote). Two workers
forked from one zygote cost one import instead of two, and a worker that died is replaced by a fork
instead of a fresh interpreter. Nothing it says is trusted; it only ever receives requests."""
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from . import sandbox
from .cgroups import read

GRADER_HOME = str(Path(__file__).resolve().parents[2])
READ_STDERR_SECONDS = 2.0


def child_env(pythonpath, sandboxed):
    """The environment of the zygote, its workers and their children: no secrets, one thread per
    library."""
    env = {k: v for k, v in os.environ.items()
           if k in ("PATH", "LANG", "LC_ALL", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
           or (k == "TMPDIR" and not sandboxed)}
    env.update(PYTHONPATH=pythonpath, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0",
               HOME="/tmp", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    if sandboxed:       # the host's PATH may name its own folders (a virtual environment's bin/)
        env["PATH"] = sandbox.PATH
    return env


def inner_pid(pid):
    """The pid `pid` has in the innermost PID namespace it is in, or None if it is gone."""
    try:
        return int(read(f"/proc/{pid}/status").split("NSpid:")[1].split("\n")[0].split()[-1])
    except (OSError, IndexError, ValueError):
        return None


def children(pid):
    try:
        return [int(kid) for kid in read(f"/proc/{pid}/task/{pid}/children").split()]
    except OSError:
        return []


class Zygote:
    """The zygote's process, started at once; its imports go on while the parent reads the class
    (fork requests wait in its channel meanwhile)."""

    def __init__(self, bwrap=None, preload=("numpy", "torch")):
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        args = ["-P", "-m", "grader.runner.child", str(theirs.fileno()),
                "--preload", ",".join(preload)]
        argv, fds, pythonpath = [sys.executable, *args], [], GRADER_HOME
        if bwrap:
            argv, fds = sandbox.command(bwrap, GRADER_HOME, args + ["--sandboxed"])
            pythonpath = sandbox.CHILD_HOME
        try:
            self.proc = subprocess.Popen(argv, pass_fds=(theirs.fileno(), *fds),
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE,
                                         env=child_env(pythonpath, bool(bwrap)),
                                         start_new_session=True)
        finally:
            for fd in fds:
                os.close(fd)
        theirs.close()
        self.sandboxed = bool(bwrap)
        self.lock = threading.Lock()
        self.host = None        # its pid on this side, once a worker has named it
        self.inner = None       # and in its sandbox

    def fork(self, theirs, uid, as_user):
        """Ask for a worker serving on socket `theirs`, its jobs run as `uid` (None: as the
        worker's own user). A zygote that is gone closes `theirs`' peer: the worker never says
        it is ready."""
        with self.lock:
            try:
                socket.send_fds(self.sock, [json.dumps({"fork": uid, "as_user": as_user}).encode()],
                                [theirs.fileno()])
            except OSError:
                pass

    def host_pid_of(self, inner, parent):
        """The pid on this side of the zygote's child that is `inner` in its sandbox and says its
        parent is `parent` (the zygote, in the sandbox); None if there is no such child."""
        with self.lock:
            if self.host is None:
                self.host = self.find(parent)
                self.inner = parent if self.host else None
            if self.host is None or parent != self.inner:
                return None
            return next((kid for kid in children(self.host) if inner_pid(kid) == inner), None)

    def find(self, inner):
        """The process at or below the zygote's own that is `inner` in the sandbox."""
        if not self.sandboxed:
            return self.proc.pid if inner == self.proc.pid else None
        level = [self.proc.pid]
        for _ in range(3):          # bwrap, its init where it makes one, the zygote
            for pid in level:
                if inner_pid(pid) == inner and pid != self.proc.pid:
                    return pid
            level = [kid for pid in level for kid in children(pid)]
        return None

    def alive(self):
        return self.proc.poll() is None

    def why_not(self):
        """What the zygote printed before it ended (why a worker could not start), if it ended."""
        try:
            self.proc.wait(READ_STDERR_SECONDS)
        except subprocess.TimeoutExpired:
            return None
        if self.proc.stderr.closed:
            return None
        return self.proc.stderr.read().decode(errors="replace").strip()[-2000:] or None

    def close(self):
        """End the zygote; in the sandbox, all of it: its init (pid 1 there, bubblewrap's child)
        is killed, and the kernel ends every process of its PID namespace with it. Killing
        bubblewrap alone left the rest to end once their channels closed, and now and then left
        the init waiting for ever."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if self.proc.poll() is None:
            if self.sandboxed:      # bubblewrap, not reaped yet: its children are its own
                for init in children(self.proc.pid):
                    with contextlib.suppress(OSError):
                        os.kill(init, signal.SIGKILL)
            self.proc.kill()
        self.proc.wait()
        self.sock.close()
        self.proc.stderr.close()
