"""The learner's commands, run as a learner runs them."""
import json
import shutil

import pytest

from conftest import GOOD_SOFTMAX, ROOT
from grader import files as files_module
from grader.learner import progress as progress_module
from grader.lessons import roadmap

LAST = f"{max(e.number for e in roadmap.load(ROOT).entries):02d}"     # the roadmap's last lesson


def test_fresh_status_shows_the_roadmap_and_the_next_lesson(workbook, run_grader):
    result = run_grader(workbook, "status")
    assert result.returncode == 0
    assert "Chapter 1: Scores to weights" in result.stdout
    assert "01 A stable softmax" in result.stdout and "not started" in result.stdout
    assert "22 One training step" in result.stdout and "coming soon" not in result.stdout
    assert "Next: lesson 01, A stable softmax" in result.stdout


def test_a_stub_fails_with_not_implemented_yet(workbook, run_grader):
    result = run_grader(workbook, "check", "01")
    assert result.returncode == 1
    assert "not implemented yet" in result.stdout and "Traceback" not in result.stdout + result.stderr


@pytest.mark.slow
def test_references_over_the_stubs_pass_every_lesson(workbook, run_grader):
    for folder in (workbook / "solutions").iterdir():
        if (folder / "solution.py").is_file():
            shutil.copy(folder / "solution.py", workbook / "exercises" / folder.name / "solution.py")
    result = run_grader(workbook, "check")
    assert result.returncode == 0, result.stdout
    assert "Every lesson written so far is passed." in result.stdout
    status = run_grader(workbook, "status").stdout
    assert "not started" not in status and "passed" in status


def test_started_lessons_are_checked_by_default(workbook, run_grader):
    stub = workbook / "exercises" / "01-softmax" / "solution.py"
    stub.write_text(stub.read_text().replace(
        '    # YOUR CODE HERE\n    raise NotImplementedError("not implemented yet")',
        "    import numpy as np\n    e = np.exp(x)\n    return e / e.sum(axis=axis, keepdims=True)"))
    result = run_grader(workbook, "check")
    assert result.returncode == 1
    assert "Lesson 01" in result.stdout and "Why:" in result.stdout and "overflows" in result.stdout
    record = json.loads((workbook / ".workbook" / "progress.json").read_text())["01-softmax"]
    assert record["passed"] is False and 0 < record["score"] < 1
    assert "failing" in run_grader(workbook, "status").stdout


@pytest.mark.parametrize("name", ["1", "01", "softmax", "01-softmax", "exercises/01-softmax/"])
def test_lessons_are_named_by_number_or_slug(workbook, run_grader, name):
    result = run_grader(workbook, "check", name, "--json")
    assert json.loads(result.stdout)["lesson"] == "01-softmax"


@pytest.mark.parametrize("args, words", [
    (("check", "sofmax"), "There is no lesson named 'sofmax'. Did you mean softmax?"),
    (("hint", "99"), "There is no lesson 99: lessons are numbered 01 to " + LAST),
    (("hint", "011"), "There is no lesson 011: lessons are numbered 01 to " + LAST),
    (("check", "--", "-1"), "There is no lesson -1: lessons are numbered 01 to " + LAST),
    (("check", "01", "02", "--file", "x.py"), "--file grades one lesson"),
    (("frobnicate",), "No such command"),
])
def test_bad_input_gets_a_clear_message(workbook, run_grader, args, words):
    result = run_grader(workbook, *args)
    assert result.returncode == 2
    assert words in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_a_lesson_without_its_source_is_coming_soon(workbook, run_grader):
    shutil.rmtree(workbook / "solutions" / "22-train-step")
    status = run_grader(workbook, "status")
    assert "22 One training step" in status.stdout and "coming soon" in status.stdout
    result = run_grader(workbook, "check", "22")
    assert result.returncode == 2 and "is coming soon" in result.stdout + result.stderr


