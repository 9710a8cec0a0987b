"""Warm workers, seen from the trusted side: start them, lease them to jobs, replace the dead.

A worker (grader.runner.child.worker) is forked from a zygote (zygote.py) that imported numpy and
torch once, and forks a fresh child per job. The parent hands each child three pipes through the worker: the request goes in on one, result frames
come back on another, printed output on the third. Nothing the worker or child says is trusted:
control messages are checked, and a worker that stops answering is killed and replaced. Where the
grader may make cgroups, each worker runs in a cgroup of its own (cgroups.py), and so is every job's
child, forked there: it bounds the job's memory and processes as a whole, and holds nothing but the
worker whenever a job begins.
"""
import contextlib
import itertools
import json
import os
import queue
import re
import secrets
import shutil
import select
import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor

from . import cgroups, isolation as isolation_
from .zygote import GRADER_HOME, Zygote
from grader.errors import GraderError

START_SECONDS = 120.0
REPLY_SECONDS = 15.0
MAX_MESSAGE = 4096


class WorkerDied(Exception):
    """The worker stopped answering: it died, was killed, or broke its protocol."""


class JobNotClean(GraderError):
    """A job could not start clean: its child could not set up its sandbox, or a worker's new cgroup
    was not empty. Nothing it ran is the learner's result: the pool retries it on a fresh worker, and
    if it fails again it is the grader's fault (recorded as such, and graded again next run)."""


def shield(pid):
    """Keep the kernel's memory killer off process `pid`, where the grader may; whether it did."""
    try:
        with open(f"/proc/{pid}/oom_score_adj", "w") as f:
            f.write("-1000")
        return True
    except OSError:
        return False


