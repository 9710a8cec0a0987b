"""Run trusted code (the reference, a known mistake) in this process, on the same cases.

Its answers pass through the wire format too, so they reach the comparison in the same types as a
learner's.
"""
import contextlib
import copy
import io
import sys
import threading
import types
import warnings

from grader.runner.child import runner, wire
from . import budget
from grader.runner.outcome import Outcome, grader_error


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


# A run swaps process-wide state (sys.stdout, the warning filters, torch's threads) and puts it
# back at its end: runs from several grading threads take turns, or one would put back another's
# stand-in (a class's summary was printed into a run's captured output).
ONE_AT_A_TIME = threading.RLock()


def run(namespace, cases):
    """The outcomes of trusted code on `cases`; its time is the grader's own, never a learner's
    judging budget."""
    with budget.excluded(), ONE_AT_A_TIME, one_torch_thread():
        return run_cases(namespace, cases)


def run_cases(namespace, cases):
    module = types.SimpleNamespace(**namespace)
    path = namespace.get("__file__", "")
    outcomes = []
    for case in cases:
        outputs, error, mutated = [], None, []
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
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

