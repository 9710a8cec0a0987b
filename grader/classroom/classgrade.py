"""Grade a whole class: every learner x lesson on warm workers in parallel, into the gradebook."""
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from grader.runner import run
from .exports import write_grades_csv
from grader.judge.grade import Result, grade_file
from .gradebook import Gradebook
from .submissions import discover
from grader.runner.workers import Pool, preload_for


def timed_grade(submission, pool, limits):
    start = time.monotonic()
    lesson = submission.lesson
    if submission.problem:
        result = Result(lesson, submission.path, error=submission.problem)
    else:
        result = grade_file(lesson, submission.path, pool, limits)
    return result, time.monotonic() - start


def grade_class(folder, lessons, out, jobs=2, sandboxed=True, case_seconds=None, progress=None):
    """Grade every submission under `folder` on `lessons`; write out/gradebook.sqlite and
    out/grades.csv. `progress(total)` returns a callable told about each graded submission."""
    learners, submissions = discover(folder, lessons)
    for lesson in {s.lesson.id: s.lesson for s in submissions}.values():
        lesson.prepare()
    limits = run.Limits(case_seconds=case_seconds) if case_seconds else None   # None: the lesson's
    with Pool(jobs, sandboxed, preload_for(lessons)) as pool:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        book = Gradebook(out / "gradebook.sqlite")
        try:
            book.add_learners(learners)
            advance = progress(len(submissions)) if progress else (lambda submission, result: None)
            scores = {}
            ex = ThreadPoolExecutor(jobs)
            try:
                futures = {ex.submit(timed_grade, s, pool, limits): s for s in submissions}
                for future in as_completed(futures):
                    submission, (result, seconds) = futures[future], future.result()
                    book.record(submission, result, seconds)
                    scores[submission.learner, submission.lesson.id] = result.score
                    advance(submission, result)
            finally:
                ex.shutdown(wait=False, cancel_futures=True)   # on an interrupt, stop at once
            write_grades_csv(out / "grades.csv", learners, lessons, scores)
        finally:
            book.close()
    return learners, submissions
