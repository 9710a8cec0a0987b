"""Due dates, extensions and late work: each submission's hand-in time read from where the class
came from (nbgrader, Gradescope, git, the file's time), the due date a learner's extension gives,
what the late policy does, said on the feedback page and in the report; bad extensions refused."""
import csv
import datetime as dt
import os
import subprocess
from types import SimpleNamespace

import pytest
from hypothesis import given, strategies as st

from conftest import GOOD_SOFTMAX, ROOT, grader
from grader.classroom.course import dates, extensions, handed_in
from grader.classroom.course.late import DAY, Late
from grader.classroom.course.table import CourseError
from grader.lessons import roadmap
from mixed_class import put

ROAD = roadmap.load(ROOT)
DUE = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.timezone.utc)
COURSE = """
[late]
policy = "penalty"
per_day = 0.1
floor = 0.5
[lessons.01]
due = 2026-03-01T12:00:00Z
"""


def test_each_policy_does_what_it_says():
    penalty = Late("penalty", per_day=0.1, floor=0.5)
    assert penalty.apply(-5) == (1.0, "handed in on time")
    kept, words = penalty.apply(1.5 * DAY)
    assert kept == pytest.approx(0.8) and "2 days late: 20% of the points off" in words
    assert penalty.apply(30 * DAY)[0] == 0.5
    refuse = Late("refuse", after_days=2)
    assert refuse.apply(2 * DAY)[0] == 1.0 and refuse.apply(2 * DAY + 1)[0] == 0.0
    assert Late().apply(100 * DAY)[0] == 1.0


@given(st.floats(0, 1), st.floats(0, 1), st.floats(-10 * DAY, 100 * DAY), st.floats(0, 10 * DAY))
def test_a_penalty_keeps_between_its_floor_and_everything_and_never_rewards_lateness(
        per_day, floor, late, more):
    policy = Late("penalty", per_day, floor)
    kept = policy.apply(late)[0]
    assert floor - 1e-12 <= kept <= 1 and policy.apply(late + more)[0] <= kept


def one(folder, rel):
    return SimpleNamespace(folder=folder, path=folder / rel, shown=rel)


def test_hand_in_times_come_from_nbgrader_gradescope_git_or_the_file(tmp_path):
    nb = tmp_path / "nb" / "ada" / "ps1"
    put(nb / "01-softmax.ipynb", "{}")
    (nb / "timestamp.txt").write_text("2026-03-01 10:30:47.524219 UTC\n")
    assert handed_in.handed_in(one(nb.parent, "ps1/01-softmax.ipynb")) == (
        dt.datetime(2026, 3, 1, 10, 30, 47, 524219, tzinfo=dt.timezone.utc), "nbgrader")
    gs = tmp_path / "gs" / "ben"
    put(gs / "01-softmax.py", GOOD_SOFTMAX)
    (gs / "submission_metadata.json").write_text('{"created_at": "2026-03-01T14:22:32-07:00"}')
    assert handed_in.handed_in(one(gs, "01-softmax.py")) == (
        dt.datetime(2026, 3, 1, 21, 22, 32, tzinfo=dt.timezone.utc), "gradescope")
    repo = tmp_path / "git" / "cy"
    put(repo / "01-softmax.py", GOOD_SOFTMAX)
    env = {**os.environ, "GIT_COMMITTER_DATE": "2026-03-03T12:00:00Z",
           "GIT_AUTHOR_DATE": "2026-03-03T12:00:00Z", "GIT_AUTHOR_NAME": "c",
           "GIT_AUTHOR_EMAIL": "c@x", "GIT_COMMITTER_NAME": "c", "GIT_COMMITTER_EMAIL": "c@x"}
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "done"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)
    assert handed_in.handed_in(one(repo, "01-softmax.py")) == (
        dt.datetime(2026, 3, 3, 12, tzinfo=dt.timezone.utc), "git")
    plain = tmp_path / "plain" / "dee"
    put(plain / "01-softmax.py", GOOD_SOFTMAX)
    os.utime(plain / "01-softmax.py", (DUE.timestamp(), DUE.timestamp()))
    assert handed_in.handed_in(one(plain, "01-softmax.py")) == (DUE, "mtime")


