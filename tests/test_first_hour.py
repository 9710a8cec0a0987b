"""A learner's first hour in the terminal: the first `make check`, the commands messages suggest,
`make help`, the walkthrough's text, Watch out once, untouched stubs, and the backups' messages."""
import io
import os
import re
import signal
import subprocess
import sys

from hypothesis import example, given, settings, strategies as st
from rich.console import Console

from conftest import GOOD_SOFTMAX, ROOT, grader, typed
from grader.learner import backups, walkthrough
from grader.learner.prose import SYMBOLS, TEXT, plain_math, print_markdown, tex_text
from grader.lessons import build, roadmap

ROADMAP = roadmap.load(ROOT)
LESSONS = build.lessons(ROADMAP)
WRONG_SOFTMAX = "import numpy as np\n\ndef softmax(x, axis=-1):\n    return np.exp(x)\n"
COMMAND = re.compile(r"`((?:make|grader|\.venv/bin/grader|python|jupyter)(?: [^`]*)?)`")


def exercise(root, lesson_id):
    return root / "exercises" / lesson_id / "solution.py"


def terminal(width=80):
    """A console as the `grader` command's (soft wrap on), writing to a string."""
    out = io.StringIO()
    return Console(file=out, width=width, highlight=False, soft_wrap=True), out


# 6. The first check of a fresh workbook.

def test_the_first_make_check_exits_0_and_names_where_to_begin(workbook):
    first = typed(workbook, "make check")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "No lesson is started yet" in first.stdout
    assert "Next: lesson 01, A stable softmax: edit exercises/01-softmax/solution.py" in first.stdout
    assert "Error" not in first.stderr
    exercise(workbook, "01-softmax").write_text(WRONG_SOFTMAX)
    failing = typed(workbook, "make check")
    assert failing.returncode != 0 and "passed" in failing.stdout
    assert grader(workbook, "check").returncode == 1
    exercise(workbook, "01-softmax").write_text(GOOD_SOFTMAX)
    assert typed(workbook, "make check").returncode == 0


# 7. Every command a message suggests works as typed; `make help` puts learners first.

def suggested(text):
    return COMMAND.findall(text)


def test_every_command_a_message_suggests_works_as_typed(workbook):
    said = []

    def run(command):
        result = typed(workbook, command)
        said.append(result.stdout + result.stderr)
        return result

    run("make status")
    run("make check L=01")                        # the stub
    exercise(workbook, "01-softmax").write_text(WRONG_SOFTMAX)
    run("make check L=01")
    for _ in range(4):
        run("make hint L=01")
    run("make check L=01")                        # every hint seen
    run("make reset L=01")
    run("make backups L=01")
    run("make restore L=01 V=9")
    run("make restore L=01")
    exercise(workbook, "01-softmax").write_text(GOOD_SOFTMAX)
    run("make check")
    run("make solution L=02")
    run("make check L=sofmax")
    commands = {c for text in said for c in suggested(text)}
    assert {"make solution L=01", "make backups L=01", "make hint L=01 SEEN=1"} <= commands
    for command in sorted(commands):
        if command.split()[:2] in (["make", "watch"], ["make", "lab"]):
            continue                                   # they run until stopped
        line = command.replace("V=N", "V=1")
        result = typed(workbook, line)
        out = result.stdout + result.stderr
        assert result.returncode != 127 and "command not found" not in out, command
        assert "No rule to make target" not in out and "Usage:" not in out, command
        assert "Traceback" not in out, command


