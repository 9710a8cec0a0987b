"""Run a learner's file in a child process, with limits, and collect its answers as untrusted data.

The child (grader.child) gets one request: the file, the calls of every case, the limits. It answers
one frame per case on its own pipe. A case that runs past its time, or a child that dies, costs that
case alone: a fresh child resumes with the next case, until the job's own time runs out.
"""
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .child import wire
from .outcome import Job, Outcome

GRADER_HOME = str(Path(__file__).resolve().parent.parent)
MAX_CHILD_OUTPUT = 64_000


@dataclass(frozen=True)
class Limits:
    case_seconds: float = 5.0
    import_seconds: float = 30.0
    job_seconds: float = 120.0
    memory_mb: int = 2048
    cpu_seconds: int = 60
    file_mb: int = 16
    open_files: int = 256
    processes: int = 16

    def for_child(self):
        return {"memory_mb": self.memory_mb, "cpu_seconds": self.cpu_seconds,
                "file_mb": self.file_mb, "open_files": self.open_files,
                "processes": self.processes}


def child_env():
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL")}
    env.update(PYTHONPATH=GRADER_HOME, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0",
               OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    for key in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


SIGNALS = {signal.SIGSEGV: "a segmentation fault", signal.SIGKILL: "it was killed",
           signal.SIGXCPU: "it used up its CPU time", signal.SIGXFSZ: "it wrote too large a file",
           signal.SIGABRT: "it aborted", signal.SIGBUS: "a bus error"}


def death(code):
    """Plain words for how a child ended."""
    if code < 0:
        sig = signal.Signals(-code)
        return f"the process died: {SIGNALS.get(sig, sig.name)}"
    return f"the process exited (status {code}) before it finished; did the code call exit()?"


class Child:
    """One child process working through the cases from `start` on."""

    def __init__(self, request, workdir):
        self.rfd, wfd = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "grader.child", str(wfd)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=(wfd,), cwd=workdir,
            env=child_env(), start_new_session=True)
        os.close(wfd)
        self.buffer = b""
        self.output = bytearray()
        self.eof = False
        self.code = None
        try:
            self.proc.stdin.write(request)
            self.proc.stdin.close()
        except BrokenPipeError:
            pass

    def next_frame(self, deadline):
        """The next decoded frame; None on time-out or end of stream. Raises WireError."""
        while True:
            frame = self.take_frame()
            if frame is not None or self.eof:
                return frame
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.rfd, self.proc.stdout], [], [], left)
            if self.proc.stdout in ready:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if len(self.output) < MAX_CHILD_OUTPUT:
                    self.output += chunk[:MAX_CHILD_OUTPUT - len(self.output)]
            if self.rfd in ready:
                chunk = os.read(self.rfd, 1 << 20)
                self.eof = not chunk
                self.buffer += chunk
                if len(self.buffer) > wire.MAX_HEADER + wire.MAX_BLOB:
                    raise wire.WireError("the child sent too much data")

    def take_frame(self):
        if len(self.buffer) < wire.PREFIX.size:
            if self.eof and self.buffer:
                raise wire.WireError("truncated frame")
            return None
        hlen, blen = wire.read_prefix(self.buffer[:wire.PREFIX.size])
        end = wire.PREFIX.size + hlen + blen
        if len(self.buffer) < end:
            if self.eof:
                raise wire.WireError("truncated frame")
            return None
        frame, self.buffer = self.buffer[:end], self.buffer[end:]
        return wire.decode(frame)

    def stop(self):
        """Kill the child's whole process group and reap it; returns its exit code."""
        if self.code is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.code = self.proc.wait()
            os.close(self.rfd)
            self.proc.stdout.close()
        return self.code


def expect(frame, kind, index=None):
    """Check a frame's shape; the child is untrusted, so anything unexpected breaks the job."""
    if not (isinstance(frame, dict) and frame.get("kind") == kind
            and (index is None or frame.get("index") == index)):
        raise wire.WireError("an unexpected frame")
    for key, types_ in (("error", (dict, type(None))), ("stdout", (str,))):
        if not isinstance(frame.get(key), types_):
            raise wire.WireError("a malformed frame")
    return frame


def case_outcome(frame):
    error = frame["error"]
    if error is not None:
        if not all(isinstance(error.get(k), str) for k in ("type", "message")):
            raise wire.WireError("a malformed error")
        error = {"type": error["type"], "message": error["message"],
                 "line": error.get("line") if type(error.get("line")) is int else None,
                 "trace": [t for t in error.get("trace") or [] if isinstance(t, str)][:8]}
        return Outcome("error", error=error, stdout=frame["stdout"])
    outputs, mutated = frame.get("outputs"), frame.get("mutated")
    if not isinstance(outputs, list) or not isinstance(mutated, list):
        raise wire.WireError("a malformed case frame")
    return Outcome("ok", outputs=outputs, mutated=[m for m in mutated if isinstance(m, str)],
                   stdout=frame["stdout"])


def run_job(path, cases, limits=Limits()):
    """Run every case of one lesson on the learner's file at `path`; returns a Job."""
    calls = [{"calls": [[c.fn, list(c.args), c.kwargs] for c in case.calls],
              "float_errors": case.float_errors} for case in cases]
    outcomes = [None] * len(cases)
    job = Job(outcomes)
    job_deadline = time.monotonic() + limits.job_seconds
    start = 0
    with tempfile.TemporaryDirectory(prefix="grader-") as workdir:
        while start < len(cases):
            request = wire.encode({"file": str(Path(path).resolve()), "cases": calls, "start": start,
                                   "limits": limits.for_child()})
            child = Child(request, workdir)
            try:
                start = attend(child, job, start, limits, job_deadline)
            except wire.WireError as exc:
                job.channel_error = (f"the submission interfered with the grader's result channel "
                                     f"({exc}); its remaining cases were not run")
                start = len(cases)
            finally:
                child.stop()
            if time.monotonic() >= job_deadline:
                break
    for i, o in enumerate(outcomes):
        if o is None:
            detail = job.channel_error or ("the file could not be imported" if job.import_error
                                           else "the job ran out of time")
            outcomes[i] = Outcome("not-run", detail=detail)
    return job


def attend(child, job, start, limits, job_deadline):
    """Collect one child's frames; returns the index to resume from (len(cases) when done)."""
    now = time.monotonic()
    frame = child.next_frame(min(now + limits.import_seconds, job_deadline))
    if frame is None:
        why = (f"importing it took longer than {limits.import_seconds:g} s (an endless loop at "
               "import time?)" if not child.eof else death(child.stop()))
        job.import_error = {"type": "ImportTimeout" if not child.eof else "ImportCrash",
                            "message": why, "line": None, "trace": []}
        return len(job.outcomes)
    frame = expect(frame, "imported")
    job.import_stdout = job.import_stdout or frame["stdout"]
    if frame["error"] is not None:
        job.import_error = case_outcome(frame).error
        return len(job.outcomes)
    for index in range(start, len(job.outcomes)):
        deadline = min(time.monotonic() + limits.case_seconds, job_deadline)
        frame = child.next_frame(deadline)
        if frame is None:
            if child.eof:
                job.outcomes[index] = Outcome("crash", detail=death(child.stop()))
            else:
                seconds = limits.case_seconds if deadline < job_deadline else limits.job_seconds
                job.outcomes[index] = Outcome("timeout", detail=f"it took longer than {seconds:g} s")
            return index + 1
        job.outcomes[index] = case_outcome(expect(frame, "case", index))
    return len(job.outcomes)
