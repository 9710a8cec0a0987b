"""What run_autograder runs on Gradescope: grade ROOT/submission as one learner, in the sandbox, and
write ROOT/results/results.json. Whatever goes wrong, a results.json saying so is written. With
due dates in the bundle, the hand-in time is Gradescope's (ROOT/submission_metadata.json's
`created_at`), and the late policy applies as on the class route.

Gradescope's containers deny bubblewrap the user namespaces it needs (Docker's default seccomp
profile), so there the jobs run as an unprivileged user instead (runner.isolation); ROOT's folders
are made readable by root alone first, and a test only instructors see says which isolation held.
"""
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from grader.judge.points import Rule
from grader.lessons import lesson as lessons_, roadmap
from .classgrade import grade_class
from .course import portable
from .course.config import Course

LEARNER = "submission"
PRIVATE = ("source", "submission", "results")


def lock(root):
    """Make ROOT's folders, and all this process writes from now on, readable by root alone."""
    os.umask(0o077)
    for part in PRIVATE:
        (root / part).mkdir(parents=True, exist_ok=True)
        os.chmod(root / part, 0o700)


def isolation_test(isolation):
    """A test worth nothing that only instructors see: which isolation the jobs ran under."""
    return {"name": "Grading isolation (instructors only)", "score": 0.0, "max_score": 0.0,
            "status": "passed", "output": isolation.describe(), "output_format": "text",
            "visibility": "hidden"}


def grade(root):
    source = root / "source"
    config = json.loads((source / "autograder.json").read_text())
    road = roadmap.load(source)
    lessons = [lessons_.load(road, name) for name in config["lessons"]]
    course = portable.applied(config, Course(rules={i: Rule.of_json(r) for i, r in
                                                    config.get("rules", {}).items()}))
    with tempfile.TemporaryDirectory(prefix="autograder-") as work:
        out = Path(work) / "out"
        done = grade_class(root / "submission", lessons, out, jobs=1, sandboxed=True,
                           learner=LEARNER, known=config["lessons"],
                           visibility=config["hidden_cases"], fallback=True, course=course)
        data = json.loads((out / "gradescope" / LEARNER / "results.json").read_text())
    data["tests"].append(isolation_test(done.isolation))
    print(done.isolation.describe())
    if done.faults:
        data["output"] += ("\n\nThe grader could not grade some of your files; your instructor can "
                           "see why.")
    return data


def main(root):
    root = Path(root)
    start = time.monotonic()
    try:
        lock(root)
        data = grade(root)
    except Exception as exc:   # the learner must get a results.json whatever went wrong
        data = {"score": 0.0, "output": f"The autograder could not grade this submission: {exc}",
                "visibility": "visible", "stdout_visibility": "hidden", "tests": []}
        print(f"autograder failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    data["execution_time"] = int(time.monotonic() - start)
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "results.json").write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/autograder")