class Worker:
    """One warm worker process, forked from `zygote` (a zygote.Zygote): its jobs' children run as
    `uid`, an unprivileged user of this worker's own, where the worker may switch users (None:
    as the worker's), `as_user` without the sandbox (child.asuser); it and its jobs run in a
    cgroup of `group` (a cgroups.Group) when given. `owns`: the zygote ends with this worker."""

    def __init__(self, zygote, group=None, uid=None, as_user=False, owns=False):
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            zygote.fork(theirs, uid, as_user)
        finally:
            theirs.close()
        self.zygote, self.owns = zygote, owns
        self.ids = itertools.count()
        self.ready = False
        self.group = group
        self.home = None                # its cgroup (a cgroups.Account), once a job needs it
        self.home_tasks = 0             # the tasks the worker itself counts in it
        self.shielded = False
        self.pid = None                 # the worker's pid on this side, once it is ready
        self.pidfd = None
        self.sandboxed = zygote.sandboxed
        self.ahead = None               # a Future: the next job's child, made while one is judged
        self.maker = ThreadPoolExecutor(1, thread_name_prefix="child-ahead")

    def wait_ready(self):
        """Block until the worker is forked, its libraries imported; raises GraderError if it
        cannot start."""
        if self.ready:
            return
        try:
            said = self.receive(START_SECONDS)
            if said.get("ready") is not True or len(said) != 3 or any(
                    type(said.get(key)) is not int for key in ("pid", "zygote")):
                raise WorkerDied("an unexpected first message")
            self.pid = self.zygote.host_pid_of(said["pid"], said["zygote"])
            if self.pid is None:
                raise WorkerDied("it is not the process it said it was")
            self.pidfd = os.pidfd_open(self.pid)
        except (WorkerDied, OSError) as exc:
            why = self.zygote.why_not() or str(exc)
            self.close()
            raise GraderError(f"the grading worker could not start: {why}") from None
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
        that child's end, then fork the next job's child, which waits for its request (a fork and
        a child's end cost more than the rest of a job)."""
        def make():
            ended.stop()
            return JobChild(self, next(self.ids), limits)
        self.ahead = self.maker.submit(make)

    def account_for(self, limits):
        """The worker's cgroup, holding nothing but the worker, under a job's `limits`; None without
        cgroups. Where the last job still weighs on it (a task left, or memory over the worker's
        allowance), the worker moves to a fresh one first. Raises cgroups.NotEmpty if a fresh one
        is not empty, OSError if one cannot be made or joined."""
        if self.group is None:
            return None
        if self.home is not None:
            memory, tasks = self.home.charged()
            if tasks != self.home_tasks or memory > cgroups.ALLOWANCE_MB * cgroups.MiB:
                self.move_home(limits)
        else:
            self.move_home(limits)
        self.fit(limits)
        self.home.begin()
        return self.home

    def fit(self, limits):
        """Hold the worker's cgroup to a job's `limits`, beside what the worker itself uses."""
        self.home.set_limits(limits["memory_mb"] + cgroups.ALLOWANCE_MB,
                             self.home_tasks + limits["processes"] + 1)

    def move_home(self, limits):
        """Move the worker, running no job, into a fresh cgroup; the old one (with anything left
        in it) goes."""
        pid = self.host_pid()
        self.shielded = self.shielded or shield(pid)
        home = self.group.account(limits["memory_mb"] + cgroups.ALLOWANCE_MB,
                                  limits["processes"] + 2, group_kill=self.shielded)
        try:
            home.attach(pid)
            self.home_tasks = home.charged()[1]
        except BaseException:
            home.close()
            raise
        old, self.home = self.home, home
        if old is not None:
            for left in old.processes():
                with contextlib.suppress(OSError):
                    os.kill(left, signal.SIGKILL)
            old.close(wait=0)       # what is still ending there goes with the grader's folder

    def host_pid(self):
        """The worker's pid on this side (in the sandbox it sees a PID namespace of its own)."""
        self.wait_ready()
        return self.pid

    def kill(self):
        """End the worker; a job running on it, in another thread, then fails with WorkerDied."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if self.pidfd is not None:
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            if select.select([self.pidfd], [], [], REPLY_SECONDS)[0] and not self.sandboxed:
                remove_job_folders(self.pid)
        if self.owns:
            self.zygote.close()

    def close(self):
        """End the worker and release its channel, the child made ahead and its cgroup (only when
        no job is using it)."""
        self.kill()
        self.maker.shutdown()
        if self.ahead and not self.ahead.exception():
            with contextlib.suppress(WorkerDied):
                self.ahead.result().stop()
        self.ahead = None
        if self.home is not None:
            self.home.close()
            self.home = None
        self.sock.close()
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None


JOB_FOLDER = re.compile(r"job-(\d+)-[0-9a-f]{8}")


def remove_job_folders(pid):
    """Remove the job folders a worker that has ended left in the temporary folder (without the
    sandbox, the job it was running, or the child it had made ahead, kept one): job-PID-XXXXXXXX,
    as child.worker names them. The worker makes each before it forks the job's child, so none
    appears once it has ended."""
    base = os.environ.get("TMPDIR", "/tmp")
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        found = JOB_FOLDER.fullmatch(name)
        if found and int(found[1]) == pid:
            shutil.rmtree(os.path.join(base, name), ignore_errors=True)   # never follows a link


class JobChild:
    """One forked child as the parent sees it: its request (written as it reads it), its result
    frames, its printed output, its end. It is made (forked, set up, in its worker's cgroup) before
    its job is known; the child waits for its request, so no learner code runs before it is
    confined."""

    def __init__(self, worker, job_id, limits):
        self.worker, self.id, self.limits = worker, job_id, limits
        self.memory_mb = limits["memory_mb"]
        self.stopping = self.out_of_memory = False
        request_r, self.request_w = os.pipe()
        self.rfd, result_w = os.pipe()
        self.outfd, output_w = os.pipe()
        self.pending, self.closing = b"", False      # what the child has not read yet
        try:
            self.account = worker.account_for(limits)
            worker.send({"run": job_id}, (request_r, result_w, output_w))
            reply = worker.receive(REPLY_SECONDS)
            if reply.get("started") != job_id:
                raise WorkerDied("it did not start the job")
        except BaseException as exc:
            for fd in (self.request_w, self.rfd, self.outfd):
                os.close(fd)
            if isinstance(exc, cgroups.NotEmpty):
                raise JobNotClean(str(exc)) from None
            if isinstance(exc, OSError):    # the worker is replaced
                raise WorkerDied(f"it could not be given a clean cgroup ({exc})") from None
            raise
        finally:
            for fd in (request_r, result_w, output_w):
                os.close(fd)
        self.code = None

    def begin(self, request, limits):
        """Send the job's request, under the job's own limits."""
        if self.account is not None and limits != self.limits:
            self.worker.fit(limits)
            self.memory_mb = limits["memory_mb"]
        self.limits = limits
        self.send(request)

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
        child is made ahead meanwhile, once the worker says it has ended."""
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
            if self.account is not None and not self.out_of_memory:
                self.out_of_memory = self.account.out_of_memory()
        finally:
            self.close_pipes()
        return self.code


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
        # run by root, every worker's jobs run as a user of that worker's own (and so do they
        # without the sandbox, as an ordinary user): the workers share one zygote. In a sandbox
        # of one user (run by an ordinary user) a job's process limit counts all that user's
        # processes there, so each worker has a zygote, and a sandbox, of its own.
        self.own_users = os.geteuid() == 0 and (bool(self.bwrap) or self.isolation.kind == "user")
        self.shared = not self.bwrap or self.own_users
        self.zygotes = []
        try:
            for _ in range(size):
                self.idle.put(self.spawn())
        except BaseException:
            self.close()
            raise

    def spawn(self):
        """A new worker, forked from the shared zygote while it lives, else from a new one."""
        zygote = self.zygotes[-1] if self.shared and self.zygotes and self.zygotes[-1].alive() \
            else None
        if zygote is None:
            zygote = Zygote(self.bwrap, self.preload)
            self.zygotes.append(zygote)
        uid = 100_000 + secrets.randbelow(1 << 30) if self.own_users else None
        worker = Worker(zygote, self.cgroups, uid, self.isolation.kind == "user",
                        owns=not self.shared)
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
        for zygote in self.zygotes:
            zygote.close()
        if self.cgroups:            # with the cgroups of workers still busy
            self.cgroups.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
