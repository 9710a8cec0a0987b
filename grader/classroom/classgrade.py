"""Grade a whole class: every learner x lesson not yet graded, on warm workers in parallel, into the
gradebook; then rewrite every export from the gradebook."""
import errno
import queue
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from grader.errors import GraderError
from grader.runner import run, sandbox
from grader.runner.workers import Pool, preload_for
from . import exports
from .gradebook import Gradebook, RunLock, file_hash
from .jobs import grade_job
from .submissions import discover


@dataclass
class Run:
    """What one run did, for its summary."""
    learners: list
    submissions: list               # every submission found
    ungraded: list                  # Ungraded notes
    graded: list = field(default_factory=list)       # Graded jobs this run
    unchanged: int = 0              # found, but already graded as they are

    @property
    def faults(self):
        return [g for g in self.graded if g.row["fault"]]


def check_folders(folder, out):
    folder, out = Path(folder).resolve(), Path(out).resolve()
    if out == folder or out.is_relative_to(folder):
        raise GraderError(f"the output folder {out} is inside the class folder {folder}: it would "
                          "be read as a learner's submissions; choose an --out outside it")


def to_grade(book, submissions, regrade):
    """The submissions whose current result is missing or stale, each with its file's hash (None
    when the file cannot be read); and how many are up to date."""
    todo = []
    for s in submissions:
        try:
            sha = file_hash(s.path) if s.path.is_file() else None
        except OSError:
            sha = None
        if regrade or sha is None or not book.up_to_date(s.learner, s.lesson.id, sha):
            todo.append((s, sha))
    return todo, len(submissions) - len(todo)


def disk_full(exc):
    return "full" in str(exc) or getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT)


def grade_class(folder, lessons, out, jobs=2, sandboxed=True, case_seconds=None, progress=None,
                regrade=False, known=(), learner=None, visibility="after_published"):
    """Grade what is missing under `folder` on `lessons` into out/gradebook.sqlite, then write
    out/grades.csv, out/feedback/ and out/gradescope/ from the gradebook. `progress(total)`
    returns a callable told about each graded job. Returns the Run."""
    check_folders(folder, out)
    if sandboxed:
        sandbox.bwrap()         # refuse before anything is written
    with Pool(jobs, sandboxed, preload_for(lessons)) as pool:   # importing while the class is read
        return grade_with(pool, folder, lessons, out, jobs, case_seconds, progress, regrade, known,
                          learner, visibility)


def grade_with(pool, folder, lessons, out, jobs, case_seconds, progress, regrade, known, learner,
               visibility):
    learners, submissions, ungraded = discover(folder, lessons, known, learner)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lock = RunLock(out)
    try:
        book = Gradebook(out / "gradebook.sqlite")
        try:
            done = Run(learners, submissions, ungraded)
            try:
                book.add_learners(learners)
                book.add_lessons(lessons)
                book.note_ungraded([l.id for l in lessons], [u.row() for u in ungraded])
                todo, done.unchanged = to_grade(book, submissions, regrade)
                grade_all(book, todo, lessons, pool, jobs, case_seconds, progress, done)
                exports.write_all(book.db, out, visibility)
            except sqlite3.OperationalError as exc:
                if not disk_full(exc):
                    raise
                raise GraderError(f"the disk holding {out} is full: {len(done.graded)} results of "
                                  "this run were recorded, the rest were not; free some space and "
                                  "run again (only what is missing will be graded)") from None
            except OSError as exc:
                if not disk_full(exc):
                    raise
                raise GraderError(f"the disk holding {out} is full while writing the exports; "
                                  "every graded result is in the gradebook: free some space and "
                                  "run again to write them") from None
        finally:
            book.close()
    finally:
        lock.release()
    return done


def grade_all(book, todo, lessons, pool, jobs, case_seconds, progress, done):
    if not todo:
        return
    limits = run.Limits(case_seconds=case_seconds) if case_seconds else None   # None: the lesson's
    advance = progress(len(todo)) if progress else (lambda job: None)
    order = {l.id: i for i, l in enumerate(lessons)}
    todo = sorted(todo, key=lambda t: order.get(t[0].lesson.id, len(order)))   # lesson by lesson
    # The lessons' answers are computed in order, one thread, while the workers import their
    # libraries and then while the first lessons' jobs run; a job waits for its own lesson.
    preparing = ThreadPoolExecutor(1)
    ready = {l.id: preparing.submit(l.prepare)
             for l in {s.lesson.id: s.lesson for s, _ in todo}.values()}

    def job(submission):
        ready[submission.lesson.id].result()   # a broken lesson stops the run, as before
        return grade_job(submission, pool, limits)

    ex = ThreadPoolExecutor(jobs)
    try:
        finished = queue.SimpleQueue()
        for s, sha in todo:
            ex.submit(job, s).add_done_callback(lambda f, sha=sha: finished.put((f, sha)))
        left = len(todo)
        while left:         # every job finished by now goes into one transaction
            batch = [finished.get()]
            while not finished.empty():
                batch.append(finished.get())
            graded = [(*f.result(), sha) for f, sha in batch]
            book.record_many([(g, sha or "unreadable", seconds) for g, seconds, sha in graded])
            left -= len(graded)
            for g, _, _ in graded:
                done.graded.append(g)
                advance(g)
    finally:
        ex.shutdown(wait=False, cancel_futures=True)   # on an interrupt, stop at once
        preparing.shutdown(wait=False, cancel_futures=True)
