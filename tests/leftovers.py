"""Learners who leave something behind on their warm worker, and learners graded after them there.

Each attacker's softmax is right; at import it leaves one kind of thing that outlives a process:
System V shared memory (600 MB touched: two of them make more than a job's 1 GiB), semaphores and
message queues, a POSIX message queue, files in /dev/shm and /tmp (some in a folder the worker may
not empty), files anywhere else it can write, and a daemon (the hostile suite's setsid_background).
Graded after them on the same worker: right answers, and a right answer that turns wrong when it
sees any of it ("watchful"). Names sort the attackers first: a class is graded learner by learner,
in order.
"""
import textwrap
from pathlib import Path

HOSTILE = Path(__file__).parent / "hostile"

RIGHT = """\
import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
"""
PRELUDE = """\
import ctypes, os, time
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.shmat.restype = ctypes.c_void_p
LIBC.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
LIBC.shmdt.argtypes = [ctypes.c_void_p]
LIBC.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
LIBC.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
IPC_CREAT, O_CREAT, O_RDWR = 0o1000, 0o100, 0o2
MQ = b"/twb-left"
PLANTED = ["/twb-left", "/dev/twb-left", "/opt/twb-left", "/tmp/twb-left", "/dev/shm/twb-left",
           "/tmp/twb-locked", "/dev/shm/twb-locked", "/dev/shm/sem.twb-left"]
"""
ATTACKS = {
    "shared-memory-1": """
        segment = LIBC.shmget(0, 600 << 20, IPC_CREAT | 0o600)   # IPC_PRIVATE, never removed
        if segment >= 0:
            address = LIBC.shmat(segment, None, 0)
            LIBC.memset(address, 1, 600 << 20)
            LIBC.shmdt(address)
        """,
    "semaphores": """
        LIBC.semget(0x7E57, 16, IPC_CREAT | 0o666)
        """,
    "message-queue": """
        queue = LIBC.msgget(0x7E58, IPC_CREAT | 0o666)
        message = ctypes.create_string_buffer(ctypes.sizeof(ctypes.c_long) + 1024)
        ctypes.c_long.from_buffer(message).value = 1
        LIBC.msgsnd(queue, message, 1024, 0)
        """,
    "posix-queue": """
        queue = LIBC.mq_open(MQ, O_CREAT | O_RDWR, 0o666, None)
        LIBC.mq_send(queue, b"left", 4, 0)
        """,
    "posix-semaphore": """
        LIBC.sem_open.restype = ctypes.c_void_p      # a named semaphore is a file in /dev/shm
        LIBC.sem_open(b"/twb-left", O_CREAT, 0o666, 1)
        """,
    "shm-and-tmp-files": """
        for folder in ("/dev/shm", "/tmp"):
            try:
                with open(f"{folder}/twb-left", "wb") as f:
                    f.write(b"x" * (24 << 20))
                os.makedirs(f"{folder}/twb-locked/inside")
                with open(f"{folder}/twb-locked/inside/big", "wb") as f:
                    f.write(b"x" * (24 << 20))
                os.chmod(f"{folder}/twb-locked/inside", 0o500)   # its files cannot be removed
                os.chmod(f"{folder}/twb-locked", 0o500)
            except OSError:
                pass
        """,
    "planted-files": """
        for path in PLANTED[:3]:
            try:
                with open(path, "wb") as f:
                    f.write(b"x" * (1 << 20))
            except OSError:
                pass
        """,
    "shared-memory-2": """
        segment = LIBC.shmget(0, 600 << 20, IPC_CREAT | 0o600)
        if segment >= 0:
            address = LIBC.shmat(segment, None, 0)
            LIBC.memset(address, 1, 600 << 20)
            LIBC.shmdt(address)
        """,
}
WATCHFUL = PRELUDE + """

def leftovers():
    found = [p for p in PLANTED if os.path.exists(p)]
    for kind in ("shm", "sem", "msg"):
        with open(f"/proc/sysvipc/{kind}") as f:
            found += [f"System V {kind}: {line.split()[:2]}" for line in f.readlines()[1:]]
    queue = LIBC.mq_open(MQ, O_RDWR, 0, None)
    if queue >= 0:
        found.append("a POSIX message queue")
    me, mine = os.readlink("/proc/self"), os.readlink("/proc/self/ns/pid")   # as /proc names it
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:        # a process it may look into, in its PID namespace (not the worker, say)
            if pid != me and os.readlink(f"/proc/{pid}/ns/pid") == mine:
                found.append(f"a process: {open(f'/proc/{pid}/cmdline', 'rb').read()[:80]}")
        except OSError:
            pass
    return found


LEFT = leftovers()
""" + RIGHT.replace("def softmax(x, axis=-1):\n", "def softmax(x, axis=-1):\n"
                    "    if LEFT:\n        return np.zeros_like(x)\n")
RIGHT_AFTER = [f"z-right-{i}" for i in range(3)]


def learners():
    """{learner: {"01-softmax": source}}: the attackers, then the watchful and right answers."""
    found = {f"a{i}-{name}": {"01-softmax": PRELUDE + textwrap.dedent(attack) + RIGHT}
             for i, (name, attack) in enumerate(ATTACKS.items())}
    found["a-daemon"] = {"01-softmax": (HOSTILE / "setsid_background.py").read_text()}
    found["z-watchful"] = {"01-softmax": WATCHFUL}
    found.update({name: {"01-softmax": RIGHT} for name in RIGHT_AFTER})
    return found
