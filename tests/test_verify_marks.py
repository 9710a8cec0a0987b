"""`grader verify` checks every number the prose marks as computed (`value<!-- = expr -->`)
against its expression, to the digits shown; learners never see the marks."""
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, strategies as st

from grader.lessons import build, lesson, marks, prose, roadmap

ROOT = Path(__file__).resolve().parent.parent
KV_CACHE = lesson.load(roadmap.load(ROOT), "19")
TEXT = (KV_CACHE.folder / "lesson.md").read_text()


def with_sentence(sentence):
    """Lesson 19's prose with one more sentence at the end of its worked example."""
    return TEXT.replace("### Why it matters", sentence + "\n\n### Why it matters", 1)


def problems(text, last_only=False):
    """What verify says about the marks of `text` (with `last_only`, of its last mark alone)."""
    found, names = prose.parse(text), KV_CACHE.namespace
    if last_only:
        found, names = SimpleNamespace(marks=found.marks[-1:]), dict
    return marks.check(SimpleNamespace(prose=found, namespace=names))


def test_the_kv_cache_lesson_marks_its_worked_weights_and_they_hold():
    shown = [m.shown for m in KV_CACHE.prose.marks]
    assert "[0.0743196, 0.305695, 0.619985]" in shown and len(shown) >= 4
    assert marks.check(KV_CACHE) == []


def test_the_old_wrong_head_1_weights_fail(tmp_path):
    folder = tmp_path / KV_CACHE.id
    shutil.copytree(KV_CACHE.folder, folder)
    old = TEXT.replace("[0.0743196, 0.305695, 0.619985]", "[0.0558, 0.2376, 0.7066]")
    assert old != TEXT
    (folder / "lesson.md").write_text(old)
    found = marks.check(lesson.Lesson(KV_CACHE.entry, folder))
    assert len(found) == 1
    assert "`[0.0558, 0.2376, 0.7066]`" in found[0] and "[0.0743196, 0.305695, 0.619985]" in found[0]


@given(st.floats(-1e4, 1e4), st.integers(0, 6), st.floats(-0.49, 0.49), st.floats(0.51, 5.0),
       st.booleans())
def test_a_number_agrees_to_the_decimals_it_shows(value, decimals, inside, outside, bare):
    written = f"{value:.{decimals}f}"
    unit = 10.0 ** -decimals

    def marked(computed):
        number = written if bare else f"`[{written}]`"
        return problems(with_sentence(f"The total is {number}<!-- = {computed!r} -->."), True)

    assert marked(float(written) + inside * unit) == []
    assert len(marked(float(written) + outside * unit)) == 1
    assert len(marked(float(written) - outside * unit)) == 1


def test_a_value_with_another_count_of_numbers_or_an_error_is_reported():
    assert problems(with_sentence("Here `[1, 1, 2]`<!-- = (np.ones(2), {'a': 2.0}) -->.")) == []
    assert "is wrong" in problems(with_sentence("Here `[1, 2]`<!-- = np.ones(3) -->."))[0]
    assert "cannot be computed: NameError" in problems(with_sentence("Here `1`<!-- = nope -->."))[0]


def test_marks_share_names_in_order_and_an_equation_is_checked_by_its_result():
    text = with_sentence("So `h = 2 + 1 = 3`<!-- = (h := 2.0 + 1.0) --> and `h * 2\n  = 6`<!-- = h * 2 -->.")
    assert problems(text) == []
    assert "is wrong" in problems(text.replace("= 6`", "= 7`"))[0]


def test_marks_are_taken_out_of_what_learners_read():
    p = prose.parse(with_sentence("Tokens 477<!-- = 500 - 23 --> to `1499`<!-- = 1500 - 1 -->."))
    assert "Tokens 477 to `1499`." in p.sections["Learn it"]
    assert [m.shown for m in p.marks][-2:] == ["477", "1499"]
    assert "<!--" not in build.readme(KV_CACHE)
    assert "<!--" not in (ROOT / "exercises" / KV_CACHE.id / "README.md").read_text()


def test_a_mark_after_no_number_is_a_prose_error():
    with pytest.raises(prose.ProseError, match="follows no number"):
        prose.parse(with_sentence("The weights <!-- = softmax(np.zeros(3)) --> are uniform."))
