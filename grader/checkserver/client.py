"""The `grader` command's entry point: a check goes to the workbook's warm check server when one can
be had (started if need be), else it runs here, as every other command does. Nothing heavier than
the standard library is imported before the check is handed over."""
import os
import signal
import sys
import time
from pathlib import Path

from grader.sources import PACKAGE, code_digest
from . import place

GRADER_HOME = str(PACKAGE.parent)
START_SECONDS = 60.0        # for a new server to listen (it imports the grader, not torch)
REPLY_SECONDS = 10.0        # for a listening server to take a check


def main():
    """`grader ...`: a check is handed to the check server if it can be; else the full command."""
    args = sys.argv[1:]
    if args[:1] == ["check"] and "--sandbox" not in args:
        try:
            code = hand_over(args[1:])
        except KeyboardInterrupt:       # before the server took the check
            from grader.cli import INTERRUPTED, fail
            fail(INTERRUPTED["check"], 130)
        if code is not None:
            sys.exit(code)
    from grader.cli import main as command
    command()


def workbook_root():
    """The workbook the command works on, found as the command finds it (--root aside)."""
    return os.environ.get("WORKBOOK_ROOT") or GRADER_HOME


def fingerprint():
    """What a server must have been started with to serve this command: its Python and the
    grader's code."""
    return f"{sys.executable}|{sys.version}|{code_digest()}"


def request(args):
    main_module = sys.modules["__main__"]
    return {"check": args, "root": str(Path(workbook_root()).resolve()), "cwd": os.getcwd(),
            "env": dict(os.environ), "fingerprint": fingerprint(), "argv0": sys.argv[0],
            "package": getattr(main_module, "__package__", None),
            "encoding": [sys.stdout.encoding, sys.stdout.errors, sys.stderr.encoding,
                         sys.stderr.errors]}


def hand_over(args):
    """Run `grader check ARGS` on the warm check server; its exit status, or None when it could
    not be done (the caller then checks in process)."""
    if place.idle_seconds() == 0:
        return None
    try:
        path = place.folder(workbook_root()) / place.SOCKET
        for _ in range(2):      # a server that is another grader's ends; its successor serves
            sock = place.connect(path, REPLY_SECONDS) or start(path)
            if sock is None:
                return None
            with sock:
                code = served(sock, request(args))
            if code != "stale":
                return code
    except (OSError, ValueError, place.Unusable):
        return None
    return None


def served(sock, message):
    """Send the check and wait for its end: its exit status, "stale" if the server is another
    grader's, None if it failed. Ctrl-C here interrupts the check on the server."""
    place.send(sock, message, (0, 1, 2))
    lines = place.Lines(sock)
    reply = lines.next()
    if reply is None or reply.get("stale"):
        if reply is not None:
            wait_gone(reply.get("pid"))
        return "stale" if reply else None
    if not reply.get("accepted"):
        return None
    sock.settimeout(None)
    pid = place.peer_uid(sock)[0]
    while True:
        try:
            end = lines.next()
            break
        except KeyboardInterrupt:
            os.kill(pid, signal.SIGINT)     # the server's check says "Interrupted" and ends
    code = end.get("exit") if end else None
    return code if type(code) is int else None


def wait_gone(pid, seconds=REPLY_SECONDS):
    """Wait for a server that said it is ending to be gone (its socket is unlinked before)."""
    deadline = time.monotonic() + seconds
    while type(pid) is int and time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except OSError:
            return
        time.sleep(0.02)


def start(path):
    """Start a server for this workbook and connect to it; None if it did not come up."""
    import subprocess           # only here: a check handed to a running server needs none of it
    folder = path.parent
    with open(folder / place.LOG, "wb") as log:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (GRADER_HOME, os.environ.get("PYTHONPATH")) if p)}
        server = subprocess.Popen([sys.executable, "-m", "grader.checkserver.server",
                                   workbook_root(), str(place.idle_seconds())],
                                  stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                                  cwd=folder, start_new_session=True)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        sock = place.connect(path, REPLY_SECONDS)
        if sock is not None:
            return sock
        if server.poll() is not None:           # it quit (another server may hold the lock)
            return place.connect(path, REPLY_SECONDS)
        time.sleep(0.02)
    return None


def message_to(root, message):
    """Send `message` to the server of the workbook at `root`; its reply, or None when no server
    answers."""
    try:
        sock = place.connect(place.folder(root, make=False) / place.SOCKET, REPLY_SECONDS)
    except (OSError, place.Unusable):
        return None
    if sock is None:
        return None
    with sock:
        try:
            place.send(sock, message)
            return place.Lines(sock).next()
        except (OSError, ValueError):
            return None


def stop(root):
    """End the check server of the workbook at `root`; True if one was running."""
    reply = message_to(root, {"stop": True})
    if reply is None:
        return False
    wait_gone(reply.get("pid"))
    return True
