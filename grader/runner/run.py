"""Run a learner's source in children forked by a warm worker, and collect answers as untrusted data.

A child first says it is ready (its sandbox is set up); a child that does not is the grader's
failure (JobNotClean), never the learner's. Its request is the source, the limits and the public
cases; it answers one frame per case on its own pipe, and only once every public case is answered
does it get the hidden cases' inputs (so what it printed while public cases ran, which the learner
may see, was printed with no hidden input in the process). A case that runs past its time, or a
child that dies, costs that case alone: a fresh child resumes with the next case, until the job's
own time, or its quota of time-outs, runs out.

Everything a child sends is untrusted, whatever its own caps say (the learner's code runs in the
child and can lift them, or write frames of its own): every string is cut to the parent's own size on
arrival, every number checked, and the grader's own kinds of error accepted only with the mark the
runner gives them and only with words the parent writes itself.
"""
import os
import select
import signal
import time
from dataclasses import dataclass

from .child import wire
from .child.runner import MAX_CAPTURE, MAX_MESSAGE
from .child.worker import RUNNER_FAILED
from .outcome import Job, Outcome, grader_error, last_words
from .workers import JobNotClean

WHERE_SECONDS = 2.0     # how long a timed-out child may take to say where it is

@dataclass(frozen=True)
class Limits:
    case_seconds: float = 5.0
    import_seconds: float = 10.0
    job_seconds: float = 120.0
    max_timeouts: int = 3
    memory_mb: int = 1024
    cpu_seconds: int = 60
    file_mb: int = 16
    open_files: int = 256
    processes: int = 8

    def for_child(self):
        return {"memory_mb": self.memory_mb, "cpu_seconds": self.cpu_seconds,
                "file_mb": self.file_mb, "open_files": self.open_files,
                "processes": self.processes}


TAIL = 4096          # bytes of a child's raw output kept, for its last words
MAX_WARNINGS = 16_000   # characters of a case's warnings kept
MAX_WORDS = 200
MAX_TYPE = 200       # characters of an exception's type name
MAX_TRACE = 8        # trace lines, innermost last
MAX_TRACE_LINE = 300
MAX_LINE_NUMBER = 10_000_000
MAX_MUTATED = 64
SIGNALS = {signal.SIGSEGV: "a segmentation fault", signal.SIGKILL: "it was killed",
           signal.SIGXCPU: "it used up its CPU time", signal.SIGXFSZ: "it wrote too large a file",
           signal.SIGABRT: "it aborted", signal.SIGBUS: "a bus error"}


def death(code):
    """Plain words for how a child ended (what it printed last is told apart: `said`)."""
    if code < 0:
        try:
            sig = signal.Signals(-code)
            name = SIGNALS.get(sig, sig.name)
        except ValueError:          # real-time signals have numbers, not names
            name = f"signal {-code}"
        return f"the process died: {name}"
    if code == RUNNER_FAILED:
        return ("the process could no longer send its results; did the code close or replace "
                "file descriptors?")
    return f"the process exited (status {code}) before it finished; did the code call exit()?"


def last_line(tail):
    """The last non-blank line of raw output, as short printable text."""
    lines = [line for line in tail.decode(errors="replace").splitlines() if line.strip()]
    text = "".join(c if c.isprintable() else "?" for c in (lines[-1] if lines else "").strip())
    return text if len(text) <= MAX_WORDS else text[:MAX_WORDS] + "..."


