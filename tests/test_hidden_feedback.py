"""Nothing the learner's code produced on a hidden case reaches anything anyone reads of it.

A hidden case's inputs are in the learner's process while it runs, so its messages, exception type
names, printed text, last words, traces and changed-input names may spell them out. Generated
outcomes of that kind (huge, shaped like the libraries' errors the symptoms read, named like the
grader's own kinds, full of the hidden inputs' values) are graded through the real pipeline and
rendered every way feedback is shown: `grader check`'s terminal output and --json, the class's
gradebook, feedback pages (Markdown, HTML), Gradescope's results.json, grades.csv, the class
summary and the class report (terminal and HTML). None of them may hold a hidden input's value or
the learner text of a hidden case.
"""
import io
import json
import tempfile
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from grader.classroom import exports, jobs
from grader.classroom.classgrade import Run
from grader.classroom.gradebook import Gradebook
from grader.classroom.report import data as report_data, page, plots, text as report_text
from grader.classroom.summary import summary
from grader.display import show
from grader.judge import grade
from grader.judge.symptoms.traits import arrays_in
from grader.learner import report
from grader.lessons import build, roadmap
from grader.runner.outcome import Job, Outcome, grader_error

from test_total_judging import decoded, near, outputs_of, values

ROOT = Path(__file__).resolve().parent.parent
LESSONS = {l.id: l for l in build.lessons(roadmap.load(ROOT))}
MARK = "Qz7jW"          # in every piece of learner text made up for a hidden case
SETTINGS = settings(max_examples=5, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def hidden_tokens(lesson):
    """How a hidden case's input values would read if copied out: 6 significant digits and full
    repr, for values distinctive enough not to occur in the lesson's own words."""
    public = " ".join(show(a) for c in lesson.cases if c.public for call in c.calls
                      for a in arrays_in((call.args, call.kwargs)))
    tokens = {}
    for i, case in enumerate(lesson.cases):
        if case.public:
            continue
        found = set()
        for call in case.calls:
            for a in arrays_in((call.args, call.kwargs)):
                for v in a.ravel()[:4] if a.dtype.kind == "f" else []:
                    if np.isfinite(v) and abs(v) > 1e-3:
                        found |= {f"{v:.6g}", repr(float(v))}
        tokens[i] = sorted(t for t in found if len(t) >= 7 and t not in public)
    return tokens


@st.composite
def learner_text(draw, tokens):
    """Text a learner's code could produce on a hidden case: its inputs' values in the shapes the
    symptoms read, the grader's own words, padding; always with MARK."""
    values_ = " ".join(draw(st.lists(st.sampled_from(tokens), max_size=3))) if tokens else ""
    frame = draw(st.sampled_from([
        "cannot reshape array of size 6 into shape ({v})", "{v}",
        "operands could not be broadcast together with shapes ({v}) (2,3) ",
        "index 7 is out of bounds for axis 0 with size 3 {v}", "overflow encountered in {v}",
        "no function named `{v}`", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5) {v}",
        "your file has {v}", "axis 3 is out of bounds for array of dimension 2 {v}"]))
    pad = draw(st.sampled_from(["", " " + "x" * 50_000]))
    return frame.format(v=f"{values_} {MARK}") + pad


