"""A job without the sandbox, as an unprivileged user of its own (runner.isolation): what the child
adds once it has switched to that user, and what the worker removes once the job has ended.

Where bubblewrap cannot start (a container whose seccomp profile denies namespaces), the file
system, the network and the IPC namespace are the machine's. The user keeps the child out of what
only root may read; on top of that the child installs a seccomp filter of its own (allowed to any
process that has set no_new_privs) under which it may open no socket but a Unix one, and may not
set up io_uring (whose requests would bypass the filter), so it reaches no network; a foreign
architecture's system calls (x86's 32-bit entry, the x32 numbers) are refused whole. After the job,
whatever the user left in the machine's shared folders and its System V IPC objects are removed.

The filter's layout follows the kernel's seccomp documentation (struct seccomp_data: the call's
number at offset 0, the architecture at 4, the first argument at 16).
"""
import ctypes
import os
import platform
import shutil
import socket
import struct

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
LD_ABS_W, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
NR, ARCH, ARG0 = 0, 4, 16
X32_BIT = 0x40000000
# machine: (the kernel's AUDIT_ARCH, socket, io_uring_setup)
ARCHES = {"x86_64": (0xC000003E, 41, 425), "aarch64": (0xC00000B7, 198, 425)}
SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock")
IPC_RMID = 0
IPC = ("shm", "msg", "sem")          # /proc/sysvipc/NAME, removed with NAMEctl(id, IPC_RMID)
LIBC = ctypes.CDLL(None, use_errno=True)


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


def program(machine=None):
    """The filter as bytes of struct sock_filter (code, jt, jf, k); raises OSError for a machine
    it was not written for."""
    machine = machine or platform.machine()
    if machine not in ARCHES:
        raise OSError(f"no network filter for this machine ({machine})")
    arch, sock, uring = ARCHES[machine]
    # (code, jump if true, jump if false, k); the jumps name labels, resolved below
    steps = [(LD_ABS_W, None, None, ARCH), (JEQ, None, "deny", arch), (LD_ABS_W, None, None, NR)]
    if machine == "x86_64":
        steps.append((JGE, "deny", None, X32_BIT))
    steps += [(JEQ, "deny", None, uring), (JEQ, None, "allow", sock),
              (LD_ABS_W, None, None, ARG0), (JEQ, "allow", "deny", socket.AF_UNIX)]
    labels = {"allow": len(steps), "deny": len(steps) + 1}
    steps += [(RET, None, None, RET_ALLOW), (RET, None, None, RET_ERRNO | 13)]   # EACCES

    def offset(at, label):
        return 0 if label is None else labels[label] - at - 1

    return b"".join(struct.pack("=HBBI", code, offset(i, jt), offset(i, jf), k)
                    for i, (code, jt, jf, k) in enumerate(steps))


def confine():
    """No socket but a Unix one from now on, for this process and all it starts (needs
    no_new_privs set first)."""
    code = program()
    prog = SockFprog(len(code) // 8, code)
    if LIBC.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"seccomp: {os.strerror(errno)}")


def remove_leftovers(uid):
    """Remove what `uid` owns at the top of the machine's shared writable folders, and its
    System V shared memory, message queues and semaphores (its processes are gone by now)."""
    for folder in SHARED:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            except OSError:
                pass
    for kind in IPC:
        for ipc_id in ipc_objects(kind, uid):
            if kind == "sem":
                LIBC.semctl(ipc_id, 0, IPC_RMID)
            else:
                getattr(LIBC, f"{kind}ctl")(ipc_id, IPC_RMID, None)


def ipc_objects(kind, uid):
    """The ids of `uid`'s System V IPC objects of `kind` (shm, msg or sem)."""
    try:
        with open(f"/proc/sysvipc/{kind}") as f:
            header, *rows = [line.split() for line in f]
    except (OSError, ValueError):
        return []
    column = header.index("uid")
    return [int(row[1]) for row in rows if len(row) > column and row[column] == str(uid)]
