"""Answers are read as Python reads them: a byte-order mark, a coding line and CRLF line ends
change nothing, for the rules and for the child alike; sizes are bounded for notebooks too."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from conftest import FAST, ROOT
from grader.answers import MAX_SOURCE, read_answer
from grader.judge.grade import grade_file
from grader.lessons import roadmap

BOOK = roadmap.load(ROOT)
LESSONS = [e.id for e in BOOK.entries if BOOK.available(e)]


def saved(path, text, bom=False, crlf=False, coding=None):
    if crlf:
        text = text.replace("\n", "\r\n")
    data = text.encode(coding or "utf-8")
    if coding:
        data = f"# -*- coding: {coding} -*-\n".encode() + data
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return path


@pytest.mark.parametrize("lesson_id", LESSONS)
def test_a_reference_saved_by_a_windows_editor_reads_as_the_reference(lesson_id, tmp_path):
    reference = ROOT / "solutions" / lesson_id / "solution.py"
    text = reference.read_text()
    copy = saved(tmp_path / "solution.py", text, bom=True, crlf=True)
    assert read_answer(copy) == text


def test_a_bom_copy_of_a_reference_passes_its_lesson(softmax_lesson, pool, tmp_path):
    text = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()
    result = grade_file(softmax_lesson, saved(tmp_path / "s.py", text, bom=True, crlf=True),
                        pool, FAST)
    assert result.passed, (result.error, [r.verdict.message for r in result.cases])


def test_a_file_in_the_encoding_its_coding_line_names_is_read(tmp_path):
    text = 'NAME = "Zoë"\n'
    assert read_answer(saved(tmp_path / "a.py", text, coding="latin-1")).endswith(text)


def test_bytes_that_are_not_text_in_the_declared_encoding_are_refused_plainly(tmp_path):
    path = tmp_path / "a.py"
    path.write_bytes(b"x = '\xff\xfe'\n")
    with pytest.raises(ValueError, match="not text in the encoding it declares"):
        read_answer(path)


def test_a_notebook_holding_more_code_than_a_file_may_is_refused_plainly(tmp_path):
    big = "x = 1\n" * (MAX_SOURCE // 6 + 10)
    path = tmp_path / "01-softmax.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": "code", "source": "%%answer 01\n" + big,
                                           "metadata": {}}]}))
    with pytest.raises(ValueError, match="hold more than"):
        read_answer(path)


cell = st.fixed_dictionaries({"cell_type": st.sampled_from(["code", "markdown", 3, None])},
                             optional={"source": st.one_of(st.text(), st.integers(), st.none(),
                                                           st.lists(st.one_of(st.text(), st.integers()))),
                                       "metadata": st.one_of(st.dictionaries(st.text(), st.integers()),
                                                             st.just({"nbgrader": {"solution": True}}),
                                                             st.just({"nbgrader": 5}), st.integers())})


@settings(max_examples=150, deadline=None)
@given(cells=st.lists(cell, max_size=5))
def test_any_notebook_is_read_or_refused_with_a_reason(cells, tmp_path_factory):
    path = tmp_path_factory.mktemp("nb") / "01-softmax.ipynb"
    path.write_text(json.dumps({"cells": cells}))
    try:
        assert isinstance(read_answer(path), str)
    except ValueError as e:
        assert "01-softmax.ipynb" in str(e)