@st.composite
def hidden_outcome(draw, lesson, tokens, index):
    """A learner's outcome on hidden case `index`, with learner text wherever a child can put it."""
    case, expected = lesson.cases[index], lesson.expected[index]
    said = learner_text(tokens)
    kind = draw(st.sampled_from(["error", "error", "ok", "mutated", "timeout", "crash",
                                 "missing", "unsupported"]))
    printed = {"stdout": draw(said), "stdout_lines": 1, "stdout_chars": 10}
    if kind == "error":
        name = draw(st.sampled_from(["MissingFunction", "UnsupportedReturn", "ValueError",
                                     "NotImplementedError", "ImportCrash", f"Leak{MARK}",
                                     case.raises or "RuntimeError"]))
        return Outcome("error", error={"type": name, "message": draw(said), "line": 4,
                                       "trace": [f"line 4, in f: raise E({draw(said)!r})"]},
                       **printed)
    if kind in ("ok", "mutated"):
        outputs = [decoded(draw(near(e) | values)) for e in outputs_of(expected, case)]
        return Outcome("ok", outputs=outputs, mutated=[draw(said)] if kind == "mutated" else [],
                       **printed)
    if kind == "timeout":
        return Outcome("timeout", detail="it took longer than 2 s", where=[draw(said)], **printed)
    if kind == "crash":
        return Outcome("crash", detail="the process died: a segmentation fault", said=draw(said))
    if kind == "missing":
        fn = case.calls[0].fn
        return Outcome("error", error=grader_error("MissingFunction", f"no function named `{fn}`"),
                       **printed)
    return Outcome("error", error=grader_error("UnsupportedReturn", draw(said)), **printed)


def public_outcome(lesson, index):
    """A public case answered as the reference does: its text may be shown, and holds no MARK."""
    return lesson.expected[index] if lesson.expected[index].status == "ok" else Outcome(
        "error", error=dict(lesson.expected[index].error))


def graded(lesson, tmp, job):
    """The real pipeline from the file on, with `job` in place of the child's answers."""
    path = tmp / f"{lesson.id}.py"
    path.write_text(lesson.reference_source)
    with mock.patch.object(grade, "run_learner", lambda *args, **kwargs: job):
        return grade.grade_file(lesson, path, pool=None)


def terminal():
    return Console(record=True, width=200, color_system=None, file=io.StringIO())


def everything_shown(lesson, results, tmp):
    """Every text feedback or a report makes of `results` ((learner, Result) pairs)."""
    shown = []
    for _, result in results:
        console = terminal()
        report.render(console, result)
        shown += [console.export_text(), json.dumps(report.as_json(result))]
    (tmp / "out").mkdir()
    book = Gradebook(tmp / "out" / "gradebook.sqlite")
    try:
        book.add_learners([learner for learner, _ in results])
        book.add_lessons([lesson])
        rows = [(jobs.Graded(learner, lesson.id, str(r.path), jobs.result_row(r)), "sha", 0.1)
                for learner, r in results]
        book.record_many(rows)
        exports.write_all(book.db, tmp / "out")
        class_report = report_data.build(book.db)
    finally:
        book.close()
    shown += [p.read_text() for p in (tmp / "out").rglob("*") if p.suffix in (".md", ".html",
                                                                              ".json", ".csv")]
    console = terminal()
    report_text.print_report(console, class_report)
    shown += [console.export_text(), page.page(class_report, "gradebook.sqlite", "now")]
    done = Run([learner for learner, _ in results], [], [], graded=[g for g, _, _ in rows])
    shown += summary(done, [lesson], tmp / "out", True)[0]
    return "\n".join(shown)


@pytest.mark.slow
@pytest.mark.parametrize("lesson_id", sorted(LESSONS))
def test_no_learner_text_of_a_hidden_case_reaches_any_feedback(lesson_id):
    lesson = LESSONS[lesson_id]
    lesson.prepare()
    tokens = hidden_tokens(lesson)
    hidden = [i for i, c in enumerate(lesson.cases) if not c.public]

    @SETTINGS
    @given(st.data())
    def shown_nowhere(data):
        results = []
        with tempfile.TemporaryDirectory() as folder:
            tmp = Path(folder)
            for learner in ("ann", "bob"):
                outcomes = [public_outcome(lesson, i) if c.public else
                            data.draw(hidden_outcome(lesson, tokens[i], i)) for i, c in enumerate(lesson.cases)]
                results.append((learner, graded(lesson, tmp, Job(outcomes))))
            # the figures draw lesson titles and counts only; drawing them (and syncing the disk
            # after every export) would cost a second per example
            with mock.patch.object(plots, "png", lambda fig: b""), mock.patch("os.sync"):
                text = everything_shown(lesson, results, tmp)
        assert MARK not in text
        leaked = [t for i in hidden for t in tokens[i] if t in text]
        assert leaked == []

    shown_nowhere()
