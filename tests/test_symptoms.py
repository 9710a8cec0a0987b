"""Symptoms explain wrong answers that no known mistake describes, with evidence that holds on
every failing case they speak for, and never speak for a right answer."""
from pathlib import Path

import pytest

from grader.judge.grade import grade_file
from grader.lessons import lesson, regions, roadmap

ROOT = Path(__file__).resolve().parent.parent
ROAD = roadmap.load(ROOT)


def grade(tmp_path, pool, lesson_id, source):
    path = tmp_path / "solution.py"
    path.write_text(source)
    return grade_file(lesson.load(ROAD, lesson_id), path, pool)


def symptoms_of(result):
    return [d for d in result.diagnosis if d.mistake.startswith("symptom:")]


SOFTMAX_HEAD = "import numpy as np\n\n\ndef softmax(x, axis=-1):\n"
LAYER_NORM_HEAD = "import numpy as np\n\n\ndef layer_norm(x, gamma, beta, eps=1e-5):\n"
LAYER_NORM_BODY = ("    mu = np.mean(x, axis=-1, keepdims=True)\n"
                   "    var = np.mean((x - mu) ** 2, axis=-1, keepdims=True)\n")


@pytest.mark.parametrize("lesson_id, source, symptom, words", [
    ("05", LAYER_NORM_HEAD + "    x, gamma, beta = (a.astype(np.float32) for a in (x, gamma, beta))\n"
     + LAYER_NORM_BODY
     + "    return (x - mu) / np.sqrt(var + eps) * gamma + beta\n",
     "symptom:float32", "float32"),
    ("05", LAYER_NORM_HEAD + LAYER_NORM_BODY + "    return -((x - mu) / np.sqrt(var + eps) * gamma + beta)\n",
     "symptom:factor", "times -1"),
    ("05", LAYER_NORM_HEAD + LAYER_NORM_BODY
     + "    return ((x - mu) / np.sqrt(var + eps) * gamma + beta)[..., None, :]\n",
     "symptom:extra-axis", "axis of size 1"),
    ("05", LAYER_NORM_HEAD + LAYER_NORM_BODY + "    x -= mu\n"
     "    return x / np.sqrt(var + eps) * gamma + beta\n",
     "symptom:in-place", "in place"),
    ("01", SOFTMAX_HEAD + "    m = np.max(x, axis=axis, keepdims=True)\n"
     "    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))\n",
     "symptom:log", "logarithm"),
    ("01", SOFTMAX_HEAD + "    e = np.exp(x - np.max(x, axis=axis))\n"
     "    return e / np.sum(e, axis=axis, keepdims=True)\n",
     "symptom:broadcast", "keepdims=True"),
])
def test_a_symptom_names_what_the_answers_share(tmp_path, pool, lesson_id, source, symptom, words):
    result = grade(tmp_path, pool, lesson_id, source)
    assert not result.passed
    found = symptoms_of(result)
    assert [d.mistake for d in found] == [symptom] and words in found[0].message
    assert found[0].label == "Likely cause"
    assert found[0].cases <= {i for i, r in enumerate(result.cases) if not r.verdict.passed}


def test_a_transposed_answer_is_named(tmp_path, pool):
    source = (lesson.load(ROAD, "02").reference_source
              .replace("    return weights @ v\n", "    return np.swapaxes(weights @ v, -1, -2)\n"))
    result = grade(tmp_path, pool, "02", source)
    assert [d.mistake for d in symptoms_of(result)] == ["symptom:transposed"]


def test_the_wrong_half_of_a_block_is_located(tmp_path, pool):
    source = lesson.load(ROAD, "14").reference_source.replace(
        'h = x + mha_forward(', 'h = x + 2 * mha_forward(')
    result = grade(tmp_path, pool, "14", source)
    part = [d for d in symptoms_of(result) if d.mistake == "symptom:part"]
    assert part and "the difference is in the attention sub-layer" in part[0].message
    assert "the MLP sub-layer alone passes" in part[0].message


@pytest.mark.parametrize("lesson_id", ["01", "05", "10", "14"])
def test_right_answers_and_stubs_get_no_symptom(tmp_path, pool, lesson_id):
    reference = lesson.load(ROAD, lesson_id)
    assert grade(tmp_path, pool, lesson_id, reference.reference_source).diagnosis == []
    stub = grade(tmp_path, pool, lesson_id, regions.stub(reference.reference_source))
    assert symptoms_of(stub) == []


def test_time_outs_get_no_symptom(tmp_path, pool):
    result = grade(tmp_path, pool, "01", SOFTMAX_HEAD + "    while True:\n        pass\n")
    assert symptoms_of(result) == []
