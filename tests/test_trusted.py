"""Trusted runs (the reference, known mistakes, symptoms' variants) happen in grading threads at
once: the process-wide state they swap while they run (sys.stdout, warning filters) must come back
as it was, whatever the interleaving."""
import sys
import threading
import warnings

from grader.judge import trusted
from grader.lessons.authoring import call, case

WAIT = 1.0     # how long one run waits for the other to be inside too (it cannot be, if runs queue)


def test_overlapping_trusted_runs_leave_stdout_and_warnings_as_they_were():
    """Run A starts, run B starts while A is inside, A ends first, then B: the order that made a
    thread restore the other's stand-in for sys.stdout (and lost the printed table of a run)."""
    stdout, filters = sys.stdout, list(warnings.filters)
    a_inside, b_inside, a_done = threading.Event(), threading.Event(), threading.Event()

    def first(x):
        a_inside.set()
        b_inside.wait(WAIT)
        return x

    def second(x):
        b_inside.set()
        a_done.wait(WAIT)
        return x

    def run_a():
        trusted.run({"f": first}, [case("a", call("f", 1.0))])
        a_done.set()

    def run_b():
        a_inside.wait(WAIT)
        trusted.run({"f": second}, [case("b", call("f", 2.0))])

    threads = [threading.Thread(target=run_a), threading.Thread(target=run_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sys.stdout is stdout
    assert warnings.filters == filters
