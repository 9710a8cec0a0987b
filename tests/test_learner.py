"""The learner's side as a newcomer meets it: where a time-out hung, what the code printed, paths and
commands they can use, exit status and state they can trust, rules that match the prose."""
import json
import shutil
import signal
import subprocess
import sys
import textwrap
import time
import types

import pytest
from click.testing import CliRunner
from rich.console import Console

from conftest import FAST, GOOD_SOFTMAX, ROOT
from grader import cli
from grader.checkserver import client
from grader.judge import grade as grade_module
from grader.judge.grade import grade_file
from grader.learner import report
from grader.lessons import lesson, pointers, roadmap
from grader.runner import run


def grade(pool, lesson_, tmp_path, source, limits=FAST):
    path = tmp_path / "solution.py"
    path.write_text(textwrap.dedent(source))
    return grade_file(lesson_, path, pool, limits)


def shown(result, revealed=0):
    console = Console(record=True, width=200, highlight=False)
    report.render(console, result, revealed)
    return console.export_text()


def write(workbook, lesson_id, source):
    (workbook / "exercises" / lesson_id / "solution.py").write_text(textwrap.dedent(source))


# 3. A time-out says where the code was; repeated failures are told once.

LOOPING = GOOD_SOFTMAX.replace("    e = np.exp", "    if x.ndim > 1:\n        spin()\n    e = np.exp") + \
    "\n\ndef spin():\n    while True:\n        pass\n"


def test_a_time_out_says_once_where_the_code_was(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, LOOPING)
    timed_out = [r for r in result.cases if r.outcome.status == "timeout"]
    assert len(timed_out) == 3
    assert timed_out[0].outcome.where[-1] == "line 11, in spin: while True:"
    text = shown(result)
    assert text.count("your code was at: line 11, in spin: while True:") == 1
    assert "✗ 3 cases timed out: it took longer than 2 s" in text
    assert text.count("not run") == 1 and "3 earlier cases timed out" in text
    assert "addresses this" not in text
    assert len(text.splitlines()) < 25


def test_an_endless_loop_at_import_says_where(pool, softmax_lesson, tmp_path):
    limits = run.Limits(case_seconds=2, import_seconds=2, job_seconds=20)
    result = grade(pool, softmax_lesson, tmp_path, "x = 0\nwhile True:\n    x += 1\n" + GOOD_SOFTMAX, limits)
    assert "longer than 2 s" in result.error and "your code was at line 2, in <module>" in result.error


def test_the_same_error_in_many_cases_is_told_once(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, GOOD_SOFTMAX.replace(
        "    e = np.exp", "    if x.ndim > 1:\n        raise ValueError('rows are hard')\n    e = np.exp"))
    text = shown(result)
    assert text.count("raised ValueError: rows are hard (line 5)") == 1
    assert "✗ the same in" in text and "cases: " in text


# 4. What the learner printed: shown for the first case, counted in lines, cut honestly.

def test_output_of_the_first_case_is_shown_even_when_it_passes(pool, softmax_lesson, tmp_path):
    source = GOOD_SOFTMAX.replace("    e = np.exp", "    for i in range(30):\n        print('row', i)\n"
                                  "    e = np.exp")
    result = grade(pool, softmax_lesson, tmp_path, source)
    assert result.passed
    text = shown(result)
    assert "your code printed during example 1:" in text and "| row 0" in text
    assert "| row 11" in text and "| row 12" not in text and "18 more lines not shown" in text


def test_a_print_flood_is_counted_and_said_to_be_cut(pool, softmax_lesson, tmp_path):
    source = GOOD_SOFTMAX.replace("    e = np.exp", "    print('x' * 99_999)\n    e = np.exp")
    text = shown(grade(pool, softmax_lesson, tmp_path, source))
    assert "it printed 100,000 characters; the grader keeps the first 16,000" in text


def test_what_a_timed_out_case_printed_is_shown(pool, softmax_lesson, tmp_path):
    source = LOOPING.replace("def spin():\n", "def spin():\n    print('about to spin')\n")
    text = shown(grade(pool, softmax_lesson, tmp_path, source))
    assert "| about to spin" in text


# 5. Paths and commands a learner can use.

