"""Warm workers, seen from the trusted side: start them, lease them to jobs, replace the dead.

A worker (grader.runner.child.worker) imports numpy and torch once and forks a fresh child per job. The
parent hands each child three pipes through the worker: the request goes in on one, result frames
come back on another, printed output on the third. Nothing the worker or child says is trusted:
control messages are checked, and a worker that stops answering is killed and replaced. Where the
grader may make cgroups, each worker's jobs run in a cgroup of their own (cgroups.py), which bounds
a job's memory and processes as a whole.
"""
import itertools
import json
import os
import queue
import secrets
import select
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from . import cgroups, isolation as isolation_, sandbox
from grader.errors import GraderError

GRADER_HOME = str(Path(__file__).resolve().parents[2])
START_SECONDS = 120.0
REPLY_SECONDS = 15.0
MAX_MESSAGE = 4096


class WorkerDied(Exception):
    """The worker stopped answering: it died, was killed, or broke its protocol."""


def read(path):
    with open(path) as f:
        return f.read()


def child_env(pythonpath, sandboxed):
    """The environment of a worker and its children: no secrets, one thread per library."""
    env = {k: v for k, v in os.environ.items()
           if k in ("PATH", "LANG", "LC_ALL", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
           or (k == "TMPDIR" and not sandboxed)}
    env.update(PYTHONPATH=pythonpath, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0",
               HOME="/tmp", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    if sandboxed:       # the host's PATH may name its own folders (a virtual environment's bin/)
        env["PATH"] = sandbox.PATH
    return env


class Worker:
    """One warm worker process, sandboxed when `bwrap` names the bubblewrap executable, or (run by
    root) with its jobs `as_user`, an unprivileged user of its own without network (child.asuser);
    its jobs run in `slot` (a cgroups.Slot) when given."""

    def __init__(self, bwrap=None, preload=("numpy", "torch"), slot=None, as_user=False):
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        args = ["-P", "-m", "grader.runner.child", str(theirs.fileno()),
                "--preload", ",".join(preload)]
        argv, fds, pythonpath, uid = [sys.executable, *args], [], GRADER_HOME, None
        if bwrap:
            argv, fds, uid = sandbox.command(bwrap, GRADER_HOME, args + ["--sandboxed"])
            pythonpath = sandbox.CHILD_HOME
            if uid is not None:
                argv += ["--uid", str(uid)]
        elif as_user:
            argv += ["--uid", str(100_000 + secrets.randbelow(1 << 30)), "--as-user"]
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
        self.ids = itertools.count()
        self.ready = False
        self.slot = slot
        self.sandboxed = bool(bwrap)
        self.host = self.proc.pid       # the worker's own pid, once a job has shown where it is

    def wait_ready(self):
        """Block until the worker has imported its libraries; raises GraderError if it cannot."""
        if self.ready:
            return
        try:
            if self.receive(START_SECONDS) != {"ready": True}:
                raise WorkerDied("an unexpected first message")
        except WorkerDied as exc:
            self.kill()
            why = self.proc.stderr.read().decode(errors="replace").strip()[-2000:] or str(exc)
            self.close()
            raise GraderError(f"the grading worker could not start: {why}") from None
        self.proc.stderr.close()
        self.ready = True

    def send(self, message, fds=()):
        try:
            socket.send_fds(self.sock, [json.dumps(message).encode()], list(fds))
        except OSError as exc:
            raise WorkerDied(str(exc)) from None

    def receive(self, timeout):
        """The worker's next message (a dict); raises WorkerDied on silence, death or nonsense."""
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            raise WorkerDied("it stopped answering")
        try:
            message = json.loads(self.sock.recv(MAX_MESSAGE) or b"null")
        except (OSError, ValueError):
            message = None
        if not isinstance(message, dict):
            raise WorkerDied("it closed its channel")
        return message

    def start(self, request, limits):
        """Fork a child for one job and send it `request` (bytes); returns the JobChild. With a
        slot, the job as a whole is held to `limits` (the child's: memory_mb, processes)."""
        self.wait_ready()
        return JobChild(self, next(self.ids), request, limits)

    def host_pid(self, pid):
        """The pid on this side of the job child the worker calls `pid` (in the sandbox, the
        worker sees its own pid namespace); raises WorkerDied if the worker has no such child."""
        level, depth = [self.host], int(self.sandboxed)    # the worker's PID namespace's depth
        for _ in range(4):          # bwrap, its init, the worker, the job's child
            found = []
            for parent in level:
                try:
                    found += map(int, read(f"/proc/{parent}/task/{parent}/children").split())
                except OSError:
                    continue
            for kid in found:
                try:
                    ns = read(f"/proc/{kid}/status").split("NSpid:")[1].split("\n")[0].split()
                except (OSError, IndexError):
                    continue
                if len(ns) > depth and ns[depth] == str(pid):
                    self.host = int(read(f"/proc/{kid}/stat").rsplit(")", 1)[1].split()[1])
                    return kid
            level = found
        raise WorkerDied("it named a job process it does not have")

    def kill(self):
        """End the worker; a job running on it, in another thread, then fails with WorkerDied."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def close(self):
        """End the worker and release its channel and slot (only when no job is using it)."""
        self.kill()
        self.sock.close()
        if self.slot is not None:
            self.slot.close()
        if not self.proc.stderr.closed:
            self.proc.stderr.close()


class JobChild:
    """One forked child as the parent sees it: its result frames, its printed output, its end."""

    def __init__(self, worker, job_id, request, limits):
        self.worker, self.id = worker, job_id
        self.stopping = self.out_of_memory = False
        request_r, request_w = os.pipe()
        self.rfd, result_w = os.pipe()
        self.outfd, output_w = os.pipe()
        # The child reads its request as soon as it exists: where it must first be put in its
        # cgroup, the request goes in only after that, so no learner code runs outside it.
        confined = worker.slot is not None
        sent = 0 if confined else self.prefill(request_w, request)
        try:
            worker.send({"run": job_id}, (request_r, result_w, output_w))
            reply = worker.receive(REPLY_SECONDS)
            if reply.get("started") != job_id:
                raise WorkerDied("it did not start the job")
            self.confine(reply.get("pid"), limits)
        except WorkerDied:
            for fd in (request_w, self.rfd, self.outfd):
                os.close(fd)
            raise
        finally:
            for fd in (request_r, result_w, output_w):
                os.close(fd)
        self.code = None
        if confined:
            sent = self.prefill(request_w, request)
        if sent < len(request):
            threading.Thread(target=self.feed, args=(request_w, request[sent:]),
                             daemon=True).start()
        else:
            os.close(request_w)

    @staticmethod
    def prefill(fd, data):
        """Put as much of the request as the pipe holds (all of a usual one) before the child
        exists, so it finds it there; returns how many bytes went in."""
        os.set_blocking(fd, False)
        try:
            return os.write(fd, data)
        except BlockingIOError:
            return 0
        finally:
            os.set_blocking(fd, True)

    def confine(self, pid, limits):
        """Move the child, still waiting for its request, into the worker's slot."""
        self.slot = self.worker.slot
        if self.slot is None:
            return
        if type(pid) is not int or pid <= 0:
            raise WorkerDied("it did not say which process runs the job")
        self.memory_mb = limits["memory_mb"]
        try:
            self.slot.attach(self.worker.host_pid(pid), self.memory_mb, limits["processes"] + 1)
        except OSError as exc:      # the worker is replaced, with a slot of its own
            raise WorkerDied(f"its job could not be put in its cgroup ({exc})") from None

    @staticmethod
    def feed(fd, data):
        try:
            with os.fdopen(fd, "wb") as pipe:
                pipe.write(data)
        except OSError:
            pass        # the child died before it read its request; its end says why

    def wait(self, fds, deadline):
        """The subset of `fds` ready before `deadline`; notes the child's end if the worker reports it."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            oom = self.slot.fd if self.slot is not None and not self.stopping else None
            watched = list(fds) + ([self.worker.sock] if self.code is None else []) \
                + ([oom] if oom is not None else [])
            ready, _, _ = select.select(watched, [], [], left)
            if self.worker.sock in ready:
                self.ended(self.worker.receive(0))
                ready.remove(self.worker.sock)
            if oom in ready:
                ready.remove(oom)
                self.over_memory()
            if ready:
                return ready

    def over_memory(self):
        """The job hit its memory limit (some process of it was killed): end all of it."""
        if self.slot.out_of_memory() and self.code is None:
            self.out_of_memory = self.stopping = True
            self.worker.send({"stop": self.id})

    def ended(self, message):
        if message.get("exited") != self.id or type(message.get("code")) is not int:
            raise WorkerDied("an unexpected message")
        self.code = message["code"]

    def interrupt(self):
        """Ask the worker to signal the child to report where it is (at a time-out)."""
        self.worker.send({"where": self.id})

    def stop(self, grace=0.0):
        """Kill the child's whole process tree (the worker does it) and return its exit code; with
        `grace`, first give a child that is ending anyway that long to end by itself."""
        try:
            deadline = time.monotonic() + grace
            while self.code is None and (left := deadline - time.monotonic()) > 0:
                if select.select([self.worker.sock], [], [], left)[0]:
                    self.ended(self.worker.receive(0))
            if self.code is None:
                if not self.stopping:
                    self.worker.send({"stop": self.id})
                self.ended(self.worker.receive(REPLY_SECONDS))
            if self.slot is not None and not self.out_of_memory:
                self.out_of_memory = self.slot.out_of_memory()
        finally:
            if self.rfd is not None:
                os.close(self.rfd)
                os.close(self.outfd)
                self.rfd = self.outfd = None
        return self.code


def preload_for(lessons):
    """The libraries a pool grading `lessons` should import once: numpy, and torch if one needs it."""
    return ("numpy",) + (("torch",) if any("torch" in l.libraries for l in lessons) else ())


class Pool:
    """`size` warm workers; `run` leases one to a job, replacing a worker that dies under it."""

    def __init__(self, size=1, sandboxed=False, preload=("numpy", "torch"), isolation=None):
        """`isolation` (an isolation.Isolation) when chosen already; else bubblewrap's sandbox
        when `sandboxed`."""
        self.isolation = isolation or isolation_.choose(sandboxed)
        self.bwrap = self.isolation.bwrap
        self.preload = tuple(preload)
        self.workers = []
        self.closed = False
        self.idle = queue.Queue()
        self.cgroups, self.no_cgroups = cgroups.open_group() if size else (None, "no workers")
        try:
            for _ in range(size):
                self.idle.put(self.spawn())
        except BaseException:
            self.close()
            raise

    def spawn(self):
        slot = self.cgroups.slot() if self.cgroups else None
        worker = Worker(self.bwrap, self.preload, slot, self.isolation.kind == "user")
        self.workers.append(worker)
        return worker

    def confinement(self, limits):
        """In plain words, how a job's memory and processes are bounded (`limits`: run.Limits)."""
        return cgroups.describe(self.cgroups, self.no_cgroups, limits.memory_mb, limits.processes)

    def wait_ready(self):
        """Block until every worker has imported its libraries (call before jobs start)."""
        for worker in self.workers:
            worker.wait_ready()

    def run(self, job):
        """Call `job(worker)`; if the worker dies, retry once on a fresh one, then re-raise."""
        worker = self.idle.get()
        try:
            for attempt in range(2):
                try:
                    return job(worker)
                except WorkerDied:
                    if attempt or self.closed:
                        raise
                    worker.close()
                    self.workers.remove(worker)
                    worker = self.spawn()
        finally:
            self.idle.put(worker)

    def close(self):
        """End every worker, busy or idle; jobs still running fail and none is retried."""
        self.closed = True
        for worker in self.workers:
            worker.kill()
        while not self.idle.empty():
            self.idle.get().close()
        for worker in self.workers:         # a busy one, killed above
            if worker.slot is not None:
                worker.slot.close()
        if self.cgroups:
            self.cgroups.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
