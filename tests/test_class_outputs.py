"""What a class run writes, with learner-chosen text in it (folder names, file names, what their
code raised or printed): grades.csv holds no cell a spreadsheet would run, the Markdown of feedback
and of Gradescope's results.json makes no HTML, image, link or heading of it, and nothing that
reaches the instructor's terminal carries a control character."""
import csv
import itertools
import io
import json
import re

from hypothesis import given, settings, strategies as st
from markdown_it import MarkdownIt
from rich.console import Console
from rich.markdown import Markdown

from conftest import grader
from mixed_class import MISTAKE, put
from grader.classroom import exports, feedback, gradescope
from grader.classroom.view import ClassView, Current, LessonInfo

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
DIRECTION = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
FORMULA = ("=", "+", "-", "@", "\t", "\r")
HOSTILE = ["<img src=http://evil.example/p.png>", "![x](http://evil.example/p.png)",
           "<script>alert(1)</script>", "\n# Fake heading\n", "\n## Lesson 99 · passed\n",
           "[click](http://evil.example)", "\x1b]52;c;ZXZpbA==\x07", "\x1b[2J\x1b[H",
           "\x9b31m", "=HYPERLINK(\"http://evil.example\",\"x\")", "+cmd|' /C calc'!A0",
           "@SUM(1+1)", "-2+3", "\t=1", "`", "```", "<!--", "&lt;b&gt;", "*", "_", "|", "\\",
           "1. ", "> ", "---", "===", "\u202e", "http://evil.example", "www.evil.example",
           "a@evil.example"]
TEXT = st.lists(st.sampled_from(HOSTILE) | st.text(max_size=6), min_size=1, max_size=6).map(
    "".join)
MARK = "zqx"            # a word every hostile string carries, to find it in what is rendered


def view_of(name, texts):
    """A one-lesson class whose learner `name` has every learner-controlled field set from
    `texts` (each carrying MARK)."""
    t = itertools.cycle(texts)
    lesson = LessonInfo("01-softmax", 1, "A stable softmax", ["Where to start"])
    case_public = {"name": "example 1", "public": True, "passed": False, "verdict": next(t),
                   "probe": "", "shown": {"input": next(t), "expected": next(t), "got": next(t),
                                          "where": next(t), "printed": next(t)}}
    case_hidden = {"name": "hidden 1", "public": False, "passed": False, "verdict": next(t),
                   "probe": "a probe", "shown": {}}
    cur = Current("01-softmax", 0.5, False, 1, 2, next(t), next(t), 3, False, 1,
                  [{"rule": "loops", "line": 2, "message": next(t)}],
                  [{"mistake": "symptom:x", "message": next(t)}], "t", f"/class/{name}/{next(t)}",
                  [case_public, case_hidden])
    ungraded = [(name, "01-softmax", f"{name}/{next(t)}", next(t)), (name, None, next(t), next(t))]
    return ClassView([lesson], [name], {(name, "01-softmax"): cur}, ungraded)


def tokens(text):
    found = []
    for token in MarkdownIt("commonmark").parse(text):
        found.append(token)
        found += token.children or []
    return found


def inline_text(text):
    return "".join(t.content for t in tokens(text) if t.type in ("text", "code_inline",
                                                                 "code_block", "fence"))


def assert_inert(text, headings):
    kinds = [t.type for t in tokens(text)]
    assert not {"html_block", "html_inline", "image", "link_open"} & set(kinds), kinds
    assert kinds.count("heading_open") == headings
    assert not CONTROL.search(text.replace("\n", ""))


