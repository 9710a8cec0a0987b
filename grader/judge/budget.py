"""A bound on the parent's own work for one job: judging a learner's answers may take at most
SECONDS of the judging thread's CPU time (its own, so a busy machine does not shorten it).

The learner decides how large and how odd its answers are, so the comparisons, diagnoses and
symptoms they set off are checked against the budget at every step of any length (`check`); work the
grader does for itself on the way (running the reference or a known mistake, computed once per
lesson and kept) does not count (`excluded`). A job over budget ends in a clear verdict of its own,
and the class goes on.
"""
import contextlib
import contextvars
import time

SECONDS = 30.0


class OverBudget(Exception):
    """Judging one job took more than its budget."""


class _Budget:
    def __init__(self, seconds):
        self.seconds = seconds
        self.deadline = time.thread_time() + seconds
        # A thread's CPU time grows no faster than the clock: until `soonest` the budget cannot be
        # spent, so a check reads the cheap clock and asks for the thread's time only after it.
        self.soonest = time.monotonic() + seconds


_current = contextvars.ContextVar("judging_budget", default=None)


@contextlib.contextmanager
def judging(seconds=None):
    """Count this thread's CPU time against a fresh budget of `seconds` (default: SECONDS) while
    the block runs."""
    token = _current.set(_Budget(SECONDS if seconds is None else seconds))
    try:
        yield
    finally:
        _current.reset(token)


def check():
    """Raise OverBudget when the current budget (if any) is spent."""
    budget = _current.get()
    if budget is None or time.monotonic() < budget.soonest:
        return
    left = budget.deadline - time.thread_time()
    if left < 0:
        raise OverBudget(f"judging took more than {budget.seconds:g} s of computing")
    budget.soonest = time.monotonic() + left


@contextlib.contextmanager
def excluded():
    """The grader's own work inside a budget (the reference, a known mistake): not counted."""
    budget = _current.get()
    start = time.thread_time()
    try:
        yield
    finally:
        if budget is not None:
            spent = time.thread_time() - start
            budget.deadline += spent
            budget.soonest += spent
