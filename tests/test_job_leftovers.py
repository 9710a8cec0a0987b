"""Nothing a job leaves behind outlives it on its warm worker: a class whose first learners leave
kernel objects, files and processes behind, graded in the sandbox on one worker (`--jobs 1`), grades
every right answer after them 1.0 (as an ordinary user: test_instructor_user). A job the grader
cannot run clean is the grader's fault, never the learner's grade."""
import shutil

import pytest

from conftest import ROOT
from grader.classroom.classgrade import grade_class
from grader.runner import cgroups
from grader.runner.workers import Worker
from leftovers import RIGHT, RIGHT_AFTER, learners
from test_hostile import grade, make_class

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("leftovers")]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("leftovers")
    workbook = base / "workbook"
    shutil.copytree(ROOT / "solutions", workbook / "solutions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return grade(workbook, make_class(base / "class", learners()), base / "out", "--lessons", "01",
                 "--jobs", "1")


def test_right_answers_graded_after_jobs_that_leave_things_behind_score_full(graded):
    scores = {learner: row["score"] for (learner, _), row in graded.items()}
    assert {name: scores[name] for name in RIGHT_AFTER} == {name: 1.0 for name in RIGHT_AFTER}, \
        {k: (v["error"], v["cases"][:1]) for k, v in graded.items() if v["score"] < 1}


def test_no_job_sees_what_an_earlier_one_left(graded):
    """The watchful answer turns wrong if it finds any of it; every attacker is right too, and none
    is charged with what another left (the second 600 MB of shared memory fits its own job)."""
    wrong = {k: (v["error"], v["cases"][:1]) for k, v in graded.items() if v["score"] < 1}
    assert not wrong


def die_at_every_start(monkeypatch):
    start = Worker.start

    def dying(worker, request, limits):
        worker.wait_ready()
        worker.kill()           # as if the machine's memory killer had chosen it
        return start(worker, request, limits)
    monkeypatch.setattr(Worker, "start", dying)


def cgroups_never_empty(monkeypatch):
    if cgroups.open_group()[0] is None:
        pytest.skip("no writable cgroup here")
    monkeypatch.setattr(cgroups.Account, "charged", lambda account: (4096, 0))


@pytest.mark.parametrize("fault", [die_at_every_start, cgroups_never_empty])
def test_a_job_the_grader_cannot_run_clean_is_its_fault_and_graded_again(
        softmax_lesson, tmp_path, monkeypatch, fault):
    """A sandboxed job whose worker dies under every try, or whose new cgroup is never empty, is
    retried on a fresh worker, then recorded as the grader's fault, not as the learner's grade;
    the next run grades it again."""
    folder = make_class(tmp_path / "class", {"alice": {"01-softmax": RIGHT}})
    out = tmp_path / "out"
    with monkeypatch.context() as patched:
        fault(patched)
        done = grade_class(folder, [softmax_lesson], out, jobs=1)
    graded, = done.graded
    assert graded.row["fault"] and graded.row["score"] == 0, graded.row["error"]
    assert "the grader could not grade this file" in graded.row["feedback_error"]
    again = grade_class(folder, [softmax_lesson], out, jobs=1)
    assert [g.row["score"] for g in again.graded] == [1.0]
