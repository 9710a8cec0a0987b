"""A sandboxed job's own namespaces, made in its child before any learner code runs.

Every job gets an IPC namespace and a mount namespace of its own, with fresh, size-limited tmpfs
mounts at /tmp and /dev/shm. So System V shared memory, semaphores and message queues, POSIX
message queues, and files in /tmp or /dev/shm (POSIX shared memory and semaphores live there) are
the job's alone, and the kernel frees them with the job's last process: nothing one job makes can
reach, or weigh on, the next. The worker keeps CAP_SYS_ADMIN for this (in the sandbox's user
namespace when run by an ordinary user); the child gives it up before it runs learner code. Folders
of the Python installation that lie under /tmp are shown again inside the job's /tmp.

Run by an ordinary user, bubblewrap maps a single user, so a job's processes share the worker's user
and could signal it. Each job's child is forked into a PID namespace of its own too, where it is
pid 1 and cannot name the worker; it drops every capability before it runs learner code. As any
pid 1, it ignores the signals it sends itself that it has no handler for (code that kills itself
goes on), and the kernel's SIGXFSZ (a file over the size limit fails to be written instead).
"""
import ctypes
import os
import re
import threading

CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWPID = 0x00020000, 0x08000000, 0x20000000
MS_NOSUID, MS_NODEV, MS_BIND, MS_MOVE, MS_REC, MS_PRIVATE = 2, 4, 4096, 8192, 16384, 1 << 18
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
CAPABILITY_VERSION_3 = 0x20080522
JOB_TMP_MB = 64         # each of a job's /tmp and /dev/shm
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                       ctypes.c_char_p]


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def call(name, *args):
    if getattr(LIBC, name)(*args) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{name}: {os.strerror(errno)}")


def mount(source, target, kind, flags, data=None):
    call("mount", source and source.encode(), target.encode(), kind and kind.encode(), flags,
         data and data.encode())


def mounts_under(folder, table="/proc/self/mountinfo"):
    """The outermost mount points strictly below `folder` (the Python installation's folders
    bubblewrap showed there)."""
    points = []
    with open(table) as f:
        for line in f:
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[4])
            if point.startswith(folder.rstrip("/") + "/"):
                points.append(point)
    return sorted(p for p in points if not any(p.startswith(q + "/") for q in points))


def own_namespaces(shown=(), size_mb=JOB_TMP_MB):
    """Move this process into a new IPC namespace and a new mount namespace whose /tmp and
    /dev/shm are fresh tmpfs mounts of `size_mb` each; `shown` (mount points under /tmp) are
    bound into the new /tmp. The job's /tmp is built at /dev/shm, then moved into place."""
    call("unshare", CLONE_NEWIPC | CLONE_NEWNS)
    mount(None, "/", None, MS_REC | MS_PRIVATE)      # nothing done here reaches the worker's
    options = f"size={size_mb << 20},mode=1777"
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, options)
    for point in shown:
        inside = "/dev/shm" + point[len("/tmp"):]
        os.makedirs(inside, exist_ok=True)
        mount(point, inside, None, MS_BIND | MS_REC)
    mount("/dev/shm", "/tmp", None, MS_MOVE)
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, options)


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
