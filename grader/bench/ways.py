"""`make bench WAYS=1`: grading throughput on one set of jobs, three ways, and check latency.

The jobs: several learners' files (the reference and a fresh stub) on numpy and torch lessons.
1. warm workers: the grader's own path, a pool of warm workers forking a child per job (also
   under bubblewrap, as class grading runs);
2. a fresh process per job: the same grader, but each job starts (and pays for) its own worker;
3. plain pytest: one `pytest` run per submission importing the learner's file, as a pytest-based
   autograder would.
Each is timed over several runs; the medians and their ratios are printed. Nothing is asserted.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from grader.lessons import lesson as lessons
from grader.lessons import regions, roadmap
from grader.judge.grade import grade_file
from grader.runner.workers import GRADER_HOME, Pool, preload_for

LESSONS = ("01", "05", "10", "14")
PYTEST_FILE = textwrap.dedent("""\
    import importlib.util, os, pytest
    from grader.lessons import lesson, roadmap
    from grader.judge import trusted
    from grader.judge.verdict import judge

    LESSON = lesson.load(roadmap.load(os.environ["BENCH_ROOT"]), os.environ["BENCH_LESSON"])
    spec = importlib.util.spec_from_file_location("solution", os.environ["BENCH_FILE"])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    @pytest.mark.parametrize("index", range(len(LESSON.cases)))
    def test_case(index):
        case, expected = LESSON.cases[index], LESSON.expected[index]
        got = trusted.run(vars(module), [case])[0]
        assert judge(case, got, expected, LESSON.spec).passed
    """)


def make_jobs(workdir, copies):
    """(lesson, path) for `copies` learners x (reference, stub) x the benchmark's lessons."""
    road = roadmap.load(GRADER_HOME)
    jobs = []
    for name in LESSONS:
        lesson = lessons.load(road, name)
        for kind, text in (("ref", lesson.reference_source),
                           ("stub", regions.stub(lesson.reference_source))):
            for i in range(copies):
                path = Path(workdir) / f"{lesson.id}-{kind}-{i}.py"
                path.write_text(text)
                jobs.append((lesson, path))
    return jobs


def warm(jobs, parallel, sandboxed=False):
    with Pool(parallel, sandboxed, preload_for([l for l, _ in jobs])) as pool:
        pool.wait_ready()      # a class pays the imports once, before the clock starts
        start = time.perf_counter()
        with ThreadPoolExecutor(parallel) as ex:
            list(ex.map(lambda job: grade_file(job[0], job[1], pool), jobs))
        return time.perf_counter() - start


def fresh(jobs, parallel):
    def one(job):
        with Pool(1, preload=preload_for([job[0]])) as pool:
            grade_file(job[0], job[1], pool)
    start = time.perf_counter()
    with ThreadPoolExecutor(parallel) as ex:
        list(ex.map(one, jobs))
    return time.perf_counter() - start


def plain_pytest(jobs, parallel, workdir):
    test = Path(workdir) / "test_submission.py"
    test.write_text(PYTEST_FILE)

    def one(job):
        env = {**os.environ, "BENCH_ROOT": GRADER_HOME, "BENCH_LESSON": job[0].id,
               "BENCH_FILE": str(job[1]), "PYTHONPATH": GRADER_HOME}
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-p", "no:xdist", str(test)], env=env, cwd=workdir,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.perf_counter()
    with ThreadPoolExecutor(parallel) as ex:
        list(ex.map(one, jobs))
    return time.perf_counter() - start


def check_latency(lesson, runs):
    """Median wall time of `grader check LESSON --file <reference>`, a whole command."""
    ref = Path(GRADER_HOME) / "solutions" / lessons.load(roadmap.load(GRADER_HOME), lesson).id
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "grader", "check", lesson, "--file",
                        str(ref / "solution.py")], stdout=subprocess.DEVNULL, cwd=GRADER_HOME)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def recheck_latency(lesson_name, runs):
    """Median time of a re-check on a warm worker, as `grader watch` does after a save."""
    lesson = lessons.load(roadmap.load(GRADER_HOME), lesson_name)
    with Pool(1, preload=preload_for([lesson])) as pool:
        path = lesson.folder / "solution.py"
        grade_file(lesson, path, pool)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            grade_file(lesson, path, pool)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def note(what):
    """Say what is being measured, so a run of a minute or more is not silent."""
    print(f"... {what}", file=sys.stderr, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--copies", type=int, default=2, help="learners per (lesson, kind)")
    parser.add_argument("--parallel", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-") as workdir:
        note("preparing the jobs: computing the reference's answers for every case")
        jobs = make_jobs(workdir, args.copies)
        for lesson, _ in jobs:
            lesson.prepare()
        print(f"{len(jobs)} jobs (lessons {', '.join(LESSONS)}; reference and stub files), "
              f"{args.parallel} in parallel, median of {args.runs} runs", flush=True)
        results = {}
        for name, run in (("warm workers", lambda: warm(jobs, args.parallel)),
                          ("warm workers, sandboxed", lambda: warm(jobs, args.parallel, True)),
                          ("fresh process per job", lambda: fresh(jobs, args.parallel)),
                          ("plain pytest per submission",
                           lambda: plain_pytest(jobs, args.parallel, workdir))):
            note(f"timing {name} ({args.runs} runs)")
            results[name] = statistics.median(run() for _ in range(args.runs))
        base = results["warm workers"]
        for name, seconds in results.items():
            print(f"  {name:<30} {len(jobs) / seconds:8.1f} jobs/s  {1000 * seconds / len(jobs):8.1f}"
                  f" ms/job  {seconds / base:6.1f}x the warm time")
    print("check latency (whole `grader check` command, reference file), median of "
          f"{args.runs} runs:")
    for lesson in ("01", "10"):
        print(f"  lesson {lesson}: {check_latency(lesson, args.runs):.2f} s", flush=True)
    print(f"re-check on a warm worker (as `grader watch` does), median of 5: "
          f"lesson 01 {1000 * recheck_latency('01', 5):.0f} ms, "
          f"lesson 10 {1000 * recheck_latency('10', 5):.0f} ms")


if __name__ == "__main__":
    main()