def test_make_help_lists_learner_targets_first_then_instructors_and_authors():
    shown = subprocess.run(["make", "help"], cwd=ROOT, capture_output=True, text=True).stdout
    sections = re.split(r"^(For [a-z ]+):$", shown, flags=re.M)[1:]
    groups = dict(zip(sections[::2], sections[1::2]))
    assert list(groups) == ["For learners", "For instructors", "For lesson authors"]
    targets = {g: re.findall(r"^  make (\S+)", body, re.M) for g, body in groups.items()}
    assert {"check", "status", "hint", "watch", "solution", "reset", "backups", "restore",
            "lab"} <= set(targets["For learners"])
    assert {"grade", "report"} <= set(targets["For instructors"])
    assert {"build", "verify", "test"} <= set(targets["For lesson authors"])
    listed = [t for ts in targets.values() for t in ts]
    declared = re.findall(r"^([a-z]+):.*## ", (ROOT / "Makefile").read_text(), re.M)
    assert sorted(listed) == sorted(declared)


# 8 and 9. The walkthrough wraps and never cuts; math reads as plain text.

def words(text):
    return set(re.findall(r"\w+", text))


def test_the_walkthrough_wraps_long_lines_never_cuts_and_shows_math_as_text():
    for lesson in LESSONS:
        console, out = terminal(width=60)
        walkthrough.solution(console, lesson, passed=True)
        shown = out.getvalue()
        source = lesson.prose.sections["Solution"] + lesson.prose.sections["Watch out"]
        assert words(plain_math(source)) - {"python"} <= words(shown), lesson.id
        assert not re.search(r"\\[A-Za-z]+|\$", shown), lesson.id


def test_hints_and_watch_out_show_math_as_text(workbook, run_grader):
    lesson = next(l for l in LESSONS if l.id.startswith("18"))
    console, out = terminal()
    walkthrough.watch_out(console, lesson)
    assert "k ≤ V" in out.getvalue() and not re.search(r"\\[A-Za-z]+|\$", out.getvalue())
    for lesson in LESSONS:
        for _, body in lesson.prose.hints:
            assert not re.search(r"\\[A-Za-z]+", plain_math(body)), lesson.id
    shown = run_grader(workbook, "hint", "18").stdout
    assert "$" not in shown and "\\" not in shown


def test_the_solution_command_wraps_in_a_pipe(workbook):
    exercise(workbook, "18-sampling").write_text(
        (ROOT / "solutions" / "18-sampling" / "solution.py").read_text())
    assert grader(workbook, "check", "18").returncode == 0
    result = typed(workbook, "COLUMNS=50 make solution L=18 | cat")
    assert result.returncode == 0
    lesson = next(l for l in LESSONS if l.id.startswith("18"))
    source = lesson.prose.sections["Solution"] + lesson.prose.sections["Watch out"]
    assert words(plain_math(source)) - {"python"} <= words(result.stdout)
    assert max(len(line) for line in result.stdout.splitlines()) <= 50


ARGS = sorted(TEXT) + ["frac", "sqrt", "hat", "pmod", "begin", "end", "left", "right"]
PIECES = st.one_of(st.sampled_from([f"\\{n}" for n in list(SYMBOLS) + ARGS]),
                   st.sampled_from(list("{}^_&~ ab1.-+()[]")), st.text("xyz019 ", max_size=3))


@given(st.lists(PIECES, max_size=30))
@example(["\\sqrt", "[", "\\le"])      # a root index is TeX too
def test_any_tex_becomes_text_without_commands(pieces):
    text = tex_text("".join(pieces))
    assert not re.search(r"\\[A-Za-z]", text)


@settings(deadline=None)
@given(st.lists(st.text("abcdefghij", min_size=1, max_size=12), min_size=1, max_size=60),
       st.integers(20, 100), st.booleans())
def test_printed_prose_keeps_every_word_at_any_width(ws, width, fenced):
    body = " ".join(ws)
    text = f"Some prose. {body}\n\n```python\nx = '{body}'\n```\n" if fenced else body
    console, out = terminal(width)
    print_markdown(console, text)
    got = " ".join(out.getvalue().split())
    if not fenced:
        assert got == " ".join(ws)
    assert words(text) <= words(out.getvalue()) | {"python"}


# 10. Watch out once: after the check that first passes, and on `make solution`.

