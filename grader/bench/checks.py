"""`make bench` (its last part): how long a learner waits for `grader check`, cold and warm.

Each lesson's reference file is checked with the whole command (`grader check NN --file ...`, the
interpreter's start included) in a workbook made for the run (its lesson sources copied): cold,
with the warm check server turned off (WORKBOOK_CHECK_IDLE=0, the check in the command's process),
and warm, handed to the workbook's check server once a first check has started it. Importing
torch alone, timed in the same run, is the yardstick: a cold check of a torch lesson pays it every
time. Medians over several runs; the load average is printed, as the machine may be shared.
Nothing is asserted.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grader.checkserver import client
from grader.lessons import lesson as lessons
from grader.lessons import roadmap
from grader.runner.workers import GRADER_HOME

LESSONS = ("01", "12")      # a numpy lesson and a torch lesson


def timed(argv, env, cwd):
    """The wall time of one command (its output thrown away); raises if it could not check."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.strip()[-500:]}")
    return seconds


def median(argv, env, cwd, runs):
    return statistics.median(timed(argv, env, cwd) for _ in range(runs))


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lessons", default=",".join(LESSONS))
    args = parser.parse_args()
    road = roadmap.load(GRADER_HOME)
    try:
        chosen = [lessons.load(road, n.strip()) for n in args.lessons.split(",") if n.strip()]
    except (LookupError, ValueError) as exc:       # an unknown lesson, one not written yet
        sys.exit(f"bench: {exc.args[0] if exc.args else exc}")
    with tempfile.TemporaryDirectory(prefix="bench-checks-") as tmp:
        root = Path(tmp) / "workbook"
        shutil.copytree(Path(GRADER_HOME) / "solutions", root / "solutions",
                        ignore=shutil.ignore_patterns("__pycache__"))
        env = {**os.environ, "WORKBOOK_ROOT": str(root)}
        cold_env, warm_env = {**env, "WORKBOOK_CHECK_IDLE": "0"}, {**env, "WORKBOOK_CHECK_IDLE": "600"}
        print(f"check latency (the whole `grader check NN --file <reference>`), median of {args.runs} "
              f"runs; load average {load()}", flush=True)
        try:
            rows = []
            for lesson in chosen:
                argv = [sys.executable, "-m", "grader", "check", f"{lesson.entry.number:02d}",
                        "--file", str(root / "solutions" / lesson.id / "solution.py")]
                cold = median(argv, cold_env, root, args.runs)
                timed(argv, warm_env, root)             # starts the server, loads the lesson
                warm = median(argv, warm_env, root, args.runs)
                kind = "torch" if "torch" in lesson.libraries else "numpy"
                rows.append((f"lesson {lesson.entry.number:02d} ({kind})", cold, warm))
            torch = median([sys.executable, "-c", "import torch"], env, root, args.runs)
            bare = median([sys.executable, "-c", "pass"], env, root, args.runs)
        finally:
            client.stop(root)
    print(f"  {'':<20} {'cold':>8} {'warm':>8}")
    for name, cold, warm in rows:
        print(f"  {name:<20} {cold:7.2f}s {warm:7.2f}s")
    print(f"  python -c 'import torch': {torch:.2f} s; python -c 'pass': {bare:.2f} s; "
          f"load average now {load()}")


if __name__ == "__main__":
    main()
