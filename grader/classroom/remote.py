"""A class job as plain data, graded in whatever process an executor runs it in.

A Task carries what a job needs and nothing bigger: the lesson's id, seed and version, the learner's
file as bytes (read without following a link, no larger than the grader accepts), and how the submitting machine names it. `run_task` grades it in the process
that runs it (a Dask worker, another local process): it loads the lesson from that process's own
workbook checkout once, leases one of that process's warm, sandboxed workers, runs the learner's
code in a child exactly as local grading does, and judges the answers against the reference there
(that process is the instructor's trusted infrastructure). Only the gradebook row travels back; the
submitting process alone writes the gradebook.
"""
import atexit
import hashlib
import os
import socket
import threading
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from grader.errors import GraderError
from grader.lessons import lesson as lessons
from grader.lessons import roadmap
from grader.runner import run
from grader.runner.workers import GRADER_HOME, Pool
from .gradebook import grader_version, lesson_version
from .jobs import Graded, grade_job
from .learnerfiles import Refused
from .submissions import Submission


@dataclass(frozen=True)
class Task:
    learner: str
    lesson: str                 # the lesson's id
    seed: int                   # its cases' seed (None: the lesson's own)
    lesson_version: str         # what the submitting machine grades against
    grader_version: str
    file_name: str              # the file's own name (messages name it)
    shown: str                  # how tracebacks name the file (from the learner's folder on)
    data: bytes                 # the file (no larger than the grader accepts)
    sandboxed: bool
    preload: tuple              # the libraries the warm workers import once
    case_seconds: float = None  # None: the lesson's own time limit


def task_for(submission, versions, sandboxed, preload, case_seconds):
    """The Task of a submission that can be read (Submission.problem is None), read as local
    grading reads it (raises Refused); `versions`: the grader's, and each lesson's by id, as the
    gradebook records them."""
    path, data = submission.path, submission.read()
    lesson = submission.lesson
    return Task(submission.learner, lesson.id, lesson.seed, versions[lesson.id], versions["grader"],
                path.name, submission.shown, data, sandboxed, tuple(preload), case_seconds)


def run_task(task):
    """(gradebook row, seconds) for one Task, graded in this process. Raises GraderError only when
    this process cannot grade at all (another version of the grader or lesson, no sandbox)."""
    if own_version() != task.grader_version:
        raise GraderError(f"the grading worker on {HOST} runs another version of "
                          f"the grader ({own_version()}, not {task.grader_version}): update its "
                          "workbook checkout to match this one, then restart its worker")
    lesson = prepared(task.lesson, task.seed, task.lesson_version)
    limits = run.Limits(case_seconds=task.case_seconds) if task.case_seconds else None
    with leased(task.sandboxed, task.preload) as pool:
        graded, seconds = grade_job(Submission(task.learner, lesson, Path(task.file_name), None),
                                    pool, limits, task.shown, data=task.data)
    return graded.row, seconds


HOST = socket.gethostname()
own_version = cache(grader_version)      # the code a process runs does not change under it
LESSON_LOCK = threading.Lock()
LESSONS = {}        # (lesson id, seed) -> (its version, the Lesson, its trusted outcomes computed)


def workbook_root():
    """This process's workbook checkout, found as the `grader` command finds it."""
    return os.environ.get("WORKBOOK_ROOT") or GRADER_HOME


def prepared(lesson_id, seed, version):
    """The lesson, loaded from this checkout once (again when its files changed), its reference's
    outcomes computed; raises GraderError unless it is the version the task was made against."""
    with LESSON_LOCK:
        cached = LESSONS.get((lesson_id, seed))
        if cached is None or cached[0] != version:
            try:
                lesson = lessons.load(roadmap.load(workbook_root()), lesson_id)
                if seed is not None:
                    lesson = lesson.reseeded(seed)
                cached = (lesson_version(lesson), lesson)
            except (OSError, LookupError, ValueError) as exc:   # UnknownLesson, LessonError
                raise GraderError(f"the grading worker on {HOST} cannot load lesson {lesson_id} "
                                  f"from {workbook_root()}: {exc}") from None
            if cached[0] != version:
                raise GraderError(f"the grading worker on {HOST} has another version of lesson "
                                  f"{lesson_id} in {workbook_root()}: update its workbook checkout "
                                  "to match this one")
            cached[1].prepare()
            LESSONS[lesson_id, seed] = cached
        return cached[1]


POOL_LOCK = threading.Lock()
IDLE = {}           # (sandboxed, preload) -> warm pools of one worker, not running a job now
POOLS = []          # every pool this process started


@contextmanager
def leased(sandboxed, preload):
    """A warm pool of one worker for one job: an idle one, or a new one (so a process keeps as many
    warm workers as it runs jobs at once). Raises GraderError when this machine cannot sandbox."""
    key = (sandboxed, preload)
    with POOL_LOCK:
        idle = IDLE.setdefault(key, [])
        pool = idle.pop() if idle else None
    if pool is None:
        try:
            pool = Pool(1, sandboxed, preload)
        except GraderError as exc:
            raise GraderError(f"on the grading worker {HOST}: {exc}") from None
        with POOL_LOCK:
            POOLS.append(pool)
    try:
        yield pool
    finally:
        with POOL_LOCK:
            IDLE[key].append(pool)


@atexit.register
def close_pools():
    """End this process's warm workers (they also end by themselves when this process dies)."""
    with POOL_LOCK:
        for pool in POOLS:
            pool.close()
        POOLS.clear()
        IDLE.clear()


class Remote:
    """Hands Tasks to `executor` (anything with concurrent.futures' submit); each Future it gives
    back holds (Graded, seconds), as local grading's do. A file that cannot be read is noted
    here, without a Task."""

    def __init__(self, executor, grader_version_, lessons, sandboxed, preload, case_seconds):
        self.executor = executor
        self.versions = {"grader": grader_version_, **{l.id: lesson_version(l) for l in lessons}}
        self.sandboxed, self.preload, self.case_seconds = sandboxed, tuple(preload), case_seconds
        self.sent, self.lock = set(), threading.Lock()     # the executor's futures not done yet

    def prepare(self, todo):
        """Nothing to do here: each process that runs a Task loads and prepares its lesson."""

    def submit(self, submission):
        graded = Future()
        if submission.problem:
            graded.set_result(grade_job(submission, None, None))
            return graded
        try:
            task = task_for(submission, self.versions, self.sandboxed, self.preload,
                            self.case_seconds)
        except Refused:         # a link, or gone since it was found: say so as local grading does
            graded.set_result(grade_job(submission, None, None))
            return graded
        try:
            remote = self.executor.submit(run_task, task)
        except GraderError:
            raise
        except Exception as exc:
            raise GraderError(f"the executor refused a job ({type(exc).__name__}: {exc})") from None

        def arrived(future):
            with self.lock:
                self.sent.discard(future)
            try:
                row, seconds = future.result()
            except BaseException as exc:
                graded.set_exception(exc)
            else:
                graded.set_result((Graded(submission.learner, submission.lesson.id,
                                          str(submission.path), row,
                                          hashlib.sha256(task.data).hexdigest()), seconds))
        with self.lock:
            self.sent.add(remote)
        remote.add_done_callback(arrived)
        return graded

    def close(self):
        """Cancel the jobs still waiting (after an interrupt or an error); the executor itself
        belongs to the caller."""
        with self.lock:
            waiting = list(self.sent)
        for future in waiting:
            future.cancel()
