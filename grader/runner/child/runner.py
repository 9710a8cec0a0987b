"""The untrusted side: import a learner's file and answer one job's calls, frame by frame.

The runner never sees expected outputs. It reports, in order: "ready" (its job is set up, before
any learner code runs), one "imported" frame, then one "case" frame per case. Its request is a
header (the source, its name, the limits) and batches of cases: the first with the header, each
later one only once the parent has every answer before it. Between batches the runner points its
raw output (descriptors 1 and 2, which the parent reads for a crash's last words) at /dev/null:
what the public cases print may be shown, and no hidden input reaches the learner's process
before that output is closed. The trusted parent treats every frame as untrusted data.
"""
import contextlib
import copy
import io
import linecache
import os
import signal
import sys
import traceback
import types
import warnings

import numpy as np

from . import guard, limits, wire

MAX_CAPTURE = 16_000
MAX_MESSAGE = 2_000


class CappedText(io.TextIOBase):
    """A text sink that keeps the first MAX_CAPTURE characters and counts everything written:
    characters, and lines (a last line without a newline counts too)."""

    def __init__(self):
        self.parts, self.kept, self.chars, self.breaks, self.last = [], 0, 0, 0, "\n"
        self.warned = []

    def writable(self):
        return True

    def write(self, s):
        s = str(s)
        room = MAX_CAPTURE - self.kept
        if room > 0:
            self.parts.append(s[:room])
            self.kept += min(len(s), room)
        self.chars += len(s)
        self.breaks += s.count("\n")
        self.last = s[-1:] or self.last
        return len(s)

    def fields(self):
        """The frame fields: the text kept, how many characters and lines were printed, and the
        warnings raised (numpy's RuntimeWarnings among them), apart from what the code printed."""
        lines = self.breaks + (self.last != "\n")
        return {"stdout": "".join(self.parts), "stdout_chars": self.chars, "stdout_lines": lines,
                "warnings": "".join(self.warned)[:MAX_CAPTURE]}

    def warn(self, message, category, filename, lineno, file=None, line=None):
        """warnings.showwarning: a warning is kept as a warning, not as printed text."""
        if sum(map(len, self.warned)) < MAX_CAPTURE:
            self.warned.append(warnings.formatwarning(message, category, filename, lineno, line))


class Job:
    """What a time-out report needs: the result channel, the learner's file, the current output;
    and the lesson's guard, whose refusals every frame carries."""
    out = path = sink = rules = None
    sending = False


def report_where(signum, frame):
    """On the parent's signal at a time-out: send where the learner's code is, and what it printed."""
    if Job.sending or Job.path is None:
        return
    stack = [f for f in traceback.extract_stack(frame) if f.filename == Job.path]
    send(Job.out, {"kind": "where", "error": None, **Job.sink.fields(),
                   "trace": [f"line {f.lineno}, in {f.name}: {(f.line or '').strip()}"
                             for f in stack][-8:]})


def error_info(exc, path):
    """Type, message and the learner's own traceback lines for an exception."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    if isinstance(exc, SyntaxError) and exc.filename == path:
        line = exc.lineno
    else:
        line = frames[-1].lineno if frames else None
    try:
        message = str(exc)[:MAX_MESSAGE]
    except Exception:
        message = "(the exception's message could not be shown)"
    return {
        "type": type(exc).__name__,
        "message": message,
        "line": line,
        "trace": [f"line {f.lineno}, in {f.name}: {(f.line or '').strip()}" for f in frames][-8:],
    }


def snapshot(value):
    """A deep copy of an argument, to tell afterwards whether the code changed it (None where it
    cannot be copied). A row of numbers, or a table of them, is copied row by row: its items
    cannot change."""
    if type(value) is list:
        if wire.NUMBERS.issuperset(map(type, value)):
            return value[:]
        if all(type(row) is list and wire.NUMBERS.issuperset(map(type, row)) for row in value):
            return [row[:] for row in value]
    try:
        return copy.deepcopy(value)
    except Exception:
        return None


def same(a, b):
    """Whether an input still equals its snapshot (arrays and tensors compared by value)."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and bool(torch.equal(a, b) or torch.allclose(a, b, equal_nan=True))
    if type(a) is list and type(b) is list and len(a) == len(b):
        kinds = set(map(type, a))
        if len(kinds) == 1 and kinds <= wire.NUMBERS and kinds == set(map(type, b)):
            total = sum(a)          # a row of one kind of number: compared at once, unless it
            if total == total:      # holds a NaN (which `same` never finds equal to itself)
                return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if type(a) is not type(b):          # an array replaced by None, a list, a number...
        return False
    try:
        return bool(a == b)
    except Exception:                   # an answer's own object, comparing as it likes
        return False