def test_warnings_name_the_learners_file_not_the_graders_copy(workbook, run_grader):
    write(workbook, "01-softmax", "import warnings\n" + GOOD_SOFTMAX.replace(
        "    e = np.exp", "    warnings.warn('careful')\n    e = np.exp"))
    out = run_grader(workbook, "check", "01").stdout
    assert "exercises/01-softmax/solution.py:5: UserWarning: careful" in out
    assert "/job-" not in out


def test_messages_name_commands_a_learner_has(workbook, run_grader):
    write(workbook, "01-softmax", "import numpy as np\ndef softmax(x, axis=-1):\n    return np.exp(x)\n")
    for args in (("check", "01"), ("hint", "01"), ("hint", "01", "--seen"), ("check", "sofmax"),
                 ("hint", "02"), ("hint", "02"), ("hint", "02"), ("check", "02")):
        result = run_grader(workbook, *args)
        assert "`grader " not in result.stdout + result.stderr, args
    (workbook / "exercises" / "01-softmax" / "README.md").write_text("my notes\n")
    build = run_grader(workbook, "build").stdout
    assert "README.md: kept: you changed it (delete it and run `make build`" in build
    assert "reset" not in build.split("README.md")[1].splitlines()[0]


def test_a_deleted_stub_points_at_make_reset(workbook, run_grader):
    (workbook / "exercises" / "01-softmax" / "solution.py").unlink()
    out = run_grader(workbook, "check", "01").stdout
    assert "there is no file at exercises/01-softmax/solution.py" in out
    assert "`make reset L=01` brings back the lesson's stub" in out


def test_a_syntax_error_names_its_line_once_and_no_case_count(workbook, run_grader):
    write(workbook, "01-softmax", "import numpy as np\n\ndef softmax(x, axis=-1)\n    return x\n")
    out = run_grader(workbook, "check", "01").stdout
    assert "could not be graded" in out and "0/0" not in out
    assert out.count("line 3") == 1 and "Hint" not in out


@pytest.mark.parametrize("source", [
    "import numpy_that_does_not_exist\n",                                 # a missing module
    "def softmax(x, axis=-1)\n",                                          # a syntax error
])
def test_no_hint_pointer_for_a_file_that_cannot_be_graded(workbook, run_grader, source):
    write(workbook, "02-attention", source)
    out = run_grader(workbook, "check", "02").stdout
    assert "addresses this" not in out and "make hint" not in out


def test_an_untouched_stub_gets_no_pointer_about_the_maths(workbook, run_grader):
    out = run_grader(workbook, "check", "02").stdout
    assert "not implemented yet" in out and "addresses this" not in out


# 2. Hint pointers lead to the tier that addresses the mistake.

def test_lesson_02_pointers_name_the_right_tiers(workbook, run_grader):
    write(workbook, "02-attention", """\
        import numpy as np
        def softmax(x, axis=-1):
            e = np.exp(x - np.max(x, axis=axis, keepdims=True))
            return e / np.sum(e, axis=axis, keepdims=True)
        def attention(q, k, v, mask=None):
            scores = q @ k.T / np.sqrt(q.shape[-1])
            if mask is not None:
                scores = np.where(mask, scores, -np.inf)
            return softmax(scores, axis=-1) @ v
        """)
    out = run_grader(workbook, "check", "02").stdout
    assert "`k.T`" in out and "reveals hint 1: Where to start (it addresses this)" in out


def test_verify_catches_a_pointer_to_a_tier_that_does_not_address_the_mistake(workbook, run_grader):
    mistakes = workbook / "solutions" / "02-attention" / "mistakes.py"
    mistakes.write_text(mistakes.read_text().replace('@mistake("transpose-all-axes", hint=1',
                                                     '@mistake("transpose-all-axes", hint=2'))
    result = run_grader(workbook, "verify", "02", "--no-mutants")
    assert result.returncode == 1
    assert ("mistake 'transpose-all-axes' points at hint 2 (The key step), but mentions none of its "
            "topics") in result.stdout and "it mentions those of hint 1" in result.stdout


def test_every_pointer_of_every_lesson_is_about_its_tier():
    for entry in roadmap.load(ROOT).entries:
        if roadmap.load(ROOT).available(entry):
            assert pointers.check(lesson.load(roadmap.load(ROOT), entry.id)) == [], entry.id


