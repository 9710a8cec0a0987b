"""`make bench`: will class grading hold for a large course? Generated classes of several sizes
graded on every lesson, and the same learners' lesson 10 through the real `nbgrader autograde`.

Printed: for lesson 10 alone, nbgrader's time per submission (timed before our runs and again after
them, so a machine whose speed drifts moves both sides alike) and ours per learner at each class
size (start-up included) and their ratio; for every lesson, jobs per second, the time to the first
result, and how the time per learner falls as the class grows (with the start-up and per-learner
cost fitted over the sizes); then whether every grade equals what the generated class should score
and nbgrader's. Each class is graded in a fresh process, as `grader grade` would be. Nothing is
asserted: the exit status is 1 only when grades differ. Every run's output folder is kept until
the end: ext4 skips inodes freed in the last minute when it makes a file, so deleting one run's
thousands of files makes the next run's exports several times slower than on an instructor's disk.
"""
import argparse
import os
import sys
import tempfile
from pathlib import Path

from grader.lessons import lesson as lessons
from grader.lessons import roadmap
from grader.runner.workers import GRADER_HOME
from . import nbgrader_run, runs
from .classgen import ClassMaker, learner_id

NB_LESSON = "10"


def note(what):
    """Say what is being measured, so a run of several minutes is not silent."""
    print(f"... {what}", file=sys.stderr, flush=True)


def load_average():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def fit(timings):
    """(start-up seconds, seconds per learner): the least-squares line through (learners, wall)."""
    if len(timings) < 2:
        return None
    xs, ys = [t.learners for t in timings], [t.seconds for t in timings]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - slope * mx, slope


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m grader.bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,200,800", help="class sizes, comma-separated")
    parser.add_argument("--lessons", default="all", help="lessons of the whole-class runs "
                        "(comma-separated, or all)")
    parser.add_argument("--nbgrader", type=int, default=20, metavar="N",
                        help="learners whose lesson 10 nbgrader autogrades (0: skip nbgrader)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--phases", action="store_true",
                        help="also time the pipeline's phases in the largest whole-class run")
    parser.add_argument("--no-sandbox", action="store_true", help="grade without bubblewrap")
    args = parser.parse_args(argv)
    try:
        args.sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    except ValueError:
        parser.error(f"--sizes {args.sizes!r}: give whole numbers, e.g. 50,200")
    if not args.sizes or min(args.sizes) < 1:
        parser.error("--sizes: give at least one class size of 1 or more")
    return args


def versus(baseline, ours):
    """Our time per learner against nbgrader's per submission, timed before and after our runs:
    the ratio to their mean, and to each (the spread the machine's drift makes), e.g. `158x
    (150-166x)`."""
    each = sorted(b / ours for b in baseline)
    mean = sum(baseline) / len(baseline) / ours
    return f"{mean:.0f}x" + (f" ({each[0]:.0f}-{each[-1]:.0f}x)" if len(each) > 1 else "")


def chosen(road, names):
    if names == "all":
        return [lessons.load(road, e.id) for e in road.entries if road.available(e)]
    return [lessons.load(road, n) for n in names.split(",") if n.strip()]