def run_call(module, path, fn, args, kwargs, float_errors):
    """Call one entry point; returns (output, error, mutated argument names)."""
    func = getattr(module, fn, None)
    if not callable(func):
        return None, {"type": "MissingFunction", "message": f"no function named `{fn}`",
                      "line": None, "trace": [], "grader": True, "function": fn}, []
    before = [snapshot(a) for a in args], {k: snapshot(v) for k, v in kwargs.items()}
    try:
        if float_errors:
            with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
                out = func(*args, **kwargs)
        else:
            out = func(*args, **kwargs)
    except BaseException as exc:  # the learner's exception, whatever it is, is this call's result
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            return None, {"type": type(exc).__name__, "message": "the code tried to exit",
                          "line": error_info(exc, path)["line"], "trace": []}, []
        return None, error_info(exc, path), []
    mutated = [f"argument {i + 1}" for i, (a, b) in enumerate(zip(args, before[0]))
               if b is not None and not same(a, b)]
    mutated += [f"`{k}`" for k, v in kwargs.items() if before[1][k] is not None
                and not same(v, before[1][k])]
    return out, None, mutated


def refusal(exc):
    """Why a value could not be sent, in a few words, whatever `exc` is: the wire's own reason (it
    may quote a name the value chose), or the exception that code run by the value raised."""
    try:
        if type(exc) is wire.WireError:
            return str(exc)[:MAX_MESSAGE]
        return f"a value the grader could not read ({str(type(exc).__name__)[:100]})"
    except BaseException:
        return "a value the grader could not read"


def send(out, message):
    """Write one frame, with the rules the guard refused since the last; a value the wire refuses
    becomes that case's error."""
    if Job.rules is not None and message["kind"] != "where":
        message["broken"] = Job.rules.take()
    try:
        frame = wire.encode(message)
    except BaseException as exc:   # whatever reading the value raised, it is the value's fault
        message = {**message, "outputs": None, "error": {
            "type": "UnsupportedReturn", "message": refusal(exc), "line": None, "trace": [],
            "grader": True}}
        frame = wire.encode(message)
    Job.sending = True
    try:
        out.write(frame)
        out.flush()
    finally:
        Job.sending = False


def write_source(source):
    """The learner's source as a read-only solution.py in the job's folder (the working directory)."""
    path = os.path.abspath("solution.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    os.chmod(path, 0o444)
    return path


def load(path, name):
    """Import the learner's file as module `solution`; its code, tracebacks and warnings name it
    `name` (the learner's own path), not the job's temporary copy."""
    with open(path, encoding="utf-8") as f:
        return load_source(f.read(), name, path)


def load_source(source, name, path=None):
    """`source` imported as module `solution`, its code named `name`."""
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    module = types.ModuleType("solution")
    module.__file__ = path or name
    sys.modules["solution"] = module
    exec(compile(source, name, "exec"), module.__dict__)
    return module


def capture():
    Job.sink = CappedText()
    sys.stdout = sys.stderr = Job.sink
    warnings.showwarning = Job.sink.warn
    return Job.sink


def serve(request, batch, path, out):
    """Answer one job: import the learner's file once, then run its batches of cases."""
    limits.apply(request["limits"])
    name = request.get("name") or path
    sink = capture()
    Job.path = name
    Job.rules = guard.install(request.get("rules"), name)
    try:
        module = load(path, name)
        limits.after_import()
    except BaseException as exc:
        send(out, {"kind": "imported", "error": error_info(exc, name), **sink.fields()})
        return
    send(out, {"kind": "imported", "error": None, **sink.fields()})
    while batch is not None:
        for offset, case in enumerate(batch["cases"]):
            run_case(module, name, out, batch["start"] + offset, case)
        batch = next_batch()


def run_case(module, name, out, index, case):
    outputs, error, mutated = [], None, []
    sink = capture()
    for fn, args, kwargs in case["calls"]:
        out_value, error, changed = run_call(module, name, fn, args, kwargs, case["float_errors"])
        mutated += changed
        if error:
            break
        outputs.append(out_value)
    send(out, {"kind": "case", "index": index, "outputs": None if error else outputs,
               "error": error, "mutated": mutated, **sink.fields()})


def next_batch():
    """Close the raw output, then wait for the next batch of cases (None when there is none)."""
    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        os.close(quiet)
    except OSError:          # no descriptor left to open (the learner's doing): close them
        for fd in (1, 2):
            with contextlib.suppress(OSError):
                os.close(fd)
    return wire.read_message(sys.stdin.buffer, tensors=as_tensor)


def as_tensor(array):
    import torch
    return torch.from_numpy(array)


def main(result_fd, drop_privileges):
    """Read the job from stdin and write the learner's file; then, with privileges dropped, answer
    on `result_fd`. The working directory is the job's own."""
    out = os.fdopen(result_fd, "wb", buffering=0)
    Job.out = out
    signal.signal(signal.SIGUSR1, report_where)     # from the start: a time-out never kills it
    send(out, {"kind": "ready"})
    request = wire.read_message(sys.stdin.buffer)
    batch = wire.read_message(sys.stdin.buffer, tensors=as_tensor)
    path = write_source(request["source"])
    drop_privileges()
    serve(request, batch, path, out)
    out.close()
    os._exit(0)
