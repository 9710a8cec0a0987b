"""What run_autograder runs on Gradescope: grade ROOT/submission as one learner, in the sandbox, and
write ROOT/results/results.json. Whatever goes wrong, a results.json saying so is written."""
import json
import sys
import tempfile
import time
from pathlib import Path

from grader.lessons import lesson as lessons_, roadmap
from .classgrade import grade_class

LEARNER = "submission"


def grade(root):
    source = root / "source"
    config = json.loads((source / "autograder.json").read_text())
    road = roadmap.load(source)
    lessons = [lessons_.load(road, name) for name in config["lessons"]]
    with tempfile.TemporaryDirectory(prefix="autograder-") as work:
        out = Path(work) / "out"
        done = grade_class(root / "submission", lessons, out, jobs=1, sandboxed=True,
                           learner=LEARNER, known=config["lessons"],
                           visibility=config["hidden_cases"])
        data = json.loads((out / "gradescope" / LEARNER / "results.json").read_text())
    if done.faults:
        data["output"] += ("\n\nThe grader could not grade some of your files; your instructor can "
                           "see why.")
    return data


def main(root):
    root = Path(root)
    start = time.monotonic()
    try:
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