def test_check_file_json(workbook, run_grader, tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text("def softmax(x, axis=-1)\n")
    result = run_grader(workbook, "check", "01", "--file", str(mine), "--json")
    data = json.loads(result.stdout)
    assert result.returncode == 1 and data["error"].startswith("SyntaxError") and data["score"] == 0
    assert not (workbook / ".workbook" / "progress.json").exists()  # another file: nothing recorded


def test_hints_reveal_one_tier_per_call(workbook, run_grader):
    first = run_grader(workbook, "hint", "01").stdout
    assert "Hint 1 of 3: Where to start" in first and "Hint 2" not in first
    second = run_grader(workbook, "hint", "01").stdout
    assert "Hint 2 of 3: The key step" in second and "Hint 3" not in second
    assert "hints 2/3" in run_grader(workbook, "status").stdout
    seen = run_grader(workbook, "hint", "01", "--seen").stdout
    assert "Hint 2 of 3" in seen and "Hint 3" not in seen
    run_grader(workbook, "hint", "01")
    last = run_grader(workbook, "hint", "01").stdout
    assert "Hint 3 of 3: The outline" in last and "last hint" in last
    assert json.loads((workbook / ".workbook" / "progress.json").read_text())["01-softmax"]["hints"] == 3


def test_failing_check_points_at_the_hint_that_addresses_it(workbook, run_grader):
    stub = workbook / "exercises" / "01-softmax" / "solution.py"
    stub.write_text("import numpy as np\ndef softmax(x, axis=-1):\n    e = np.exp(x)\n"
                    "    return e / e.sum(axis=axis, keepdims=True)\n")
    assert "reveals hint 1: Where to start (it addresses this)" in run_grader(workbook, "check", "01").stdout
    run_grader(workbook, "hint", "01")
    assert "Hint 1 (Where to start) addresses this; you have seen it" in run_grader(workbook, "check", "01").stdout


def test_reset_restores_the_stub_and_keeps_a_backup(workbook, run_grader):
    stub = workbook / "exercises" / "01-softmax" / "solution.py"
    original = stub.read_text()
    stub.write_text("# my work\n")
    result = run_grader(workbook, "reset", "softmax")
    assert result.returncode == 0 and "saved as .workbook/backup/01-softmax/1.py" in result.stdout
    assert stub.read_text() == original
    assert (workbook / ".workbook" / "backup" / "01-softmax" / "1.py").read_text() == "# my work\n"


def test_reset_twice_never_loses_the_solution(workbook, run_grader):
    """Reset, reset again, a new attempt, reset: every version is kept, none overwritten."""
    stub = workbook / "exercises" / "01-softmax" / "solution.py"
    backup = workbook / ".workbook" / "backup" / "01-softmax"
    stub.write_text(GOOD_SOFTMAX)
    assert "saved as .workbook/backup/01-softmax/1.py" in run_grader(workbook, "reset", "01").stdout
    again = run_grader(workbook, "reset", "01").stdout
    assert "was still the untouched stub, so no version of it was saved" in again
    assert "saved as" not in again
    stub.write_text("# second attempt\n")
    run_grader(workbook, "reset", "01")
    stub.write_text(GOOD_SOFTMAX)
    assert "already saved as .workbook/backup/01-softmax/1.py" in run_grader(workbook, "reset", "01").stdout
    assert sorted(p.name for p in backup.iterdir()) == ["1.py", "2.py"]
    assert (backup / "1.py").read_text() == GOOD_SOFTMAX
    listed = run_grader(workbook, "backups", "01").stdout
    assert "  1  saved" in listed and "  2  saved" in listed and "make restore L=01 V=N" in listed
    restored = run_grader(workbook, "restore", "01", "1")
    assert restored.returncode == 0 and "Restored version 1" in restored.stdout
    assert stub.read_text() == GOOD_SOFTMAX
    assert run_grader(workbook, "check", "01").returncode == 0
    missing = run_grader(workbook, "restore", "01", "7")
    assert missing.returncode == 2
    assert "Lesson 01 has no version 7. The saved ones are versions 1 and 2" in missing.stdout


def test_a_backup_from_before_numbering_is_kept_as_version_1(workbook, run_grader):
    legacy = workbook / ".workbook" / "backup" / "01-softmax.py"
    legacy.parent.mkdir(parents=True)
    legacy.write_text("# old backup\n")
    (workbook / "exercises" / "01-softmax" / "solution.py").write_text("# newer\n")
    assert "saved as .workbook/backup/01-softmax/2.py" in run_grader(workbook, "reset", "01").stdout
    assert (workbook / ".workbook" / "backup" / "01-softmax" / "1.py").read_text() == "# old backup\n"


def test_build_never_overwrites_a_changed_stub(workbook, run_grader):
    stub = workbook / "exercises" / "01-softmax" / "solution.py"
    stub.write_text("# my work\n")
    result = run_grader(workbook, "build")
    assert "kept: you changed it" in result.stdout and stub.read_text() == "# my work\n"
    assert run_grader(workbook, "build", "--check").returncode == 0


def test_build_check_reports_drift(workbook, run_grader):
    lesson_md = workbook / "solutions" / "01-softmax" / "lesson.md"
    lesson_md.write_text(lesson_md.read_text().replace("Write `softmax", "Now write `softmax"))
    result = run_grader(workbook, "build", "--check")
    assert result.returncode == 1 and "exercises/01-softmax/README.md" in result.stdout


def test_damaged_progress_file_is_kept_aside_and_progress_starts_afresh(workbook, run_grader):
    path = workbook / ".workbook" / "progress.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{half a file")
    result = run_grader(workbook, "hint", "01")
    assert result.returncode == 0 and "Hint 1 of 3" in result.stdout
    assert "was damaged, so your progress starts afresh" in result.stderr
    kept = list(path.parent.glob("progress.damaged-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == "{half a file"
    assert json.loads(path.read_text())["01-softmax"]["hints"] == 1
    assert "damaged" not in run_grader(workbook, "status").stderr


def test_progress_survives_an_interrupted_write(tmp_path, monkeypatch):
    saved = progress_module.Progress(tmp_path)
    saved.update("01-softmax", hints=2)

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files_module.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        progress_module.Progress(tmp_path).update("01-softmax", hints=3)
    assert progress_module.Progress(tmp_path).lesson("01-softmax") == {"hints": 2}
    assert [p.name for p in (tmp_path / ".workbook").iterdir()] == ["progress.json"]


def test_pointer_names_a_later_hint_that_addresses_the_mistake(workbook, run_grader):
    (workbook / "exercises" / "01-softmax" / "solution.py").write_text(
        "import numpy as np\ndef softmax(x, axis=-1):\n    e = np.exp(x - np.max(x))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n")
    out = run_grader(workbook, "check", "01").stdout
    assert "Hint 2 (The key step) addresses this" in out and "starting with hint 1" in out
