"""Feedback released lesson by lesson: with `release = "manual"` in the course file, Gradescope's
results and the Canvas and Moodle files carry a lesson only once `grader release` named it; the
feedback pages hold every lesson, for the instructor to read first."""
import csv
import io
import json

from conftest import grader
from mixed_class import put, reference


def graded(lesson_sources, tmp_path, release=None):
    cls, out = tmp_path / "class", tmp_path / "out"
    for learner in ("ann", "ben"):
        put(cls / learner / "01-softmax.py", reference("01-softmax"))
        put(cls / learner / "03-causal-mask.py", reference("03-causal-mask"))
    if release:
        (tmp_path / "course.toml").write_text(f'release = "{release}"\n')
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01,03", "--out", str(out),
                  "--no-sandbox", "--jobs", "1")
    return cls, out, done


def gradescope_lessons(out, learner):
    data = json.loads((out / "gradescope" / learner / "results.json").read_text())
    return sorted({int(str(t["number"]).split(".")[0]) for t in data["tests"] if "number" in t})


def canvas_lessons(lesson_sources, out, tmp_path):
    path = tmp_path / "canvas.csv"
    done = grader(lesson_sources, "export", "canvas", str(path), "--gradebook", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    header = next(csv.reader(io.StringIO(path.read_text("utf-8-sig"))))
    return [name.split()[0] for name in header[5:]], done.stdout


def test_held_lessons_leave_only_once_released(lesson_sources, tmp_path):
    cls, out, done = graded(lesson_sources, tmp_path, "manual")
    assert done.returncode == 0, done.stdout + done.stderr
    assert gradescope_lessons(out, "ann") == []
    columns, said = canvas_lessons(lesson_sources, out, tmp_path)
    assert columns == [] and "held until `grader release`: 01-softmax, 03-causal-mask" in said
    assert "01-softmax" in (out / "feedback" / "ann.md").read_text()     # the instructor reads it

    released = grader(lesson_sources, "release", "01", "--out", str(out))
    assert released.returncode == 0, released.stdout + released.stderr
    assert "Released: 01-softmax. Still held: 03-causal-mask." in " ".join(released.stdout.split())
    assert canvas_lessons(lesson_sources, out, tmp_path)[0] == ["01"]
    again = grader(lesson_sources, "grade", str(cls), "--lessons", "01,03", "--out", str(out),
                   "--no-sandbox", "--jobs", "1")
    assert again.returncode == 0 and "Nothing to grade" in again.stdout
    assert gradescope_lessons(out, "ann") == [1]


def test_without_manual_release_everything_leaves(lesson_sources, tmp_path):
    _, out, done = graded(lesson_sources, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert canvas_lessons(lesson_sources, out, tmp_path)[0] == ["01", "03"]


def test_bad_releases_are_refused_plainly(lesson_sources, tmp_path):
    _, out, done = graded(lesson_sources, tmp_path / "a", "sometimes")
    assert done.returncode == 2 and 'release must be "auto" or "manual"' in done.stdout + done.stderr
    _, out, done = graded(lesson_sources, tmp_path / "b", "manual")
    for args, said in ((["99"], "99"), (["02"], "never graded")):
        refused = grader(lesson_sources, "release", *args, "--out", str(out))
        assert refused.returncode == 2 and said in refused.stdout + refused.stderr
        assert "Traceback" not in refused.stderr
    missing = grader(lesson_sources, "release", "01", "--out", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