def test_pointers_need_declared_topics_that_the_tier_mentions():
    tiers = (("Where to start", "Swap the axes."), ("The key step", "Scale by sqrt(d)."),
             ("The outline", "All of it."))
    fake = types.SimpleNamespace(
        prose=types.SimpleNamespace(hints=tiers), cases=[],
        mistakes=[(types.SimpleNamespace(id="m", hint=1, message="you forgot sqrt(d)"), None)],
        spec=types.SimpleNamespace(hint_topics=()))
    assert "SPEC needs hint_topics" in pointers.check(fake)[0]
    fake.spec.hint_topics = (("swap",), ("sqrt", "mask"), ("all",))
    assert pointers.check(fake) == [
        "hint 2 (The key step) never mentions its topic(s) mask",
        "mistake 'm' points at hint 1 (Where to start), but mentions none of its topics (swap); "
        "it mentions those of hint 2"]


# 6. Exit status and state.

def test_check_exits_0_when_every_checked_lesson_passes_and_says_what_is_next(workbook, run_grader):
    write(workbook, "01-softmax", GOOD_SOFTMAX)
    result = run_grader(workbook, "check")
    assert result.returncode == 0
    assert "Every lesson checked passes (1 lesson)." in result.stdout
    assert "Next: lesson 02, Scaled dot-product attention" in result.stdout


def test_status_shows_a_file_changed_since_its_last_check(workbook, run_grader):
    write(workbook, "01-softmax", GOOD_SOFTMAX)
    run_grader(workbook, "check", "01")
    assert "passed" in run_grader(workbook, "status").stdout.splitlines()[3]
    write(workbook, "01-softmax", "broken(\n")
    line = run_grader(workbook, "status").stdout.splitlines()[3]
    assert "passed at the last check; changed since" in line


def test_lessons_separated_by_commas(workbook, run_grader):
    write(workbook, "01-softmax", GOOD_SOFTMAX)
    result = run_grader(workbook, "check", "01,02", "--json")
    lessons = [json.loads(line)["lesson"] for line in result.stdout.splitlines()]
    assert lessons == ["01-softmax", "02-attention"] and result.returncode == 1


