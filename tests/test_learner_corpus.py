"""Answers written the way learners write them, graded for real: every right_* passes, every wrong_* fails.

The corpus lives in tests/learners/NN/, one folder per lesson. Each wrong_* file starts with a comment
that says what its learner did wrong; one that differs from another answer in a few functions holds
only those, under `# varies: right_x.py` (grader.lessons.corpus.answer_source). Answers the grader currently judges wrongly are listed in
KNOWN below and marked xfail(strict=True): the suite stays green, the problem stays visible, and the
mark has to go once the lesson's cases are fixed.
"""

import pytest

from conftest import ROOT
from grader.judge.grade import grade_file
from grader.lessons import lesson, roadmap
from grader.lessons.corpus import answer_source

CORPUS = ROOT / "tests" / "learners"

# "NN/file.py": why the grader's verdict is wrong for it.
KNOWN = {}


def _answers():
    for path in sorted(CORPUS.glob("[0-9][0-9]/*.py")):
        key = f"{path.parent.name}/{path.name}"
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[key])] if key in KNOWN else []
        yield pytest.param(path, id=key, marks=marks)


ROADMAP = roadmap.load(ROOT)
_lessons = {}


def _lesson(number):
    if number not in _lessons:
        _lessons[number] = lesson.load(ROADMAP, number)
    return _lessons[number]


def test_the_corpus_covers_every_lesson():
    written = {p.name.split("-")[0] for p in (ROOT / "exercises").iterdir() if p.is_dir()}
    for number in written:
        folder = CORPUS / number
        assert len(list(folder.glob("right_*.py"))) >= 2, number
        assert len(list(folder.glob("wrong_*.py"))) >= 6, number


def test_every_wrong_answer_says_what_went_wrong():
    for path in CORPUS.glob("*/wrong_*.py"):
        first = path.read_text().splitlines()[0]
        assert first.startswith("# ") and len(first) > 10, path


def test_known_entries_exist():
    for key in KNOWN:
        assert (CORPUS / key).is_file(), key


@pytest.mark.slow
@pytest.mark.parametrize("path", list(_answers()))
def test_learner_answer(path, pool):
    result = grade_file(_lesson(path.parent.name), path, pool, data=answer_source(path).encode())
    failed = [f"{r.case.name}: {r.verdict.message}" for r in result.cases if not r.verdict.passed]
    if path.name.startswith("right_"):
        assert result.passed, (result.error, result.violations, failed)
    else:
        assert not result.passed, "a wrong answer passed every case"
