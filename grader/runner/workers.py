"""Warm workers, seen from the trusted side: start them, lease them to jobs, replace the dead.

A worker (grader.runner.child.worker) imports numpy and torch once and forks a fresh child per job. The
parent hands each child three pipes through the worker: the request goes in on one, result frames
come back on another, printed output on the third. Nothing the worker or child says is trusted:
control messages are checked, and a worker that stops answering is killed and replaced. Where the
grader may make cgroups, each job runs in a new cgroup of its own (cgroups.py), which bounds its
memory and processes as a whole and is removed when it ends.
"""
import contextlib
import itertools
import json
import os
import queue
import secrets
import select
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import cgroups, isolation as isolation_, sandbox
from grader.errors import GraderError

GRADER_HOME = str(Path(__file__).resolve().parents[2])
START_SECONDS = 120.0
REPLY_SECONDS = 15.0
MAX_MESSAGE = 4096


class WorkerDied(Exception):
    """The worker stopped answering: it died, was killed, or broke its protocol."""


class JobNotClean(GraderError):
    """A job could not start clean: its child could not set up its sandbox, or its new cgroup was
    not empty. Nothing it ran is the learner's result: the pool retries it on a fresh worker, and
    if it fails again it is the grader's fault (recorded as such, and graded again next run)."""


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
    each of its jobs runs in a new cgroup of `group` (a cgroups.Group) when given."""

    def __init__(self, bwrap=None, preload=("numpy", "torch"), group=None, as_user=False):
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
        self.group = group
        self.sandboxed = bool(bwrap)
        self.host = self.proc.pid       # the worker's own pid, once a job has shown where it is
        self.ahead = None               # a Future: the next job's child, made while one is judged
        self.maker = ThreadPoolExecutor(1, thread_name_prefix="child-ahead")

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
        """A child for one job, sent `request` (bytes): the one made ahead, or a new one; returns
        the JobChild. With a cgroup group, the job as a whole is held to `limits` (the child's:
        memory_mb, processes). Raises what making the child ahead raised."""
        self.wait_ready()
        ahead, self.ahead = self.ahead, None
        child = ahead.result() if ahead else JobChild(self, next(self.ids), limits)
        child.begin(request, limits)
        return child

    def make_ahead(self, ended, limits):
        """In a thread of the worker's own, while the parent judges the job `ended` ran: wait for
        that child's end, then fork, set up and confine the next job's child (a fork, a cgroup and
        a child's end cost more than the rest of a job)."""
        def make():
            account = self.premade(limits)      # made while that child ends
            try:
                ended.stop(release=False)
                return JobChild(self, next(self.ids), limits, account)
            except BaseException:
                if account is not None:
                    account.close()
                raise
            finally:
                ended.release()                 # its cgroup goes once the next child is made
        self.ahead = self.maker.submit(make)

    def premade(self, limits):
        """A new cgroup for the next job, or None (without cgroups, or if it cannot be made now:
        the child then makes its own, and says why if that fails too)."""
        if self.group is None:
            return None
        try:
            return self.group.account(limits["memory_mb"], limits["processes"] + 1)
        except OSError:
            return None

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
        """End the worker and release its channel and the child made ahead (only when no job is
        using it)."""
        self.kill()
        self.maker.shutdown()
        if self.ahead and not self.ahead.exception():
            with contextlib.suppress(WorkerDied):
                self.ahead.result().stop()
        self.ahead = None
        self.sock.close()
        if not self.proc.stderr.closed:
            self.proc.stderr.close()


class JobChild:
    """One forked child as the parent sees it: its request (written as it reads it), its result
    frames, its printed output, its end. It is made (forked, set up, in its cgroup) before its job
    is known; the child waits for its request, so no learner code runs before it is confined."""

    def __init__(self, worker, job_id, limits, account=None):
        """`account`: the job's cgroup, made already (else the child makes it)."""
        self.worker, self.id, self.limits = worker, job_id, limits
        self.stopping = self.out_of_memory = False
        request_r, self.request_w = os.pipe()
        self.rfd, result_w = os.pipe()
        self.outfd, output_w = os.pipe()
        self.pending, self.closing = b"", False      # what the child has not read yet
        self.account = None
        try:
            worker.send({"run": job_id}, (request_r, result_w, output_w))
            reply = worker.receive(REPLY_SECONDS)
            if reply.get("started") != job_id:
                raise WorkerDied("it did not start the job")
            self.confine(reply.get("pid"), limits, account)
        except (WorkerDied, JobNotClean):
            for fd in (self.request_w, self.rfd, self.outfd):
                if fd is not None:
                    os.close(fd)
            if self.account is not None:
                self.account.close()
            raise
        finally:
            for fd in (request_r, result_w, output_w):
                os.close(fd)
        self.code = None

    def begin(self, request, limits):
        """Send the job's request, under the job's own limits."""
        if self.account is not None and limits != self.limits:
            self.account.set_limits(limits["memory_mb"], limits["processes"] + 1)
            self.memory_mb = limits["memory_mb"]
        self.limits = limits
        self.send(request)

    def confine(self, pid, limits, account=None):
        """Move the child, still waiting for its request, into a new cgroup of its own (`account`,
        or one made now)."""
        self.account = account
        if self.worker.group is None:
            return
        if type(pid) is not int or pid <= 0:
            raise WorkerDied("it did not say which process runs the job")
        self.memory_mb = limits["memory_mb"]
        try:
            self.account = account or self.worker.group.account(self.memory_mb,
                                                                limits["processes"] + 1)
            self.account.attach(self.worker.host_pid(pid))
        except cgroups.NotEmpty as exc:
            raise JobNotClean(str(exc)) from None
        except OSError as exc:      # the worker is replaced
            raise WorkerDied(f"its job could not be put in its cgroup ({exc})") from None

    def send(self, data, last=False):
        """Queue `data` for the child's request pipe (closed after it when `last`); as much as the
        pipe holds goes in now, the rest while the parent waits for frames."""
        self.pending += data
        self.closing = self.closing or last
        self.feed()

    def feed(self):
        """Write what the pipe takes now without blocking; close it once all is written and no
        more will come, or once the child no longer reads."""
        if self.request_w is None:
            return
        try:
            os.set_blocking(self.request_w, False)
            while self.pending:
                self.pending = self.pending[os.write(self.request_w, self.pending):]
        except BlockingIOError:
            return
        except OSError:             # the child is gone, or closed its end; its end says why
            self.pending, self.closing = b"", True
        if self.closing:
            os.close(self.request_w)
            self.request_w = None

    def wait(self, fds, deadline):
        """The subset of `fds` ready before `deadline`, feeding the request meanwhile; notes the
        child's end if the worker reports it."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            oom = self.account.fd if self.account is not None and not self.stopping else None
            watched = list(fds) + ([self.worker.sock] if self.code is None else []) \
                + ([oom] if oom is not None else [])
            feeding = [self.request_w] if self.pending and self.request_w is not None else []
            ready, writable, _ = select.select(watched, feeding, [], left)
            if writable:
                self.feed()
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
        if self.account.out_of_memory() and self.code is None:
            self.out_of_memory = self.stopping = True
            self.worker.send({"stop": self.id})

    def ended(self, message):
        if message.get("exited") != self.id or type(message.get("code")) is not int:
            raise WorkerDied("an unexpected message")
        self.code = message["code"]

    def interrupt(self):
        """Ask the worker to signal the child to report where it is (at a time-out)."""
        self.worker.send({"where": self.id})

    def finish(self):
        """End the child without waiting: the worker kills what is left of it, and the next job's
        child is made ahead meanwhile (its cgroup goes once the worker says it has ended)."""
        if self.code is None and not self.stopping:
            self.stopping = True
            try:
                self.worker.send({"stop": self.id})
            except WorkerDied:
                self.stop()         # the worker is gone: release the child now, and say so
        self.close_pipes()
        self.worker.make_ahead(self, self.limits)

    def close_pipes(self):
        if self.rfd is not None:
            for fd in (self.rfd, self.outfd) + ((self.request_w,) if self.request_w else ()):
                os.close(fd)
            self.rfd = self.outfd = self.request_w = None

    def stop(self, grace=0.0, release=True):
        """Kill the child's whole process tree (the worker does it) and return its exit code; with
        `grace`, first give a child that is ending anyway that long to end by itself. Its cgroup
        is removed then, or by `release` later."""
        try:
            deadline = time.monotonic() + grace
            while self.code is None and (left := deadline - time.monotonic()) > 0:
                if select.select([self.worker.sock], [], [], left)[0]:
                    self.ended(self.worker.receive(0))
            if self.code is None:
                if not self.stopping:
                    self.worker.send({"stop": self.id})
                self.ended(self.worker.receive(REPLY_SECONDS))
            if self.account is not None and not self.out_of_memory:
                self.out_of_memory = self.account.out_of_memory()
        finally:
            self.close_pipes()
            if release:
                self.release()
        return self.code

    def release(self):
        """Remove the cgroup of a child that has ended."""
        if self.account is not None:
            self.account.close()
            self.account = None


def preload_for(lessons):
    """The libraries a pool grading `lessons` should import once: numpy, and torch if one needs it."""
    return ("numpy",) + (("torch",) if any("torch" in l.libraries for l in lessons) else ())


CLOSED = object()       # what a closed pool hands a job instead of a worker


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
        worker = Worker(self.bwrap, self.preload, self.cgroups, self.isolation.kind == "user")
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
        """Call `job(worker)`; if the worker dies, or the job could not start clean, retry once on
        a fresh worker, then re-raise. On a closed pool it raises WorkerDied, never waits."""
        worker = self.idle.get()
        if worker is CLOSED:
            self.idle.put(CLOSED)               # for the next job that asks
            raise WorkerDied("grading has stopped: the pool of workers is closed")
        try:
            for attempt in range(2):
                try:
                    return job(worker)
                except (WorkerDied, JobNotClean):
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
            worker = self.idle.get()
            if worker is not CLOSED:
                worker.close()
        self.idle.put(CLOSED)       # a job still asking for a worker gets this, not a wait
        if self.cgroups:            # with the cgroups of jobs still running
            self.cgroups.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