@pytest.mark.parametrize("idle", ["0", "120"])     # checked in process; on the warm check server
def test_ctrl_c_in_check_says_what_was_kept(workbook, tmp_path, servers, idle):
    servers.append(workbook)
    spinning = tmp_path / "spinning"
    write(workbook, "01-softmax", LOOPING.replace(
        "def spin():\n", f"def spin():\n    open({str(spinning)!r}, 'w').close()\n"))
    env = {"WORKBOOK_ROOT": str(workbook), "PATH": "/usr/bin:/bin", "COLUMNS": "200",
           "WORKBOOK_CHECK_IDLE": idle}
    proc = subprocess.Popen([sys.executable, "-m", "grader", "check", "01"], cwd=workbook, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while not spinning.exists() and proc.poll() is None:   # the learner's code is in its loop
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "Interrupted; the lessons checked so far are recorded." in out + err
    assert "gradebook" not in out + err and "Traceback" not in out + err
    if idle != "0":         # the server ran that check, and goes on
        assert client.message_to(workbook, {"served": True})["served"] == 1


def test_make_check_works_from_inside_a_lesson_folder():
    result = subprocess.run(["make", "-n", "check"], cwd=ROOT / "exercises" / "01-softmax",
                            capture_output=True, text=True)
    assert result.returncode == 0 and "grader check -- 01" in result.stdout


# 7. A moved workbook: the virtual environment is set up again.

def test_a_moved_workbook_sets_its_venv_up_again(tmp_path):
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    shutil.copy(ROOT / "Makefile", tmp_path)
    for name in ("requirements.txt", "pyproject.toml"):
        (tmp_path / name).write_text("")
    (tmp_path / ".venv" / "bin" / "grader").write_text("#!/somewhere/else/.venv/bin/python\n")
    (tmp_path / ".venv" / ".installed").write_text("")
    result = subprocess.run(["make", "-n", "check"], cwd=tmp_path, capture_output=True, text=True)
    assert ".venv was set up for another folder" in result.stdout
    assert "pip install" in result.stdout and "-e ." in result.stdout
    (tmp_path / ".venv" / "bin" / "grader").write_text(f"#!{tmp_path}/.venv/bin/python\n")
    (tmp_path / ".venv" / ".installed").write_text("")
    again = subprocess.run(["make", "-n", "check"], cwd=tmp_path, capture_output=True, text=True)
    assert "another folder" not in again.stdout and "pip install" not in again.stdout


# 8. Rules that match the prose: a numpy lesson is numpy alone.

@pytest.mark.parametrize("source, rule", [
    ("import torch\ndef softmax(x, axis=-1):\n    return torch.softmax(torch.tensor(x), axis).numpy()\n",
     "numpy-only"),
    ("from scipy.special import softmax\n", "numpy-only"),
])
def test_numpy_lessons_allow_nothing_beyond_numpy(pool, softmax_lesson, tmp_path, source, rule):
    result = grade(pool, softmax_lesson, tmp_path, source)
    assert not result.passed and result.violations[0].rule == rule
    assert "this is a numpy lesson" in result.violations[0].message
    assert result.violations[0].line == 1


def test_numpy_lessons_allow_the_standard_library(pool, softmax_lesson, tmp_path):
    assert grade(pool, softmax_lesson, tmp_path, "import math, functools\n" + GOOD_SOFTMAX).passed


# JSON: one object whatever goes wrong inside the grader.

def test_check_json_reports_a_fault_of_the_grader_as_its_error(workbook, monkeypatch, tmp_path):
    def broken_judge(*args):
        raise RuntimeError("an injected fault")
    monkeypatch.setattr(grade_module, "judge", broken_judge)
    mine = tmp_path / "mine.py"
    mine.write_text(GOOD_SOFTMAX)
    result = CliRunner().invoke(cli.cli, ["--root", str(workbook), "check", "01", "--file", str(mine),
                                          "--json"])
    data = json.loads(result.output)
    assert result.exit_code == 1 and data["passed"] is False and data["lesson"] == "01-softmax"
    assert data["error"] == "the grader failed while grading this file: RuntimeError: an injected fault"


# 9. Small things.

def test_version_and_plurals(workbook, run_grader):
    assert run_grader(workbook, "--version").stdout.strip() == "grader 0.1.0"
    write(workbook, "01-softmax", GOOD_SOFTMAX)
    out = run_grader(workbook, "check").stdout
    assert "(1 lesson)" in out and "1 lessons" not in out


def test_coming_soon_lessons_are_named_when_the_roadmap_skips_them(workbook, run_grader):
    for lesson_id in ("11-embeddings", "12-gpt-forward", "13-lm-loss"):
        shutil.rmtree(workbook / "solutions" / lesson_id)
    for folder in (workbook / "solutions").iterdir():
        if (folder / "solution.py").is_file() and folder.name < "11":
            shutil.copy(folder / "solution.py", workbook / "exercises" / folder.name / "solution.py")
    out = run_grader(workbook, "check").stdout
    assert "Lessons 11-13 are coming soon (not written yet)" in out
    assert "Next: lesson 14, A LLaMA-style transformer block" in out


def test_make_help_lists_the_targets():
    result = subprocess.run(["make", "help"], cwd=ROOT, capture_output=True, text=True)
    for target in ("check", "hint", "reset", "backups", "restore", "grade", "setup"):
        assert f"make {target} " in result.stdout


def test_make_grade_passes_its_options():
    result = subprocess.run(["make", "-n", "grade", "SUBMISSIONS=class", "LESSONS=01,02",
                             "OUT=out", "JOBS=3"], cwd=ROOT, capture_output=True, text=True)
    assert "grade --lessons 01,02 --out out --jobs 3 -- class" in " ".join(
        result.stdout.replace("\\\n", " ").split())


# 10. The CPU-only PyTorch, by choice.

def test_setup_can_install_torch_from_another_index(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "requirements.txt", tmp_path)
    (tmp_path / "pyproject.toml").write_text("")
    cpu = subprocess.run(["make", "-n", "setup", "TORCH_INDEX=https://download.pytorch.org/whl/cpu"],
                         cwd=tmp_path, capture_output=True, text=True).stdout
    assert "--index-url https://download.pytorch.org/whl/cpu" in cpu
    assert "grep -E '^torch==' requirements.txt" in cpu
    default = subprocess.run(["make", "-n", "setup"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert "--index-url" not in default and "-r requirements.txt" in default
