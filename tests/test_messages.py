"""Messages that name the right cause, or say less: each class of misleading message, on an answer
that used to get it."""
import io
from pathlib import Path

from rich.console import Console

from grader.judge.grade import grade_file
from grader.learner import report
from grader.lessons import lesson, roadmap

ROOT = Path(__file__).resolve().parent.parent
ROAD = roadmap.load(ROOT)


def grade(tmp_path, pool, lesson_id, source):
    path = tmp_path / "solution.py"
    path.write_text(source)
    return grade_file(lesson.load(ROAD, lesson_id), path, pool)


def shown(result, revealed=0):
    buf = io.StringIO()
    report.render(Console(file=buf, width=300, color_system=None, highlight=False), result, revealed)
    return buf.getvalue()


def replaced(lesson_id, *pairs):
    """The lesson's reference with each (old, new) text replaced (each old must be there)."""
    source = lesson.load(ROAD, lesson_id).reference_source
    for old, new in pairs:
        assert old in source, old
        source = source.replace(old, new)
    return source


def symptom_names(result):
    return [d.mistake for d in result.diagnosis if d.mistake.startswith("symptom:")]


def test_a_single_wrong_loss_is_not_called_the_expected_times_a_constant(tmp_path, pool):
    """Clipped logits give a wrong scalar loss: every wrong number is some constant times the
    right one, so a factor needs more evidence than one number per case."""
    source = replaced("13", ("scores = logits[:, :-1]", "scores = logits[:, :-1].clamp(-1.5, 1.5)"))
    result = grade(tmp_path, pool, "13", source)
    assert not result.passed
    assert "symptom:factor" not in symptom_names(result)
    assert not any("times a constant" in d.message for d in result.diagnosis)


def test_a_factor_shared_by_several_cases_is_still_named(tmp_path, pool):
    source = replaced("13", ("return nll[keep].sum() / keep.sum()", "return 2 * nll[keep].sum() / keep.sum()"))
    result = grade(tmp_path, pool, "13", source)
    assert any("times 2" in d.message for d in result.diagnosis), result.diagnosis


def test_a_function_whose_failures_another_diagnosis_explains_is_not_called_right(tmp_path, pool):
    source = replaced(
        "18", ("    return probs\n    ### END SOLUTION", "    return np.round(probs, 3)\n    ### END SOLUTION"),
        ("index = np.sum(cdf <= np.asarray(u)[..., None], axis=-1)",
         "index = np.sum(cdf < np.asarray(u)[..., None], axis=-1)"))
    result = grade(tmp_path, pool, "18", source)
    assert "cdf-side-left" in [d.mistake for d in result.diagnosis]
    assert not any("every case of sample passes" in d.message for d in result.diagnosis)


GRAD_BY_PROBABILITY = '''\
import numpy as np


def ce_loss_and_grad(logits, targets, ignore_index=-100):
    keep = targets != ignore_index
    t = np.where(keep, targets, 0)
    rows = np.arange(len(t))
    z = logits - logits.max(axis=-1, keepdims=True)
    log_probs = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    n = keep.sum()
    loss = -(log_probs[rows, t] * keep).sum() / n
    grad = np.zeros_like(logits)
    grad[rows, t] = -keep.astype(float) / (n * np.exp(log_probs[rows, t]))   # d loss / d p
    return loss, grad
'''


def test_stability_advice_only_where_the_failures_are_at_extreme_values(tmp_path, pool):
    result = grade(tmp_path, pool, "21", GRAD_BY_PROBABILITY)
    assert not result.passed
    text = " ".join(d.message for d in result.diagnosis)
    assert "subtract the maximum" not in text and "subtract the max" not in text


MISSING_KEEPDIMS = ("import numpy as np\n\n\ndef softmax(x, axis=-1):\n"
                    "    e = np.exp(x - np.max(x, axis=axis))\n"
                    "    return e / np.sum(e, axis=axis, keepdims=True)\n")


def test_missing_keepdims_points_at_the_hint_about_keepdims(tmp_path, pool):
    result = grade(tmp_path, pool, "01", MISSING_KEEPDIMS)
    tiers = lesson.load(ROAD, "01").prose.hints
    assert result.hint == 2 and "keepdims" in tiers[1][1]
    assert "Hint 2" in shown(result)


def test_a_pointer_from_the_failing_cases_says_so_instead_of_this(tmp_path, pool):
    """Only the huge-logit cases fail (both name hint 1), and no known mistake explains it."""
    source = ("import numpy as np\n\n\ndef softmax(x, axis=-1):\n"
              "    if x.ndim == 2 and np.abs(x).min() > 900:\n        return np.full_like(x, 0.5)\n"
              "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
              "    return e / np.sum(e, axis=axis, keepdims=True)\n")
    result = grade(tmp_path, pool, "01", source)
    assert result.hint == 1 and not any(d.hint for d in result.diagnosis)
    line = report.hint_line(result, 0)
    assert "addresses this" not in line and "is about what the failing cases" in line