class Frames:
    """The result frames and printed output of one forked child, read as untrusted bytes. The end
    of its raw output is kept, for a crash's last words, only while no hidden input was sent."""

    def __init__(self, child, shown=True):
        self.child = child
        self.buffer = bytearray()
        self.eof = False
        self.tail = b""          # the end of what the child printed below Python
        self.shown = shown
        self.out_open = True

    def printed(self, chunk):
        if self.shown:
            self.tail = (self.tail + chunk)[-TAIL:]

    def hidden(self):
        """From now on the child holds hidden inputs: nothing it prints is kept."""
        self.shown, self.tail = False, b""

    def death(self):
        """(How the child ended, the last line it printed below Python (a library's dying words)),
        once its result channel has closed."""
        for _ in range(16):     # what is already there, not what a lingering process adds
            if not select.select([self.child.outfd], [], [], 0)[0]:
                break
            chunk = os.read(self.child.outfd, 65536)
            if not chunk:
                break
            self.printed(chunk)
        code = self.child.stop(grace=1.0)
        if self.child.out_of_memory:
            return ("the process died: the job's processes together went over its memory limit "
                    f"({self.child.memory_mb} MiB)"), ""
        return death(code), last_line(self.tail)

    def next(self, deadline):
        """The next decoded frame; None on time-out or end of stream. Raises WireError."""
        while True:
            frame = self.take()
            if frame is not None or self.eof:
                return frame
            ready = self.child.wait([self.child.rfd] + [self.child.outfd] * self.out_open,
                                    deadline)
            if not ready:
                return None
            if self.child.outfd in ready:      # drained so the child never blocks; prints that
                chunk = os.read(self.child.outfd, 65536)     # matter are in the frames
                self.out_open = bool(chunk)
                self.printed(chunk)
            if self.child.rfd in ready:
                chunk = os.read(self.child.rfd, 1 << 20)
                self.eof = not chunk
                self.buffer += chunk
                if len(self.buffer) > wire.MAX_HEADER + wire.MAX_BLOB:
                    raise wire.WireError("the child sent too much data")

    def take(self):
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
        frame = bytes(self.buffer[:end])
        del self.buffer[:end]
        return wire.decode(frame)


def expect(frame, kind, index=None):
    """Check a frame's shape; the child is untrusted, so anything unexpected breaks the job."""
    if not (isinstance(frame, dict) and frame.get("kind") == kind
            and (index is None or frame.get("index") == index)):
        raise wire.WireError("an unexpected frame")
    for key, types_ in (("error", (dict, type(None))), ("stdout", (str,))):
        if not isinstance(frame.get(key), types_):
            raise wire.WireError("a malformed frame")
    return frame


def cut(text, most):
    """At most `most` characters of `text` (a string from a child)."""
    return text if len(text) <= most else text[:most] + "..."


def count(value, least):
    """A count a child reports, if it is a plain int of at least `least` (else `least`)."""
    return value if type(value) is int and least <= value <= 1 << 62 else least


def printed(frame):
    """What the code printed: the text kept, and how many lines and characters it printed in all;
    and the warnings it raised, apart."""
    text = frame["stdout"][:MAX_CAPTURE]
    warned = frame.get("warnings")
    return {"stdout": text,
            "stdout_lines": count(frame.get("stdout_lines"), len(text.splitlines())),
            "stdout_chars": count(frame.get("stdout_chars"), len(frame["stdout"])),
            "warnings": warned[:MAX_WARNINGS] if isinstance(warned, str) else ""}


def trace_lines(value):
    if not isinstance(value, list):
        return []
    return [cut(t, MAX_TRACE_LINE) for t in value[-MAX_TRACE:] if isinstance(t, str)]


def broken_rules(frame, rules):
    """What the child's guard refused, as (rule, line, module) with the rules the job sent; a
    malformed entry is dropped (it can only hide the child's own refusal)."""
    keys = set((rules or {}).get("banned") or ()) | ({"numpy-only"} if rules else set())
    entries = frame.get("broken")
    found = []
    for entry in entries if isinstance(entries, list) else []:
        if (isinstance(entry, list) and len(entry) == 3 and entry[0] in keys
                and type(entry[1]) is int and entry[1] > 0 and isinstance(entry[2], str)):
            found.append((entry[0], entry[1], entry[2][:100]))
    return found[:100]


def line_number(value):
    return value if type(value) is int and 0 < value <= MAX_LINE_NUMBER else None


