"""`grader verify` draws the hidden cases from other seeds too, so a known mistake that only a lucky
draw of the lesson's own seed catches is reported, naming the seed."""
import numpy as np

from grader.lessons import lesson, roadmap


def test_a_mistake_caught_by_luck_is_reported(workbook, run_grader):
    softmax = lesson.load(roadmap.load(workbook), "01")
    hidden = next(c for c in softmax.cases if not c.public)
    drawn = float(np.ravel(hidden.calls[0].args[0])[0])   # a value only the own seed draws
    with open(workbook / "solutions" / "01-softmax" / "mistakes.py", "a") as mistakes:
        mistakes.write(f'''

@mistake("lucky-draw", message="Wrong only on one value that the lesson's own seed draws.")
def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    out = e / np.sum(e, axis=axis, keepdims=True)
    return out * 2 if np.any(np.asarray(x) == {drawn!r}) else out
''')
    result = run_grader(workbook, "verify", "01", "--no-mutants")
    assert result.returncode != 0
    assert "with the cases drawn from seed 1, mistake 'lucky-draw' passes every case" in result.stdout
    own_seed = [line for line in result.stdout.splitlines()
                if "lucky-draw" in line and "drawn from seed" not in line]
    assert own_seed == []    # on its own seed the lesson does catch it


def test_a_mistake_that_cannot_run_is_reported_as_broken(workbook, run_grader):
    """A helper of a mistakes file that calls the reference's functions raises NameError: that
    mistake fails every case, but it is broken, not the wrong answer its message describes."""
    with open(workbook / "solutions" / "06-rmsnorm" / "mistakes.py", "a") as mistakes:
        mistakes.write('''

@mistake("calls-the-reference", message="Divides twice.")
def rmsnorm(x, gamma, eps=1e-5):
    return rms_of(x, eps) * gamma
''')
    result = run_grader(workbook, "verify", "06", "--no-mutants")
    assert result.returncode != 0
    assert "mistake 'calls-the-reference' is broken, not wrong: it raises NameError" in result.stdout
