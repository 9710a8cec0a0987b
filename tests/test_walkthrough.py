"""After a pass: `grader check` lists Watch out; `grader solution` opens the walkthrough, not before."""
import shutil

from conftest import ROOT


def test_watch_out_after_a_pass_and_the_walkthrough_only_then(workbook, run_grader):
    before = run_grader(workbook, "solution", "01")
    assert before.returncode == 1 and "opens once you pass it" in before.stdout
    assert "Traceback" not in before.stderr
    failing = run_grader(workbook, "check", "01")
    assert failing.returncode == 1 and "Watch out" not in failing.stdout
    shutil.copy(ROOT / "solutions" / "01-softmax" / "solution.py",
                workbook / "exercises" / "01-softmax" / "solution.py")
    passed = run_grader(workbook, "check", "01")
    assert passed.returncode == 0
    assert "Watch out" in passed.stdout and "`make solution L=01`" in passed.stdout
    assert "np.max(x, axis=axis, keepdims=True)" not in passed.stdout   # the walkthrough stays shut
    after = run_grader(workbook, "solution", "softmax")
    assert after.returncode == 0 and "the solution" in after.stdout and "Watch out" in after.stdout
    unknown = run_grader(workbook, "solution", "99")
    assert unknown.returncode == 2 and "Traceback" not in unknown.stderr
