"""Run trusted code (the reference, a known mistake) in this process, on the same cases.

Its answers pass through the wire format too, so they reach the comparison in the same types as a
learner's. Several threads run trusted code at once (a lesson's answers are computed while other
lessons' jobs are diagnosed), so nothing here touches process-wide state: what trusted code prints
goes to the `print` of its own namespace, which keeps nothing (sys.stdout is never swapped, which
from two threads at once left it swapped for good), numpy's floating-point warnings are silenced
by its errstate (per thread), and other warnings raised from lesson code are ignored by one filter
set when this module is imported.
"""
import builtins
import contextlib
import copy
import sys
import threading
import types
import warnings

import numpy as np

from grader.runner.child import runner, wire
from . import budget
from grader.runner.outcome import Outcome, grader_error

LESSON_MODULES = r"lesson_"     # how Lesson names the modules of its references and mistakes
warnings.filterwarnings("ignore", module=LESSON_MODULES)


def quiet_print(*args, file=None, **kwargs):
    """`print` for trusted code: what it prints to stdout is dropped (a learner never reads it, and
    the grader's own output is never mixed with it); printing to another file goes there."""
    if file is not None and file is not sys.stdout:
        builtins.print(*args, file=file, **kwargs)


@contextlib.contextmanager
def one_torch_thread():
    """Trusted answers on one torch thread, as the children compute theirs: torch's thread pool
    makes these small tensors many times slower on a busy machine. The caller's setting comes back."""
    torch = sys.modules.get("torch")
    if torch is None:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


# torch's thread count is process-wide: a run sets it and puts back what it found, so runs from
# several grading threads take turns, or one would put back another's setting.
ONE_AT_A_TIME = threading.RLock()


def run(namespace, cases):
    """The outcomes of trusted code on `cases`; its time is the grader's own, never a learner's
    judging budget."""
    with budget.excluded(), ONE_AT_A_TIME, one_torch_thread():
        return run_cases(namespace, cases)


def run_cases(namespace, cases):
    namespace.setdefault("print", quiet_print)   # the trusted functions' globals are `namespace`
    module = types.SimpleNamespace(**namespace)
    path = namespace.get("__file__", "")
    outcomes = []
    for case in cases:
        outputs, error, mutated = [], None, []
        with np.errstate(all="ignore"):
            for c in case.calls:
                args, kwargs = copy.deepcopy((c.args, c.kwargs))
                out, error, changed = runner.run_call(module, path, c.fn, args, kwargs,
                                                      case.float_errors)
                mutated += changed
                if error:
                    break
                outputs.append(out)
        if error:
            outcomes.append(Outcome("error", error=error, mutated=mutated))
            continue
        try:
            outputs = wire.decode(wire.encode(outputs))
        except wire.WireError as exc:
            outcomes.append(Outcome("error", error=grader_error("UnsupportedReturn", str(exc))))
            continue
        outcomes.append(Outcome("ok", outputs=outputs, mutated=mutated))
    return outcomes

