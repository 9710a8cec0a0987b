"""A job's own namespaces, for a sandbox run by an ordinary user.

There bubblewrap maps a single user, so the job's processes share the worker's user and could
signal it. In a PID namespace of their own (made in a user namespace of their own, which needs no
privilege) they cannot name the worker, nor see it: they get a /proc of their own.
"""
import ctypes
import os
import resource
import signal

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x10000000, 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 1 << 14, 1 << 18
CAPABILITY_VERSION_3 = 0x20080522
PR_SET_DUMPABLE = 4


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def call(libc, name, *args):
    if getattr(libc, name)(*args) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{name}: {os.strerror(errno)}")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def isolate():
    """Called in a job's child: go on as pid 1 of new user, PID and mount namespaces, with a /proc
    of its own and no capabilities. The process that called it stays outside, passes on the
    time-out signal, and ends as the job's process ends (it never returns)."""
    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()
    call(libc, "unshare", CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS)
    call(libc, "prctl", PR_SET_DUMPABLE, 1, 0, 0, 0)   # else /proc/self is root's, not its own
    write("/proc/self/setgroups", "deny")
    write("/proc/self/uid_map", f"{uid} {uid} 1")
    write("/proc/self/gid_map", f"{gid} {gid} 1")
    call(libc, "prctl", PR_SET_DUMPABLE, 0, 0, 0, 0)
    pid = os.fork()
    if pid == 0:
        call(libc, "mount", b"none", b"/", None, MS_REC | MS_PRIVATE, None)
        call(libc, "mount", b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
        call(libc, "capset", ctypes.byref(CapHeader(CAPABILITY_VERSION_3, 0)), (CapData * 2)())
        return
    wait_for(pid)


def wait_for(pid):
    """Outside the namespaces: hold none of the job's pipes, relay the time-out signal, then end
    as `pid` ended (the same exit status, or the same signal)."""
    signal.signal(signal.SIGUSR1, lambda *_: os.kill(pid, signal.SIGUSR1))
    os.closerange(0, 4)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
        os.kill(os.getpid(), sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