def error_of(error, functions=()):
    """The error a frame reports, as the parent keeps it: the code's exception (type, message,
    line, trace, each cut to size), or one of the grader's own kinds in the parent's words."""
    if not (isinstance(error, dict) and all(isinstance(error.get(k), str)
                                            for k in ("type", "message"))):
        raise wire.WireError("a malformed error")
    if error.get("grader") is True:            # the runner's mark: only its two kinds, its words
        if error["type"] == "MissingFunction" and error.get("function") in functions:
            return grader_error("MissingFunction", f"no function named `{error['function']}`")
        if error["type"] == "UnsupportedReturn":
            return grader_error("UnsupportedReturn", cut(error["message"], MAX_MESSAGE))
        raise wire.WireError("a malformed error")
    return {"type": cut(error["type"], MAX_TYPE), "message": cut(error["message"], MAX_MESSAGE),
            "line": line_number(error.get("line")), "trace": trace_lines(error.get("trace"))}


def case_outcome(frame, calls=()):
    """The Outcome a frame reports for a case making `calls` (the functions it calls, in order); an
    answer must hold exactly one output per call."""
    if frame["error"] is not None:
        return Outcome("error", error=error_of(frame["error"], calls), **printed(frame))
    outputs, mutated = frame.get("outputs"), frame.get("mutated")
    if not isinstance(outputs, list) or len(outputs) != len(calls) or not isinstance(mutated, list):
        raise wire.WireError("a malformed case frame")
    return Outcome("ok", outputs=outputs,
                   mutated=[cut(m, MAX_TYPE) for m in mutated[:MAX_MUTATED] if isinstance(m, str)],
                   **printed(frame))


def where(frames):
    """At a time-out: ask the child where the learner's code is; its trace lines and printed output
    (empty when it does not answer in time, e.g. inside a long library call)."""
    frames.child.interrupt()
    try:
        frame = frames.next(time.monotonic() + WHERE_SECONDS)
        frame = expect(frame, "where") if frame is not None else None
    except wire.WireError:
        frame = None
    if frame is None:
        return {"where": []}
    return {"where": trace_lines(frame.get("trace")), **printed(frame)}


def run_job(worker, source, cases, limits=Limits(), name=None, progress=None, public=None,
            rules=None):
    """Run every case of one lesson on the learner's `source`, in children forked by `worker`.

    `cases[:public]` are public (all of them by default) and the rest hidden: a child is sent the
    hidden cases only once it has imported the file and answered every public case. `name` is how
    tracebacks and warnings name the file (the learner's own path); `progress`, if given, is called
    with (index, Outcome) as each case ends; `rules`, what the child's guard refuses as the code
    runs (see child/guard.py). Raises WorkerDied if the worker itself fails, and
    JobNotClean if a child could not be set up; every failure of the learner's code is in the Job.
    """
    public = len(cases) if public is None else public
    outcomes = [None] * len(cases)
    job = Job(outcomes)
    functions = [[c.fn for c in case.calls] for case in cases]
    job_deadline = time.monotonic() + limits.job_seconds
    header = wire.encode({"source": source, "name": name, "limits": limits.for_child(),
                          "rules": rules})
    start = 0
    while start < len(cases):
        hidden = max(start, public)
        child = worker.start(header + batch(cases, start, hidden), limits.for_child())
        later = None
        if hidden < len(cases):
            later = (hidden, batch(cases, hidden, len(cases)))
        else:
            child.send(b"", last=True)
        try:
            start = attend(Frames(child, shown=start < public), job, functions, start, limits,
                           job_deadline, progress, later, rules)
        except wire.WireError as exc:
            job.channel_error = (f"the submission interfered with the grader's result channel "
                                 f"({exc}); its remaining cases were not run")
            start = len(cases)
        finally:
            child.finish()
        timeouts = sum(o is not None and o.status == "timeout" for o in outcomes)
        if time.monotonic() >= job_deadline or timeouts >= limits.max_timeouts:
            break
    for i, o in enumerate(outcomes):
        if o is None:
            outcomes[i] = Outcome("not-run", detail=not_run_reason(job, limits))
    return job


BATCHES = {}        # (the cases' ids, the first's index): (the cases, their batch message)
BATCHES_KEPT = 64