def print_table(rows, header):
    """Columns right-aligned, but for the first (left-aligned, so an indented name shows so)."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  " + "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))))


def print_phases(timing):
    """Where a run spent its time, if its phases were timed."""
    if timing.phases:
        print(f"\nphases of the {timing.learners}-learner run of {timing.jobs} jobs (seconds summed "
              "over threads; nested phases, indented, are inside their callers):")
        print_table([(name, f"{s:.2f} s", calls, f"{1000 * s / calls:.2f} ms",
                      f"{1000 * s / timing.jobs:.2f} ms")
                     for name, (s, calls) in timing.phases.items()],
                    ("phase", "total", "calls", "per call", "per job"))


def main(argv=None):
    args = parse_args(argv)
    road = roadmap.load(GRADER_HOME)
    try:
        whole = chosen(road, args.lessons)
    except (roadmap.UnknownLesson, lessons.LessonError) as exc:
        sys.exit(f"bench: {exc}")
    nb_lesson = lessons.load(road, NB_LESSON)
    every = {l.id: l for l in [*whole, nb_lesson]}
    sandboxed = not args.no_sandbox
    print(f"load average at the start: {load_average()} ({os.cpu_count()} cores); "
          f"{args.jobs} workers, {'sandboxed' if sandboxed else 'no sandbox'}", flush=True)
    bad = 0
    with tempfile.TemporaryDirectory(prefix="bench-") as work:
        work = Path(work)
        note("generating the classes (the mistakes' answers decide their expected scores)")
        maker = ClassMaker(every.values())
        kinds = {}
        for size in args.sizes:
            folder = work / f"class-{size}"
            expected = maker.write(folder, size)
            kinds[size] = expected

        nb, sources = [], {}
        if args.nbgrader:
            n = min(args.nbgrader, max(args.sizes))
            sources = {learner_id(i): (work / f"class-{max(args.sizes)}" / learner_id(i)
                                       / nb_lesson.id / "solution.py").read_text()
                       for i in range(n)}
            note(f"nbgrader autograde: lesson {nb_lesson.id}, {n} submissions, before our runs")
            nb.append(nbgrader_run.autograde(road, nb_lesson, sources, work / "nbgrader-before"))

        rows, mine, alone = [], {}, []
        for size in args.sizes:
            note(f"grading lesson {nb_lesson.id} for {size} learners")
            out = work / f"out-{size}-{nb_lesson.id}"
            t = runs.grade(work / f"class-{size}", out, [nb_lesson.id], size, args.jobs,
                           args.phases and size == max(args.sizes), sandboxed)
            alone.append(t)
            graded = runs.gradebook_scores(out)
            mine[size] = graded
            want = {k: v for k, v in kinds[size].items() if k[1] == nb_lesson.id}
            wrong = runs.mismatches(want, graded)
            bad += len(wrong)
            rows.append([size, f"{t.seconds:.1f} s", f"{t.first:.1f} s",
                         f"{1000 * t.per_learner:.1f} ms", "-",
                         "all as expected" if not wrong else f"{len(wrong)} differ",
                         load_average()])
        if sources:
            note("nbgrader autograde again, after our runs (the machine's speed drifts)")
            nb.append(nbgrader_run.autograde(road, nb_lesson, sources, work / "nbgrader-after"))
            print(f"\nnbgrader autograde, lesson {nb_lesson.id}, {len(sources)} submissions: "
                  + ", ".join(f"{when} our runs {r.seconds:.1f} s ({r.per_submission:.2f} s per "
                              "submission)" for when, r in zip(("before", "after"), nb))
                  + f"; their mean is the baseline (load average now {load_average()})")
            for row, t in zip(rows, alone):
                row[4] = versus([r.per_submission for r in nb], t.per_learner)

        print(f"\nclass grading, lesson {nb_lesson.id} alone (launch to exports written):")
        print_table(rows, ("learners", "wall", "first result", "per learner", "vs nbgrader",
                           "grades", "load"))
        if line := fit(alone):
            print(f"  fitted over the sizes: start-up {line[0]:.1f} s, then "
                  f"{1000 * line[1]:.1f} ms per learner")
        print_phases(alone[-1])

        for when, r in zip(("before", "after"), nb):
            ours = mine[min(s for s in args.sizes if s >= min(args.nbgrader, max(args.sizes)))]
            wrong = runs.nbgrader_mismatches(ours, r.scores, nb_lesson.id)
            bad += len(wrong)
            print(f"  nbgrader's grades ({when} our runs) equal ours for "
                  f"{len(r.scores) - len(wrong)} of {len(r.scores)} submissions")
            for learner, o, t in wrong[:5]:
                print(f"    {learner}: ours {o[0]}/{o[1]} cases (score {o[2]}), nbgrader {t[0]}/{t[1]}")

        ids = [l.id for l in whole]
        if ids == [nb_lesson.id]:       # graded above already
            ids = []
        if ids:
            print(f"\nclass grading, {len(ids)} lessons ({ids[0]} to {ids[-1]}):")
        rows, timings = [], []
        for size in args.sizes if ids else ():
            note(f"grading {len(ids)} lessons for {size} learners ({size * len(ids)} jobs)")
            out = work / f"out-{size}-all"
            phases = args.phases and size == max(args.sizes)
            t = runs.grade(work / f"class-{size}", out, ids, size, args.jobs, phases, sandboxed)
            timings.append(t)
            want = {k: v for k, v in kinds[size].items() if k[1] in ids}
            wrong = runs.mismatches(want, runs.gradebook_scores(out))
            bad += len(wrong)
            for learner, lesson, expect, got in wrong[:5]:
                print(f"    {learner} {lesson}: expected {expect.score:.4g} ({expect.kind} "
                      f"{expect.mistake or ''}), graded {got}")
            rows.append((size, t.jobs, f"{t.seconds:.1f} s", f"{t.first:.1f} s",
                         f"{t.jobs / t.seconds:.1f}", f"{1000 * t.per_learner:.0f} ms",
                         f"{1000 * t.per_job:.1f} ms",
                         "all as expected" if not wrong else f"{len(wrong)} differ",
                         load_average()))
        if rows:
            print_table(rows, ("learners", "jobs", "wall", "first result", "jobs/s", "per learner",
                               "per job", "grades", "load"))
        line = fit(timings)
        if line:
            print(f"  fitted over the sizes: start-up {line[0]:.1f} s, then "
                  f"{1000 * line[1]:.0f} ms per learner ({1000 * line[1] / len(ids):.1f} ms per job)")
        if timings:
            print_phases(timings[-1])
    print(f"\nload average at the end: {load_average()}")
    if bad:
        print(f"{bad} grades differ from what they should be (listed above)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
