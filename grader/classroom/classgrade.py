"""Grade a whole class: every learner x lesson not yet graded, on warm workers in parallel, into the
gradebook; then rewrite every export from the gradebook."""
import errno
import gc
import queue
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from grader.errors import GraderError
from grader.runner import isolation, run
from grader.runner.workers import Pool, preload_for
from . import exports
from .collusion import page as collusion_page
from .gradebook import Gradebook, RunLock, grader_version
from .course import extensions as course_extensions
from .course.handed_in import handed_in
from .jobs import grade_job, refusal_key
from .remote import Remote
from .learnerfiles import Refused
from .submissions import discover, one_learner


@dataclass
class Run:
    """What one run did, for its summary."""
    learners: list
    submissions: list               # every submission found
    ungraded: list                  # Ungraded notes
    graded: list = field(default_factory=list)       # Graded jobs this run
    unchanged: int = 0              # found, but already graded as they are
    withdrawn: list = field(default_factory=list)    # learners of the gradebook with no folder now
    isolation: object = None        # the runner.isolation.Isolation the jobs ran under, if here
    absent: list = field(default_factory=list)       # on the roster, with no folder in the class
    off_roster: list = field(default_factory=list)   # a folder in the class, not on the roster
    collusion: tuple = None         # (page, identical files, shared outputs), on a whole class

    @property
    def faults(self):
        return [g for g in self.graded if g.row["fault"]]


def check_folders(folder, out):
    folder, out = Path(folder).resolve(), Path(out).resolve()
    if out == folder or out.is_relative_to(folder):
        raise GraderError(f"the output folder {out} is inside the class folder {folder}: it would "
                          "be read as a learner's submissions; choose an --out outside it")


def to_grade(book, submissions, regrade):
    """The submissions whose current result is missing or stale (for a file that is not read,
    being a link, too large or unreadable, its refusal stands for its bytes); how many are up
    to date; and (submission, the SHA-256 of its readable bytes) pairs."""
    todo, shas = [], []
    for s in submissions:
        try:
            sha = refusal_key(s.problem) if s.problem else s.sha256()
            if not s.problem:
                shas.append((s, sha))
        except Refused as exc:
            sha = refusal_key(str(exc))
        if regrade or not book.up_to_date(s.learner, s.lesson.id, sha):
            todo.append(s)
    return todo, len(submissions) - len(todo), shas


def disk_full(exc):
    return "full" in str(exc) or getattr(exc, "errno", None) in (errno.ENOSPC, errno.EDQUOT)


def grade_class(folder, lessons, out, jobs=2, sandboxed=True, case_seconds=None, progress=None,
                regrade=False, known=(), learner=None, visibility="after_published", executor=None,
                drop=False, fallback=False, roster=None, course=None, extensions=None):
    """Grade what is missing under `folder` on `lessons` into out/gradebook.sqlite, then write
    out/grades.csv, out/feedback/ and out/gradescope/ from the gradebook (`drop`: without the
    learners whose folder is gone). `progress(total)` returns a callable told about each graded
    job. With `executor` (concurrent.futures-style), the jobs run wherever it runs them, each
    sandboxed there; else on `jobs` warm workers here, where `fallback` accepts jobs as an
    unprivileged user when bubblewrap cannot start (runner.isolation). `roster` (a list of
    course.roster.Member) replaces the gradebook's roster; `course` (course.config.Course) gives
    the lessons' points, due dates and late policy (None: the default points, no due dates);
    `extensions` (course.extensions.Extension) replace the gradebook's. Returns the Run."""
    check_folders(folder, out)
    if executor is not None:
        remote = Remote(executor, grader_version(), lessons, sandboxed, preload_for(lessons),
                        case_seconds)
        return grade_with(remote, folder, lessons, out, progress, regrade, known, learner,
                          visibility, drop, roster, course, extensions)
    chosen = isolation.choose(sandboxed, fallback)      # refuse before anything is written
    # the workers import their libraries while the class is read
    with Pool(jobs, preload=preload_for(lessons), isolation=chosen) as pool:
        done = grade_with(Local(pool, jobs, case_seconds), folder, lessons, out, progress,
                          regrade, known, learner, visibility, drop, roster, course, extensions)
    done.isolation = chosen
    return done


def grade_with(grading, folder, lessons, out, progress, regrade, known, learner, visibility, drop,
               roster=None, course=None, extensions=None):
    learners, submissions, ungraded = discover(folder, lessons, known, learner)
    whole_class = learner is None and not one_learner(folder, lessons, known)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lock = RunLock(out)
    try:
        book = Gradebook(out / "gradebook.sqlite")
        try:
            done = Run(learners, submissions, ungraded)
            try:
                if roster is not None:
                    book.set_roster(roster)
                absent = on_roster(book, done, whole_class)
                if extensions is not None:
                    course_extensions.check(extensions, learners + book.roster_ids())
                    book.set_extensions(extensions)
                book.add_learners(learners + absent, whole_class)
                book.add_lessons(lessons, course)
                book.note_ungraded([l.id for l in lessons], [u.row() for u in ungraded] + [
                    (m, l.id, None, NO_FOLDER) for m in absent for l in lessons])
                todo, done.unchanged, shas = to_grade(book, submissions, regrade)
                stopped = None
                try:
                    grade_all(book, todo, lessons, grading, progress, done)
                except GraderError as exc:      # the executor lost jobs: export what is graded
                    stopped = exc
                book.note_handed_in(hand_in_times(shas, not whole_class))
                view = exports.write_all(book.db, out, visibility, drop)
                done.withdrawn = sorted(view.withdrawn)
                if whole_class:         # instructor only: beside the gradebook, never exported
                    done.collusion = collusion_page.write(book.db, out, lessons)
                if stopped:
                    raise stopped
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


