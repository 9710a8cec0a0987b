"""What class grading does in batches for speed keeps its promises: the results that arrive close
together are one transaction (all stored or none), whatever has arrived when grading stops, however
it stops, is stored, the exports change only once every file is written, and what a lesson's
answers made is frozen for the collector."""
import gc
import queue
import sqlite3
import threading
import time
from concurrent.futures import Future
from types import SimpleNamespace

import pytest

from conftest import ROOT
from grader.classroom import classgrade, exports
from grader.classroom.gradebook import Gradebook
from grader.classroom.jobs import Graded
from grader.errors import GraderError
from grader.lessons import lesson, roadmap


def row(score):
    return {"score": score, "passed": score == 1.0, "cases_passed": int(score * 2), "error": None,
            "error_line": None, "feedback_error": None, "fault": False, "hint": None,
            "violations": [], "diagnosis": [],
            "cases": [{"name": f"c{i}", "public": False, "status": "ok", "passed": i < score * 2,
                       "message": "", "verdict": "passed", "probe": "", "shown": None}
                      for i in range(2)]}


@pytest.fixture
def book(tmp_path):
    gb = Gradebook(tmp_path / "gradebook.sqlite")
    gb.add_learners(["ann", "bo"])
    gb.add_lessons([lesson.load(roadmap.load(ROOT), "01")])
    yield gb
    gb.close()


def current(path):
    db = sqlite3.connect(path)
    try:
        return dict(db.execute("SELECT c.learner, r.score FROM current c JOIN results r "
                               "ON r.id = c.result").fetchall())
    finally:
        db.close()


def test_a_batch_of_results_is_stored_whole(book, tmp_path):
    ids = book.record_many([(Graded("ann", "01-softmax", "a.py", row(1.0)), "aa", 0.1),
                            (Graded("bo", "01-softmax", "b.py", row(0.5)), "bb", 0.2)])
    assert len(set(ids)) == 2
    assert current(tmp_path / "gradebook.sqlite") == {"ann": 1.0, "bo": 0.5}


def test_a_batch_that_fails_part_way_stores_none_of_it(book, tmp_path):
    book.record(Graded("ann", "01-softmax", "a.py", row(0.5)), "a0", 0.1)
    with pytest.raises(TypeError):     # no such lesson in the gradebook: the second insert fails
        book.record_many([(Graded("ann", "01-softmax", "a.py", row(1.0)), "a1", 0.1),
                          (Graded("bo", "99-nowhere", "b.py", row(1.0)), "bb", 0.1)])
    assert current(tmp_path / "gradebook.sqlite") == {"ann": 0.5}


def test_exports_change_only_once_every_file_is_written(tmp_path):
    old = {tmp_path / "a.txt": "old a", tmp_path / "b.txt": "old b"}
    for path, text in old.items():
        path.write_text(text)
    files = exports.AtomicFiles()
    files.write(tmp_path / "a.txt", "new a")
    assert (tmp_path / "a.txt").read_text() == "old a"      # nothing moves before commit
    files.discard()                                          # e.g. the disk filled up
    assert {p: p.read_text() for p in old} == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]
    files.write(tmp_path / "a.txt", "new a")
    files.write(tmp_path / "b.txt", "new b")
    files.commit()
    assert [p.read_text() for p in old] == ["new a", "new b"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_a_file_that_cannot_be_written_stops_the_exports_and_changes_nothing(tmp_path):
    """The files are written in a thread of their own: its failure reaches the caller."""
    (tmp_path / "a.txt").write_text("old a")
    files = exports.AtomicFiles()
    files.write(tmp_path / "a.txt", "new a")
    files.write(tmp_path / "gone" / "b.txt", "new b")      # no such folder
    files.write(tmp_path / "c.txt", "new c")
    with pytest.raises(FileNotFoundError):
        files.commit()
    files.discard()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    assert (tmp_path / "a.txt").read_text() == "old a"


class Book:
    def __init__(self):
        self.commits = []

    def record_many(self, rows):
        self.commits.append([graded.learner for graded, _, _ in rows])


class Grading:
    """Jobs that end one after another, a few milliseconds apart, in a thread of their own; the
    one of learner `failing` fails as a lost executor would."""

    def __init__(self, failing=None):
        self.failing, self.closed = failing, False
        self.jobs = queue.SimpleQueue()
        threading.Thread(target=self.run, daemon=True).start()

    def prepare(self, todo):
        pass

    def submit(self, submission):
        future = Future()
        self.jobs.put((submission, future))
        return future

    def run(self):
        while True:
            submission, future = self.jobs.get()
            time.sleep(0.003)
            if submission.learner == self.failing:
                future.set_exception(GraderError("the cluster went away"))
            else:
                future.set_result((SimpleNamespace(learner=submission.learner, sha256="0" * 64),
                                   0.01))

    def close(self):
        self.closed = True


def submissions(n):
    lesson = SimpleNamespace(id="01-softmax")
    return [SimpleNamespace(learner=f"l{i:03}", lesson=lesson) for i in range(n)], [lesson]


def test_results_that_arrive_together_are_written_in_one_transaction(monkeypatch):
    monkeypatch.setattr(classgrade, "COMMIT_SECONDS", 60)
    todo, lessons = submissions(40)
    book, grading, done = Book(), Grading(), SimpleNamespace(graded=[])
    classgrade.grade_all(book, todo, lessons, grading, None, done)
    assert book.commits == [[s.learner for s in todo]] and grading.closed
    assert [g.learner for g in done.graded] == [s.learner for s in todo]


@pytest.mark.parametrize("window", [0, 60])
def test_what_arrived_before_grading_stopped_is_recorded(monkeypatch, window):
    monkeypatch.setattr(classgrade, "COMMIT_SECONDS", window)
    todo, lessons = submissions(10)
    book, grading, done = Book(), Grading(failing="l006"), SimpleNamespace(graded=[])
    with pytest.raises(GraderError, match="The 6 results of this run are in the gradebook"):
        classgrade.grade_all(book, todo, lessons, grading, None, done)
    assert sum(book.commits, []) == [f"l{i:03}" for i in range(6)] == [g.learner for g in done.graded]
    assert grading.closed
    if window:
        assert len(book.commits) == 1


def test_a_lessons_answers_are_frozen_once_computed(softmax_lesson):
    """The class run's collector never walks what a lesson's answers made (nor the imports)."""
    gc.unfreeze()
    try:
        local = classgrade.Local(pool=None, jobs=1, case_seconds=None)
        local.prepare([SimpleNamespace(lesson=softmax_lesson)])
        local.ready[softmax_lesson.id].result()
        local.close()
        expected = softmax_lesson.expected
        assert gc.is_tracked(expected) and gc.get_freeze_count() > 0
        assert all(o is not expected for o in gc.get_objects())
    finally:
        gc.unfreeze()
