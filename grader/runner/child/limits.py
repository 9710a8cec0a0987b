"""Resource limits a child applies to itself before it imports learner code."""
import os
import resource
import sys

MiB = 1 << 20


def vm_size():
    """This process's current virtual memory size in bytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def user_processes():
    """How many processes this process's user runs now (threads count toward RLIMIT_NPROC too)."""
    uid, count = os.getuid(), 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.stat(f"/proc/{pid}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{pid}/task"))
            except OSError:
                pass
    return count


def set_limit(which, value):
    soft, hard = resource.getrlimit(which)
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(which, (value, value))


def apply(limits):
    """Memory and processes on top of what exists now; CPU seconds, file size, open files."""
    set_limit(resource.RLIMIT_AS, vm_size() + limits["memory_mb"] * MiB)
    set_limit(resource.RLIMIT_CPU, limits["cpu_seconds"])
    set_limit(resource.RLIMIT_FSIZE, limits["file_mb"] * MiB)
    set_limit(resource.RLIMIT_NOFILE, limits["open_files"])
    if os.getuid() != 0:         # root ignores it: the sandbox runs children as another user
        set_limit(resource.RLIMIT_NPROC, user_processes() + limits["processes"])
    set_limit(resource.RLIMIT_CORE, 0)


def after_import():
    """Keep torch, if the learner's file imported it, on one thread."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
