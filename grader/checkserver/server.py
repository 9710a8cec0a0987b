"""The warm check server of one workbook: it listens on `.workbook/checker/socket` and runs each
check it is handed exactly as `grader check` would, one at a time, on the checking command's own
standard streams, environment and folder. Usage: python -m grader.checkserver.server ROOT IDLE."""
import contextlib
import fcntl
import io
import os
import select
import signal
import socket
import sys
import traceback
import types
from pathlib import Path

from . import place
from .client import fingerprint

ACCEPT_SECONDS = 5.0        # for a connected client to send its request


class Server:
    def __init__(self, root, idle):
        self.root, self.idle = str(Path(root).resolve()), idle
        self.folder = place.folder(root)
        self.path = self.folder / place.SOCKET
        self.fingerprint = fingerprint()
        self.served = 0
        self.kept = None

    def listen(self):
        """Take the workbook's server lock and listen; False if another server holds the lock."""
        self.lock = open(self.folder / place.LOCK, "a")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)                # a dead server's
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        fd, name = place.address(self.path)
        old = os.umask(0o177)
        try:
            self.sock.bind(name)
        finally:
            os.umask(old)
            os.close(fd)
        self.inode = os.lstat(self.path).st_ino
        (self.folder / place.PID).write_text(f"{os.getpid()}\n")
        self.sock.listen(8)
        return True

    def serve(self):
        """Answer checks until idle for `idle` seconds, stopped, or handed a check by another
        grader."""
        from grader.learner import warm
        self.kept = warm.KEPT = warm.Kept()
        while select.select([self.sock], [], [], self.idle)[0]:
            conn, _ = self.sock.accept()
            with conn:
                if not self.answer(conn):
                    return

    def answer(self, conn):
        """Handle one connection; False when the server should end."""
        try:
            if place.peer_uid(conn)[1] != os.getuid():
                return True
            conn.settimeout(ACCEPT_SECONDS)
            data, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
            lines = place.Lines(conn)
            lines.buffer = data
            message = lines.next() if data else None
        except (OSError, ValueError):
            return True
        try:
            if message is None:
                return True
            if message.get("stop"):
                self.close()
                place.send(conn, {"stopped": True, "pid": os.getpid()})
                return False
            if "served" in message:
                place.send(conn, {"pid": os.getpid(), "served": self.served,
                                  "fingerprint": self.fingerprint})
                return True
            if message.get("fingerprint") != self.fingerprint or message.get("root") != self.root:
                self.close()
                place.send(conn, {"stale": True, "pid": os.getpid()})
                return False
            if len(fds) != 3:
                return True
            place.send(conn, {"accepted": True})
            code = self.check(message, fds)
            self.served += 1
            place.send(conn, {"exit": code})
        except OSError:         # the client went away; its check was run or is lost with it
            pass
        finally:
            for fd in fds:
                os.close(fd)
        return True

    def check(self, message, fds):
        """Run `grader check ARGS` as the client's own process would; its exit status."""
        saved_env, saved_cwd = dict(os.environ), os.getcwd()
        saved = [os.dup(n) for n in (0, 1, 2)]
        saved_streams = sys.stdin, sys.stdout, sys.stderr, sys.argv
        code = 1
        try:
            os.environ.clear()
            os.environ.update(message["env"])
            os.chdir(message["cwd"])
            for n, fd in enumerate(fds):
                os.dup2(fd, n)
            out_enc, out_err, err_enc, err_err = message["encoding"]
            sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), out_enc, out_err,
                                          line_buffering=os.isatty(1))
            sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), err_enc, err_err,
                                          line_buffering=True)
            sys.argv = [message["argv0"], "check", *message["check"]]
            code = self.run_command(message)
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            sys.stdin, sys.stdout, sys.stderr, sys.argv = saved_streams
            for n, fd in enumerate(saved):
                os.dup2(fd, n)
                os.close(fd)
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, ended)
        if code not in (0, 1):          # interrupted or failed: its workers are in no known state
            self.kept.close()
        return code

    def run_command(self, message):
        import click.utils
        from rich.console import Console
        from grader import cli
        cli.console = Console(highlight=False, soft_wrap=True)     # for this terminal
        name = click.utils._detect_program_name(
            message["argv0"], types.SimpleNamespace(__package__=message["package"]))
        try:
            cli.main(prog_name=name)
        except SystemExit as exc:
            code = exc.code
            if code is None or type(code) is int:
                return code or 0
            print(code, file=sys.stderr)
            return 1
        except BaseException:       # as an uncaught exception ends a process
            traceback.print_exc()
            return 1
        return 0

    def close(self):
        """Stop listening and release the socket (only this server's own)."""
        with contextlib.suppress(OSError):
            if os.lstat(self.path).st_ino == self.inode:
                os.unlink(self.path)
        with contextlib.suppress(OSError):
            os.unlink(self.folder / place.PID)
        self.sock.close()

    def end(self):
        if self.kept is not None:
            self.kept.close()
        if self.sock.fileno() >= 0:
            self.close()


def ended(signum, frame):
    raise SystemExit(0)


def main(argv):
    root, idle = argv[0], float(argv[1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, ended)
    server = Server(root, idle)
    if not server.listen():
        return
    try:
        server.serve()
    finally:
        server.end()


if __name__ == "__main__":
    main(sys.argv[1:])