def hand_in_times(shas, alone):
    """(learner, lesson, sha256, when, source) of each readable submission (course.handed_in)."""
    return [(s.learner, s.lesson.id, sha, *handed_in(s, alone)) for s, sha in shas]


NO_FOLDER = "nothing submitted: on the roster, with no folder in the class"


def on_roster(book, done, whole_class):
    """The roster's learners with no folder in the class (graded as having submitted nothing);
    notes on `done` who those are and whose folder is not on the roster."""
    ids = book.roster_ids()
    if not ids:
        return []
    listed, here = set(ids), set(done.learners)
    done.off_roster = [l for l in done.learners if l not in listed]
    done.absent = [m for m in ids if m not in here] if whole_class else []
    return done.absent


def prepared(lesson):
    """Compute `lesson`'s answers, then freeze what they (and the imports) made (see Local)."""
    lesson.prepare()
    gc.freeze()


TRIES = 3       # how often a job the executor lost (a machine died under it) is handed out


class Local:
    """The default: this process's warm workers, a thread per worker leasing them to jobs. The
    lessons' answers are computed in order, in one thread, while the workers import their
    libraries and then while the first lessons' jobs run; a job waits for its own lesson. What
    the imports and each lesson's answers made lives until the run ends: it is frozen, so the
    cyclic collector no longer walks it (for 800 learners, 0.32 s of collections became 0.05 s)."""

    def __init__(self, pool, jobs, case_seconds):
        self.pool = pool
        # None: each lesson's own time limit
        self.limits = run.Limits(case_seconds=case_seconds) if case_seconds else None
        self.preparing = ThreadPoolExecutor(1)
        self.ex = ThreadPoolExecutor(jobs)
        self.ready = {}

    def prepare(self, todo):
        for lesson in {s.lesson.id: s.lesson for s in todo}.values():
            self.ready[lesson.id] = self.preparing.submit(prepared, lesson)

    def job(self, submission):
        self.ready[submission.lesson.id].result()   # a broken lesson stops the run, as before
        return grade_job(submission, self.pool, self.limits)

    def submit(self, submission):
        return self.ex.submit(self.job, submission)

    def close(self):
        self.ex.shutdown(wait=False, cancel_futures=True)   # on an interrupt, stop at once
        self.preparing.shutdown(wait=False, cancel_futures=True)


COMMIT_SECONDS = 0.5    # the longest a graded job waits to be written to the gradebook


def grade_all(book, todo, lessons, grading, progress, done):
    """Grade `todo` on this machine's warm workers (Local) or on an executor (Remote, e.g. a Dask
    cluster's), lesson by lesson, recording the results that arrived in the last COMMIT_SECONDS
    together in one transaction (each commit costs a few disk writes and syncs: one per job cost
    about a millisecond of CPU and more of waiting); what has arrived when grading stops, however
    it stops, is recorded."""
    if not todo:
        return
    advance = progress(len(todo)) if progress else (lambda job: None)
    order = {l.id: i for i, l in enumerate(lessons)}
    todo = sorted(todo, key=lambda s: order.get(s.lesson.id, len(order)))   # lesson by lesson
    grading.prepare(todo)
    arrived = queue.SimpleQueue()
    pending = {}
    unrecorded = []

    def hand_out(submission, tries):
        future = grading.submit(submission)
        pending[future] = (submission, tries)
        future.add_done_callback(arrived.put)

    def settle(future):
        """The gradebook row of a finished job, or None when it was lost and handed out again."""
        submission, tries = pending.pop(future)
        try:
            graded, seconds = future.result()
        except GraderError:
            raise
        except Exception as exc:    # lost, not graded: a machine or the connection died
            if tries == TRIES:
                raise GraderError(f"{submission.path} could not be graded: the executor lost "
                                  f"it {TRIES} times (the last: {type(exc).__name__}: "
                                  f"{exc})") from None
            hand_out(submission, tries + 1)
            return None
        return graded, graded.sha256 or "unreadable", seconds     # the bytes graded

    def record():
        if not unrecorded:
            return
        book.record_many(unrecorded)
        done.graded += [graded for graded, _, _ in unrecorded]
        unrecorded.clear()

    try:
        try:
            for submission in todo:
                hand_out(submission, 1)
            due = time.monotonic() + COMMIT_SECONDS
            while pending:
                try:
                    future = arrived.get(timeout=max(0.0, due - time.monotonic()))
                except queue.Empty:
                    future = None
                if future is not None and (row := settle(future)):
                    unrecorded.append(row)
                    advance(row[0])
                if time.monotonic() >= due:
                    record()
                    due = time.monotonic() + COMMIT_SECONDS
        finally:
            record()        # what arrived last, or before grading stopped
    except GraderError as exc:
        raise GraderError(f"{exc}. The {len(done.graded)} results of this run are in the "
                          "gradebook: run again to grade the rest") from None
    finally:
        grading.close()