def test_a_file_that_breaks_a_rule_says_not_passed_in_its_header(tmp_path, pool):
    source = "import torch\nimport numpy as np\n\n\n" + (
        "def softmax(x, axis=-1):\n    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n")
    result = grade(tmp_path, pool, "01", source)
    assert all(r.verdict.passed for r in result.cases) and result.violations
    header = shown(result).splitlines()[0]
    assert "not passed: a rule is broken" in header and "cases passed" not in header


def test_an_error_inside_the_given_code_names_the_learners_line_that_called_it(tmp_path, pool):
    source = replaced("18", ("    probs = softmax(z, axis=-1)\n", "    probs = softmax(z, axis=2)\n"))
    result = grade(tmp_path, pool, "18", source)
    call_line = next(i for i, l in enumerate(source.splitlines(), 1) if "softmax(z, axis=2)" in l)
    failing = [r for r in result.cases if not r.verdict.passed and r.outcome.status == "error"]
    assert failing
    assert all(f"inside the given `softmax`, called from your line {call_line}" in r.verdict.message
               for r in failing)


def test_numpy_warnings_are_labelled_as_warnings_not_as_printed(tmp_path, pool):
    source = ("import numpy as np\n\n\ndef softmax(x, axis=-1):\n"
              "    e = np.exp(x)\n    return e / np.sum(e, axis=axis, keepdims=True)\n")
    result = grade(tmp_path, pool, "01", source)
    text = shown(result)
    assert "RuntimeWarning" in text
    assert "warnings raised during example" in text and "your code printed during" not in text


def test_returned_values_are_counted_in_words():
    from grader.display import ordinal
    from grader.judge.compare import compare
    assert [ordinal(i) for i in range(3)] == ["first", "second", "third"]
    assert compare((1.0, 2.0), (1.0, 3.0), 1e-6, 1e-9).startswith("in the second returned value")


FLOAT32_LOSS = '''\
import numpy as np


def ce_loss_and_grad(logits, targets, ignore_index=-100):
    logits = logits.astype(np.float32)
    keep = targets != ignore_index
    t = np.where(keep, targets, 0)
    rows = np.arange(len(t))
    z = logits - logits.max(axis=-1, keepdims=True)
    log_probs = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    n = keep.sum()
    loss = -(log_probs[rows, t] * keep).sum() / n
    grad = np.exp(log_probs)
    grad[rows, t] -= 1
    return float(loss), (grad * keep[:, None] / n).astype(np.float64)
'''


def test_finite_differences_of_a_float32_loss_are_called_float32_noise(tmp_path, pool):
    result = grade(tmp_path, pool, "21", FLOAT32_LOSS)
    messages = [r.verdict.message for r in result.cases if not r.verdict.passed]
    assert not any("disagrees with your own loss" in m for m in messages)
    assert any("float32's precision" in m for m in messages), messages


def test_the_wrong_part_names_the_known_slip_it_shows(tmp_path, pool):
    """No causal mask, and every block reading block 0's parameters: on the one-block cases that
    run the attention half alone, the answers are exactly those of the no-causal-mask slip."""
    source = replaced("12", ("F.scaled_dot_product_attention(q, k, v, is_causal=True)",
                             "F.scaled_dot_product_attention(q, k, v)"),
                      ('x = block(x, params, f"transformer.h.{i}.", n_heads)',
                       'x = block(x, params, "transformer.h.0.", n_heads)'))
    result = grade(tmp_path, pool, "12", source)
    part = [d for d in result.diagnosis if d.mistake == "symptom:part"]
    assert part and "the attention half" in part[0].message
    assert "later tokens" in part[0].message        # what the no-causal-mask slip says


def test_the_wrong_part_names_the_function_whose_own_cases_all_fail(tmp_path, pool):
    """The SiLU applied to the gated product: the MLP sub-layer is wrong, and of the functions the
    lesson asks for, swiglu_mlp is the one whose every case fails."""
    source = replaced("14", ("    a = silu(u @ W1)\n", "    a = u @ W1\n"),
                      ("    return (a * b) @ W2\n", "    return silu(a * b) @ W2\n"))
    result = grade(tmp_path, pool, "14", source)
    part, = [d for d in result.diagnosis if d.mistake == "symptom:part"]
    assert "the MLP sub-layer" in part.message and "start with swiglu_mlp" in part.message
