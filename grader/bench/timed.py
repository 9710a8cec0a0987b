"""One class grading run in a process of its own, timed from the moment that process was launched:
`python -m grader.bench.timed SPEC_JSON` prints one JSON object with the times.

Running each class in a fresh interpreter makes every run pay what an instructor's `grader grade`
pays (interpreter start, imports, loading the lessons, computing their answers, starting the
workers) and keeps one run's caches out of the next. With "phases", the main steps of the pipeline
are timed as they run (summed over threads, so a step run by two threads at once counts twice).
"""
import functools
import json
import sys
import threading
import time
from collections import defaultdict

PHASES = (  # (module, attribute, phase name): what `--phases` times
    ("grader.classroom.classgrade", "discover", "discover submissions"),
    ("grader.classroom.classgrade", "to_grade", "hash files, ask the gradebook"),
    ("grader.lessons.lesson", "Lesson.prepare", "lesson answers: reference and mistakes"),
    ("grader.runner.workers", "Worker.wait_ready", "wait for a worker's imports"),
    ("grader.judge.grade", "read_source", "read and parse the file"),
    ("grader.judge.grade", "constraints.check", "check rules"),
    ("grader.judge.grade", "run_learner", "run the child (fork, import, cases, wire)"),
    ("grader.runner.workers", "Worker.start", "  start it (the child made ahead), in run"),
    ("grader.runner.run", "ready", "  wait for it to be set up, in run"),
    ("grader.runner.run", "Frames.next", "  wait for its frames (from ready on), in run"),
    ("grader.runner.workers", "JobChild.finish", "  end it (ask the worker to), in run"),
    ("grader.runner.workers", "JobChild.stop", "ahead: wait for a child's end"),
    ("grader.runner.workers", "JobChild.__init__", "ahead: make a child (its cgroup checked, fork)"),
    ("grader.runner.workers", "Worker.account_for", "  check the worker's cgroup, in make"),
    ("grader.runner.workers", "Worker.move_home", "  move the worker to a fresh one, in check"),
    ("grader.judge.grade", "judge", "compare with the expected answers"),
    ("grader.judge.grade", "diagnose", "diagnose known mistakes"),
    ("grader.judge.grade", "symptoms.explain", "look for symptoms"),
    ("grader.classroom.jobs", "result_row", "build the gradebook row"),
    ("grader.classroom.gradebook", "Gradebook.record", "write the gradebook"),
    ("grader.classroom.classgrade", "exports.write_all", "write the exports"),
)


class Clock:
    def __init__(self):
        self.total = defaultdict(float)
        self.calls = defaultdict(int)
        self.lock = threading.Lock()

    def wrap(self, name, fn):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                with self.lock:
                    self.total[name] += time.perf_counter() - start
                    self.calls[name] += 1
        return timed


def install(clock):
    """Wrap every phase's function where its caller looks it up."""
    import importlib
    for module_name, attribute, name in PHASES:
        owner = importlib.import_module(module_name)
        *path, last = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, last, clock.wrap(name, getattr(owner, last)))


def main(spec):
    launched = spec["launched"]           # time.time() when the parent launched this process
    clock = Clock() if spec.get("phases") else None
    from pathlib import Path
    from grader.classroom.classgrade import grade_class
    from grader.lessons import lesson as lessons, roadmap
    if clock:
        install(clock)
    road = roadmap.load(spec["root"])
    chosen = [lessons.load(road, name) for name in spec["lessons"]]
    known = [e.id for e in road.entries if road.available(e)]
    first = []

    def progress(total):
        def tick(job):
            if not first:
                first.append(time.time() - launched)
        return tick

    done = grade_class(Path(spec["class"]), chosen, Path(spec["out"]), spec["jobs"],
                       spec.get("sandboxed", True), None, progress, False, known)
    report = {"first": first[0] if first else None, "end": time.time() - launched,
              "graded": len(done.graded), "faults": len(done.faults)}
    if clock:
        report["phases"] = {name: [clock.total[name], clock.calls[name]]
                            for _, _, name in PHASES if clock.calls[name]}
    print(json.dumps(report))


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