def test_watch_out_is_shown_after_the_first_pass_only(workbook, run_grader):
    exercise(workbook, "01-softmax").write_text(GOOD_SOFTMAX)
    first = run_grader(workbook, "check", "01")
    assert first.returncode == 0 and "Watch out" in first.stdout
    exercise(workbook, "02-attention").write_text(
        (ROOT / "solutions" / "02-attention" / "solution.py").read_text())
    again = run_grader(workbook, "check")
    assert again.returncode == 0
    assert again.stdout.count("Watch out (the traps") == 1          # lesson 02's, the first time
    assert "make solution L=01" in again.stdout
    third = run_grader(workbook, "check")
    assert "Watch out (the traps" not in third.stdout
    assert "Watch out" in run_grader(workbook, "solution", "01").stdout


# 11. An untouched stub stays "not started".

def status_of(root, number):
    line = next(l for l in grader(root, "status").stdout.splitlines()
                if l.strip().startswith(f"{number} "))
    return line.split("  ")[-1].strip() if "  " in line else line


def test_an_untouched_stub_stays_not_started_after_check_and_watch(workbook):
    assert grader(workbook, "check", "03").returncode == 1
    assert "not started" in status_of(workbook, "03")
    env = {**os.environ, "WORKBOOK_ROOT": str(workbook), "COLUMNS": "200"}
    watch = subprocess.Popen([sys.executable, "-m", "grader", "watch", "--interval", "0.1"],
                             cwd=workbook, env=env, stdout=subprocess.PIPE, text=True)
    try:
        for line in watch.stdout:
            if "watching exercises/01-softmax/solution.py" in line:
                break
    finally:
        watch.send_signal(signal.SIGINT)
        watch.wait(60)
    assert "not started" in status_of(workbook, "01")
    exercise(workbook, "03-causal-mask").write_text(
        exercise(workbook, "03-causal-mask").read_text() + "# mine\n")
    grader(workbook, "check", "03")
    assert "failing" in status_of(workbook, "03")


# 12. Plain sentences in the backups' messages; a version that is no number is named.

def test_backup_messages_are_plain_sentences(workbook):
    none = typed(workbook, "make restore L=01")
    assert none.returncode != 0
    assert "Lesson 01 has no saved versions yet. `make reset L=01` saves your file" in none.stdout
    stub = typed(workbook, "make reset L=01").stdout
    assert "Your exercises/01-softmax/solution.py was still the untouched stub" in stub
    exercise(workbook, "01-softmax").write_text(GOOD_SOFTMAX)
    typed(workbook, "make reset L=01")
    missing = typed(workbook, "make restore L=01 V=7")
    assert "Lesson 01 has no version 7. The saved one is version 1;" in missing.stdout
    for bad in ("abc", "0", "-1", "1.5", "2 3"):
        result = typed(workbook, f"make restore L=01 V='{bad}'")
        assert result.returncode != 0 and f"V={bad} is not a version number" in result.stdout
        assert "valid integer" not in result.stdout + result.stderr
    assert typed(workbook, "make restore L=01 V=1").returncode == 0
    assert exercise(workbook, "01-softmax").read_text() == GOOD_SOFTMAX


@given(st.text(max_size=12))
def test_a_version_is_a_positive_number_or_a_clear_message(text):
    if text.strip().isascii() and text.strip().isdigit() and int(text) > 0:
        assert backups.version_number(text, "01-softmax") == int(text)
        return
    try:
        backups.version_number(text, "01-softmax")
    except ValueError as e:
        assert str(e).startswith(f"V={text.strip()} is not a version number.")
        assert "`make backups L=01`" in str(e)
    else:
        raise AssertionError(f"{text!r} was taken as a version")


def test_numbered_versions_are_counted_in_words():
    assert backups.counted([3]) == "version 3"
    assert backups.counted([1, 2]) == "versions 1 and 2"
    assert backups.counted([1, 2, 5]) == "versions 1, 2 and 5"