def batch(cases, first, end):
    """The request message of `cases[first:end]`. Every learner of a lesson gets the same one, so
    it is encoded once (cases are keyed by identity; the entry holds them, so no id is reused)."""
    key = (tuple(map(id, cases[first:end])), first)
    kept = BATCHES.get(key)
    if kept is None:
        if len(BATCHES) >= BATCHES_KEPT:
            BATCHES.clear()
        calls = [{"calls": [[c.fn, list(c.args), c.kwargs] for c in case.calls],
                  "float_errors": case.float_errors} for case in cases[first:end]]
        kept = BATCHES[key] = (cases[first:end], wire.encode({"cases": calls, "start": first}))
    return kept[1]


def not_run_reason(job, limits):
    if job.channel_error:
        return job.channel_error
    if job.import_error:
        return "the file could not be imported"
    if sum(o is not None and o.status == "timeout" for o in job.outcomes) >= limits.max_timeouts:
        return f"{limits.max_timeouts} earlier cases timed out"
    return "the job ran out of time"


def ready(frames, deadline):
    """Wait for the child's word that its sandbox is set up; without it, nothing the child did is
    the learner's (no learner code runs before it), so the job is the grader's failure."""
    try:
        frame = frames.next(deadline)
    except wire.WireError:
        frame = False
    if frame == {"kind": "ready"}:
        return
    if frame is None and frames.eof:
        how, said = frames.death()
        why = how + last_words(said)
    elif frame is None:
        why = "it did not get ready in time"
    else:
        why = "it sent something else first"
    raise JobNotClean(f"the job's child could not set up its sandbox: {why}")


def attend(frames, job, functions, start, limits, job_deadline, progress=None, later=None,
           rules=None):
    """Collect one child's frames (case i calls functions[i], in order); returns the index to
    resume from (len(cases) when done). `later` is (index, request): the rest of the cases, sent
    once the child has answered every case before `index`."""
    ready(frames, time.monotonic() + limits.import_seconds)     # not the learner's time yet
    frame = frames.next(min(time.monotonic() + limits.import_seconds, job_deadline))
    failed = frame is None or expect(frame, "imported")["error"] is not None
    if failed and start > 0:     # it imported before: whatever happened now is not shown
        for index in range(start, len(job.outcomes)):
            job.outcomes[index] = Outcome("crash", detail="the file failed to import a second time")
            if progress:
                progress(index, job.outcomes[index])
        return len(job.outcomes)
    if frame is None:
        if frames.eof:
            how, said = frames.death()
            job.import_error = grader_error("ImportCrash", how + last_words(said))
        else:
            seen = where(frames)
            job.import_error = grader_error(
                "ImportTimeout", f"importing it took longer than {limits.import_seconds:g} s (an "
                "endless loop at import time?)", seen["where"])
            job.import_printed = {k: v for k, v in seen.items() if k != "where"}
        return len(job.outcomes)
    job.broken += broken_rules(frame, rules)
    job.import_printed = job.import_printed or printed(frame)
    if frame["error"] is not None:
        job.import_error = error_of(frame["error"])
        return len(job.outcomes)
    for index in range(start, len(job.outcomes)):
        if later and index == later[0]:
            frames.hidden()
            frames.child.send(later[1], last=True)
        deadline = min(time.monotonic() + limits.case_seconds, job_deadline)
        frame = frames.next(deadline)
        if frame is None:
            if frames.eof:
                how, said = frames.death()
                job.outcomes[index] = Outcome("crash", detail=how, said=said)
            else:
                seconds = limits.case_seconds if deadline < job_deadline else limits.job_seconds
                job.outcomes[index] = Outcome("timeout", detail=f"it took longer than {seconds:g} s",
                                              **where(frames))
            if progress:
                progress(index, job.outcomes[index])
            return index + 1
        frame = expect(frame, "case", index)
        job.broken += broken_rules(frame, rules)
        job.outcomes[index] = case_outcome(frame, functions[index])
        if progress:
            progress(index, job.outcomes[index])
    return len(job.outcomes)
