"""Where a workbook's check server listens, and the checks both ends make on each other."""
import json
import math
import os
import socket
import stat
import struct
from pathlib import Path

FOLDER = Path(".workbook") / "checker"
SOCKET, PID, LOCK, LOG = "socket", "pid", "lock", "server.log"
IDLE_SECONDS = 900.0
MAX_IDLE_SECONDS = 7 * 24 * 3600.0


class Unusable(Exception):
    """The server's folder or socket is not one this user can trust: check in process."""


def idle_seconds():
    """How long a server waits for the next check (WORKBOOK_CHECK_IDLE, at most a week; 0: no
    server; anything else that is not a number: the default)."""
    text = os.environ.get("WORKBOOK_CHECK_IDLE", "").strip()
    try:
        seconds = float(text) if text else IDLE_SECONDS
    except ValueError:
        return IDLE_SECONDS
    return min(max(seconds, 0.0), MAX_IDLE_SECONDS) if math.isfinite(seconds) else IDLE_SECONDS


def folder(root, make=True):
    """The server's folder in the workbook at `root`, made 0700 when missing; raises Unusable if it
    is not a folder of this user's that only this user may enter."""
    path = Path(root) / FOLDER
    if make:
        path.parent.mkdir(exist_ok=True)
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise Unusable(f"{path} is not a private folder of this user's")
    return path


def address(path):
    """A name for the socket at `path` that fits in a socket address whatever the folder's length:
    through a descriptor of its folder (the caller closes the returned descriptor)."""
    fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    return fd, f"/proc/self/fd/{fd}/{path.name}"


def peer_uid(sock):
    """(pid, uid) of the process at the other end of the Unix socket `sock`."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", creds)
    return pid, uid


def connect(path, timeout):
    """A connection to the server listening at `path`, checked to be this user's; None when no
    server listens there (no socket, or a stale one). Raises Unusable for anything else."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISSOCK(info.st_mode) or info.st_uid != os.getuid():
        raise Unusable(f"{path} is not a socket of this user's")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    fd, name = address(path)
    try:
        sock.connect(name)
    except (ConnectionRefusedError, FileNotFoundError):
        sock.close()
        return None
    except OSError:
        sock.close()
        raise
    finally:
        os.close(fd)
    if peer_uid(sock)[1] != os.getuid():
        sock.close()
        raise Unusable("the check server is another user's")
    return sock


class Lines:
    """Newline-ended JSON messages read from a socket."""

    def __init__(self, sock, limit=1 << 20):
        self.sock, self.limit, self.buffer = sock, limit, b""

    def next(self):
        """The next message (a dict), or None once the other end closed."""
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
            if len(self.buffer) > self.limit:
                raise ValueError("a message too long")
        line, self.buffer = self.buffer.split(b"\n", 1)
        message = json.loads(line)
        if not isinstance(message, dict):
            raise ValueError("a message that is not an object")
        return message


def send(sock, message, fds=()):
    """Send one message (with descriptors, passed along with its first bytes)."""
    data = json.dumps(message).encode() + b"\n"
    sent = socket.send_fds(sock, [data], list(fds)) if fds else 0
    if sent < len(data):
        sock.sendall(data[sent:])