@settings(max_examples=60, deadline=None)
@given(TEXT, st.lists(TEXT, min_size=1, max_size=8))
def test_learner_text_makes_no_markup_in_feedback_or_results(name, texts):
    name = MARK + name
    texts = [MARK + t for t in texts]
    view = view_of(name, texts)
    md = feedback.markdown(view, name)
    assert_inert(md, headings=3)        # the learner's, the lesson's, the files not graded
    assert inline_text(md).count(MARK) >= len(texts) + 1
    data = gradescope.results(view, name)
    assert_inert(data["output"], headings=0)
    for test in data["tests"]:
        assert_inert(test["output"], headings=0)
    page = feedback.html_page(view, name)
    assert "<img" not in page and "<script" not in page and not CONTROL.search(
        page.replace("\n", ""))


@settings(max_examples=60, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=5, unique=True))
def test_no_grades_csv_cell_starts_a_formula(names):
    names = [n for n in names if n.strip()]
    lesson = LessonInfo("01-softmax", 1, "A stable softmax", [])
    view = ClassView([lesson], names, {}, [])
    text = exports.grades_csv(view)
    assert text.startswith("\ufeff")          # Excel reads it as UTF-8 only with the mark
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert len(rows) == len(names) + 1
    for row, name in zip(rows[1:], names):
        assert not row[0].startswith(FORMULA) and not CONTROL.search(row[0])
        assert row[0].lstrip("'") == CONTROL.sub("", name.replace("\t", " ").replace("\r", " ")
                                                 .replace("\n", " ")) or MARK not in name


@settings(max_examples=40, deadline=None)
@given(TEXT)
def test_the_terminal_gets_no_control_character_from_learner_text(text):
    from grader.classroom.escape import plain, terminal
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, color_system=None, width=200)
    console.print(terminal(text))
    console.print(Markdown(plain(feedback.markdown(view_of(text, [text]), text))))
    assert not CONTROL.search(out.getvalue().replace("\n", ""))


@given(TEXT | st.text())
def test_plain_text_keeps_what_is_printable_and_drops_the_rest(text):
    """Text that is printable as it stands comes back unchanged (the quick way); any other loses
    every control, direction and separator character, and keeps the rest."""
    from grader.classroom.escape import plain
    kept = plain(text, newlines=False)
    assert kept == text or not text.isprintable()
    assert not CONTROL.search(kept) and not DIRECTION.search(kept)
    assert plain(kept, newlines=False) == kept


def test_a_hostile_class_reaches_no_terminal_spreadsheet_or_page_as_markup(workbook, tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    formula = '=HYPERLINK(CONCAT("https:",A1),"open")'          # a folder name holds no slash
    ansi = "\x1b]52;c;ZXZpbA==\x07\x1b[2Jzed"
    raising = ("def softmax(x, axis=-1):\n    print('\\x1b]0;owned\\x07\\x1b[2J')\n"
               "    raise ValueError('<img src=http://evil.example/p.png>\\n# Fake\\n')\n")
    put(cls / formula / "01-softmax.py", raising)
    put(cls / ansi / "01-softmax.py", MISTAKE)      # a known mistake: the report names its learner
    put(cls / ansi / "\x1b[31mred.zip", "not a zip")
    done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(out),
                  "--no-sandbox")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout and "red.zip" in done.stdout
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        cells = [row[0] for row in csv.reader(f)]
    assert cells[1:] == ["zed", "'" + formula]       # sequences stripped, the formula quoted
    pages = [p.read_text() for p in (out / "feedback").glob("*.md")]
    assert len(pages) == 2
    for text in pages:
        assert_inert(text, headings=text.count("\n## ") + 1)      # only the page's own headings
    assert any("evil.example" in inline_text(text) for text in pages)      # shown, as text
    for results in (out / "gradescope").glob("*/results.json"):
        for test in json.loads(results.read_text())["tests"]:
            assert_inert(test["output"], headings=0)
    report = grader(workbook, "report", "--no-html", "--gradebook", str(out))
    assert report.returncode == 0 and "zed" in report.stdout and "\x1b" not in report.stdout, \
        report.stdout
    shown = grader(workbook, "feedback", ansi, "--out", str(out))
    assert shown.returncode == 0 and "\x1b" not in shown.stdout and "\x07" not in shown.stdout
