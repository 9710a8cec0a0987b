"""A PID namespace per job, for a sandbox run by an ordinary user.

There bubblewrap maps a single user, so a job's processes share the worker's user and could signal
it. Each job's child is forked into a PID namespace of its own instead (bubblewrap leaves the
worker CAP_SYS_ADMIN in the sandbox's user namespace for that), where it is pid 1 and cannot name
the worker; the child then drops every capability before it runs learner code. As any pid 1, it
ignores the signals it sends itself that it has no handler for (code that kills itself goes on),
and the kernel's SIGXFSZ (a file over the size limit fails to be written instead).
"""
import ctypes
import os
import threading

CLONE_NEWPID = 0x20000000
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
CAPABILITY_VERSION_3 = 0x20080522
LIBC = ctypes.CDLL(None, use_errno=True)


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def call(name, *args):
    if getattr(LIBC, name)(*args) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{name}: {os.strerror(errno)}")


def fork(child):
    """Fork a process that runs `child()` (which must not return) as pid 1 of a new PID namespace;
    returns its pid. The namespace is made by a thread of its own: a thread's namespace for new
    children ends with it, so the worker's own stays as it was, job after job."""
    made = []

    def spawn():
        try:
            call("unshare", CLONE_NEWPID)
        except OSError as exc:
            made.append(exc)
            return
        pid = os.fork()
        if pid == 0:
            child()
        made.append(pid)

    thread = threading.Thread(target=spawn)
    thread.start()
    thread.join()
    if isinstance(made[0], OSError):
        raise made[0]
    return made[0]


def drop_capabilities():
    """Give up every capability the worker was left (none is needed to run learner code)."""
    call("prctl", PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    call("capset", ctypes.byref(CapHeader(CAPABILITY_VERSION_3, 0)), (CapData * 2)())