def test_a_broken_timestamp_falls_back_to_the_file_time(tmp_path):
    folder = tmp_path / "ada"
    put(folder / "01-softmax.py", GOOD_SOFTMAX)
    (folder / "submission_metadata.json").write_text('{"created_at": 7}')
    (folder / "timestamp.txt").write_text("yesterday")
    assert handed_in.handed_in(one(folder, "01-softmax.py"))[1] == "mtime"


def stamp(path, when):
    os.utime(path, (when.timestamp(), when.timestamp()))


def late_class(tmp_path, ext_text):
    cls, out = tmp_path / "class", tmp_path / "out"
    for who, when in (("alice", DUE - dt.timedelta(days=1)), ("bob", DUE + dt.timedelta(days=1.5)),
                      ("carol", DUE + dt.timedelta(days=2))):
        put(cls / who / "01-softmax.py", GOOD_SOFTMAX)
        stamp(cls / who / "01-softmax.py", when)
    (tmp_path / "course.toml").write_text(COURSE)
    (tmp_path / "extensions.csv").write_text(ext_text)
    return cls, out


def test_late_work_is_penalised_unless_extended_and_pages_and_report_say_so(lesson_sources,
                                                                            tmp_path):
    cls, out = late_class(tmp_path, "learner,lesson,due\ncarol,*,3 days\n")
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01", "--out", str(out),
                  "--no-sandbox", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        rows = {r["learner"]: r["01-softmax"] for r in csv.DictReader(f)}
    assert rows == {"alice": "1", "bob": "0.8", "carol": "1"}
    bob = (out / "feedback" / "bob.html").read_text()
    assert "Handed in 2026-03-03 00:00 UTC (the file&#x27;s modification time)" in bob
    assert "Due 2026-03-01 12:00 UTC." in bob
    assert "Handed in 2 days late: 20% of the points off" in bob
    carol = (out / "feedback" / "carol.html").read_text()
    assert "Due 2026-03-04 12:00 UTC (extended by 3 days)" in carol and "on time" in carol
    report = grader(lesson_sources, "report", "--no-html", "--gradebook", str(out))
    assert "Hand-in time from the file's modification time: alice, bob, carol" in report.stdout


@pytest.mark.parametrize("text, words", [
    ("learner,lesson,due\nzed,01,2\n", "an extension for 'zed', who is neither in the class"),
    ("learner,lesson,due\nbob,nope,2\n", "There is no lesson named 'nope'"),
    ("learner,lesson,due\nbob,01,next week\n", "'next week' is not a date"),
    ("learner,lesson,due\nbob,01,2\nbob,01-softmax,3\n", "has an extension for 01-softmax already"),
    ("learner,due\nbob,2\n", "no column lesson"),
])
def test_a_bad_extensions_file_is_refused_and_nothing_is_graded(lesson_sources, tmp_path, text,
                                                                 words):
    cls, out = late_class(tmp_path, text)
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01", "--out", str(out),
                  "--no-sandbox", "--jobs", "1")
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert words in done.stdout, done.stdout
    assert not (out / "grades.csv").exists()


@given(st.lists(st.lists(st.text(max_size=6) | st.sampled_from(
    ["learner", "lesson", "due", "01", "*", "2026-03-01", "3 days", "-1", "nan"]), max_size=4),
    max_size=5))
def test_any_extensions_file_reads_or_is_refused_with_a_course_error(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("e") / "extensions.csv"
    path.write_text("\n".join(",".join(r) for r in rows), encoding="utf-8")
    try:
        found = extensions.read(path, ROAD)
    except CourseError as exc:
        assert str(exc)
    else:
        for ext in found:
            assert (ext.due is None) != (ext.days is None)
            assert ext.applied(DUE) is not None


@given(st.text(max_size=30))
def test_any_text_is_a_date_or_a_course_error(text):
    try:
        assert dates.moment(text).tzinfo is not None
    except CourseError:
        pass
