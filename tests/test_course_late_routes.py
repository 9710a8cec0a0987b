"""The late policy on the per-submission routes: a Gradescope bundle and an nbgrader course built
with a course file's due dates and late policies score each submission by its hand-in time
(Gradescope's submission_metadata.json, nbgrader's timestamp.txt) as the class route does, and
the feedback says when it was handed in, when it was due and what the policy did."""
import datetime as dt

import pytest
from traitlets.config import Config

from conftest import ROOT, grader
from mixed_class import reference
from test_gradescope import run_autograder

DUE = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.timezone.utc)
COURSE = """
[lessons.01]
due = 2026-03-01T12:00:00Z
late = { policy = "penalty", per_day = 0.2, floor = 0.5 }
[lessons.03]
due = 2026-03-01T12:00:00Z
late = { policy = "refuse", after_days = 2 }
"""
# days after the due date -> per policy (lesson 01's penalty, 03's refusal): points, what is said
HANDED_IN = {
    "on time": (-1, {"penalty": (1.0, "Handed in on time."),
                     "refuse": (1.0, "Handed in on time.")}),
    "late": (1.5, {"penalty": (0.6, "Handed in 2 days late: 40% of the points off"),
                   "refuse": (1.0, "Handed in 2 days late: counted in full")}),
    "refused": (3, {"penalty": (0.5, "Handed in 3 days late: 50% of the points off"),
                    "refuse": (0.0, "Handed in 3 days late: not accepted, scored 0")}),
}


@pytest.fixture(scope="module")
def late_bundle(tmp_path_factory):
    """The autograder zip for lessons 01 and 03, built with COURSE's due dates and policies."""
    top = tmp_path_factory.mktemp("late-bundle")
    (top / "course.toml").write_text(COURSE)
    done = grader(ROOT, "export", "gradescope", "--lessons", "01,03", "--course",
                  str(top / "course.toml"), str(top / "autograder.zip"))
    assert done.returncode == 0, done.stdout + done.stderr
    return top / "autograder.zip"


def created_at(days):
    """Gradescope's created_at for a submission `days` after the due date, as it writes it."""
    return (DUE + dt.timedelta(days=days)).astimezone(
        dt.timezone(dt.timedelta(hours=-8))).isoformat(timespec="microseconds")


@pytest.mark.parametrize("when", list(HANDED_IN))
def test_a_gradescope_bundle_applies_the_late_policy_to_gradescopes_hand_in_time(
        late_bundle, tmp_path, when):
    days, policies = HANDED_IN[when]
    (softmax, said_01), (mask, said_03) = policies["penalty"], policies["refuse"]
    files = {"01-softmax.py": reference("01-softmax"),
             "03-causal-mask.py": reference("03-causal-mask")}
    data = run_autograder(late_bundle, tmp_path, files,
                          metadata={"id": 1, "created_at": created_at(days),
                                    "assignment": {"due_date": created_at(0)}})
    lessons = {t["tags"][0]: t for t in data["tests"] if t.get("number", ".").isdigit()}
    assert lessons["01-softmax"]["score"] == pytest.approx(softmax)
    assert lessons["03-causal-mask"]["score"] == pytest.approx(mask)
    assert data["score"] == pytest.approx(softmax + mask)
    text = " ".join(" ".join(lessons[l]["output"].split()) for l in sorted(lessons))
    handed = (DUE + dt.timedelta(days=days)).strftime("%Y-%m-%d %H:%M UTC")
    assert f"Handed in {handed} (Gradescope's submission time). Due 2026-03-01 12:00 UTC." in text
    assert said_01 in text and said_03 in text, text


def nbgrader_course(tmp_path, course_file):
    done = grader(ROOT, "export", "nbgrader", str(tmp_path / "course"), "--lessons", "01",
                  "--assignment", "ps1", *(["--course", str(course_file)] if course_file else []))
    assert done.returncode == 0, done.stdout + done.stderr
    return tmp_path / "course"


def autograde(course, learner, days):
    """The score cell's last output and its text, as WorkbookGrading writes them for `learner`'s
    submitted notebook (the reference), handed in `days` after the due date."""
    import nbformat
    from grader.classroom.nbgrader_autograde import WorkbookGrading, lesson_for
    from grader.notebooks import nbgrader_export as layout
    source = nbformat.read(course / "source" / "ps1" / "01-softmax.ipynb", as_version=4)
    folder = course / "submitted" / learner / "ps1"
    folder.mkdir(parents=True)
    for cell in source.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            cell.source = reference("01-softmax")
    nbformat.write(source, folder / "01-softmax.ipynb")
    stamp = DUE + dt.timedelta(days=days)
    (folder / "timestamp.txt").write_text(stamp.strftime("%Y-%m-%d %H:%M:%S.%f UTC") + "\n")
    config = Config()
    config.CourseDirectory.root = str(course)
    config.WorkbookGrading.sandboxed = False
    grading = WorkbookGrading(config=config)
    lesson = lesson_for("01-softmax")
    cells = {layout.grade_id(c): c for c in source.cells if layout.grade_id(c) in
             {layout.grade_id(g) for g in layout.grader_cells(lesson)}}
    row, submission = grading.graded(lesson, {"student": learner, "assignment": "ps1",
                                              "notebook": "01-softmax"})
    grading.write_verdicts(lesson, submission, row, cells)
    outputs = cells[layout.score_id(lesson)].outputs
    return float(outputs[-1].data["text/plain"]), " ".join(
        " ".join(o.text for o in outputs if o.output_type == "stream").split())


@pytest.mark.parametrize("policy", ["penalty", "refuse"])
def test_an_nbgrader_course_applies_the_late_policy_to_nbgraders_timestamp(tmp_path, monkeypatch,
                                                                            policy):
    monkeypatch.setenv("WORKBOOK_ROOT", str(ROOT))
    lesson = COURSE.split("[lessons.03]")[policy == "refuse"].replace("[lessons.01]", "")
    (tmp_path / "course.toml").write_text(f"[lessons.01]\n{lesson.strip()}\n")
    course = nbgrader_course(tmp_path, tmp_path / "course.toml")
    for learner, (days, policies) in HANDED_IN.items():
        points, said = policies[policy]
        score, text = autograde(course, learner.replace(" ", "-"), days)
        assert score == pytest.approx(points), text
        assert "(nbgrader's timestamp.txt). Due 2026-03-01 12:00 UTC." in text
        assert said in text and f"Score: {points:.4g} of 1 point" in text
    plain = nbgrader_course(tmp_path / "plain", None)
    score, text = autograde(plain, "late", 3)
    assert score == 1.0 and "Due" not in text
