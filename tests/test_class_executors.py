"""Class grading on any concurrent.futures executor: the same grades as the local warm workers,
jobs an executor loses handed out again, and clear refusals from a worker that cannot grade."""
import dataclasses
import sqlite3
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from conftest import ROOT
from grader.classroom import remote
from grader.classroom.classgrade import TRIES, grade_class
from grader.classroom.gradebook import lesson_version
from grader.classroom.submissions import discover
from grader.errors import GraderError
from grader.lessons import lesson as lessons, roadmap
from mixed_class import make_mixed_class

FAST = 2.0      # seconds per case: the class has an endless loop


def graded(out):
    """Every current result, all it says (not when or how long it took), with its cases."""
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        rows = db.execute(
            "SELECT s.learner, s.lesson, s.path, s.sha256, r.score, r.passed, r.cases_passed, "
            "r.cases_total, r.error, r.violations, r.diagnosis, r.lesson_version, r.fault, "
            "r.hint, r.error_line, r.feedback_error, r.id FROM current c JOIN results r "
            "ON r.id = c.result JOIN submissions s ON s.id = r.submission").fetchall()
        return {row[:2]: (row[2:-1], db.execute(
            "SELECT position, name, public, status, passed, message, verdict, probe, shown "
            "FROM case_results WHERE result = ? ORDER BY position", (row[-1],)).fetchall())
            for row in rows}


class Flaky(ThreadPoolExecutor):
    """Loses the first `losses` times it is handed each job, as a cluster whose machine died."""

    def __init__(self, losses):
        super().__init__(2)
        self.losses, self.seen = losses, {}

    def submit(self, fn, *args):
        task = args[0]
        key = (task.learner, task.lesson)
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] <= self.losses:
            lost = Future()
            lost.set_exception(ConnectionResetError("the machine grading it went away"))
            return lost
        return super().submit(fn, *args)


@pytest.fixture(scope="module")
def mixed(built_workbook, tmp_path_factory):
    """The mixed class, and its gradebook as the local warm workers write it (unsandboxed: what
    is compared is the grading loop, not the sandbox, which test_class_dask runs)."""
    folder = tmp_path_factory.mktemp("mixed")
    cls = make_mixed_class(folder / "class", built_workbook)
    chosen = [lessons.load(roadmap.load(ROOT), n) for n in ("01", "02")]
    grade_class(cls, chosen, folder / "local", 2, False, FAST)
    return cls, chosen, graded(folder / "local")


@pytest.fixture
def remote_pools():
    yield
    remote.close_pools()


def test_any_executor_grades_the_class_as_the_local_workers_do(mixed, tmp_path, remote_pools):
    cls, chosen, local = mixed
    with ThreadPoolExecutor(2) as executor:
        done = grade_class(cls, chosen, tmp_path / "out", 1, False, FAST, executor=executor)
    assert len(done.graded) == len(local) > 10
    assert graded(tmp_path / "out") == local
    assert (tmp_path / "out" / "grades.csv").read_text() == \
        (cls.parent / "local" / "grades.csv").read_text()


def test_jobs_the_executor_loses_are_handed_out_again(mixed, tmp_path, remote_pools):
    cls, chosen, local = mixed
    executor = Flaky(TRIES - 1)
    with executor:
        grade_class(cls, chosen, tmp_path / "out", 1, False, FAST, executor=executor)
    assert graded(tmp_path / "out") == local
    assert set(executor.seen.values()) == {TRIES}


def test_a_job_lost_every_time_stops_the_run_keeping_what_was_graded(mixed, tmp_path):
    cls, chosen, _ = mixed
    with Flaky(TRIES) as executor, pytest.raises(GraderError) as stopped:
        grade_class(cls, chosen, tmp_path / "out", 1, False, FAST, executor=executor)
    message = str(stopped.value)
    assert f"the executor lost it {TRIES} times" in message
    assert "ConnectionResetError: the machine grading it went away" in message
    with sqlite3.connect(tmp_path / "out" / "gradebook.sqlite") as db:
        (kept,), = db.execute("SELECT COUNT(*) FROM results")
    # the files that cannot be read are noted without a job, so they are recorded before the stop
    assert f"The {kept} results of this run are in the gradebook" in message


@pytest.mark.parametrize("change, words", [
    ({"lesson_version": "0" * 16}, "has another version of lesson 01-softmax"),
    ({"grader_version": "0.0.0+000000000000"}, "runs another version of the grader"),
    ({"lesson": "99-nothing"}, "cannot load lesson 99-nothing"),
])
def test_a_worker_with_another_checkout_refuses_the_job(mixed, change, words):
    cls, chosen, _ = mixed
    submission = next(s for s in discover(cls, chosen)[1] if s.learner == "alice")
    versions = {"grader": remote.own_version(), "01-softmax": lesson_version(chosen[0])}
    task = remote.task_for(submission, versions, False, ("numpy",), None)
    with pytest.raises(GraderError, match=words):
        remote.run_task(dataclasses.replace(task, **change))
