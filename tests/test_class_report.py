"""The demo class and `grader report`: the demo class grades to the scores and diagnoses below (so it
stays in sync with the lessons), and the class report drawn from its gradebook says what the
gradebook says, escapes what learners control, and needs no network to show."""
import hashlib
import json
import re
import shutil
import sqlite3
import subprocess
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT, grader
from grader.classroom.report import data as report_data, page as report_html
from grader.classroom.gradebook import Gradebook, connect
from grader.classroom.jobs import Graded, result_row
from grader.judge.grade import Result
from grader.lessons import lesson, roadmap

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("demo_class")]   # graded once
DEMO = ROOT / "grader" / "classroom" / "demo_class"
LESSONS = "01,02,03,05,09,10"
LESSON_CASES = {n: len(lesson.load(roadmap.load(ROOT), n).cases) for n in LESSONS.split(",")}
# learner -> lesson number -> (cases passed, or "all"; the first diagnosis, or what went wrong
# instead); every result's total is its lesson's case count (0 for a file that does not parse)
EXPECTED = {
    "ada": {n: ("all", None) for n in ("01", "02", "03", "05", "09", "10")},   # right, own way
    "ben": {"01": ("all", None), "02": ("all", None),                          # an exercises/ tree
            "03": ("15", "square-mask-from-queries"), "05": ("1", "unbiased-variance"),
            "09": ("0", "stub")},
    "chloe": {"01": ("13", "no-max-shift"), "02": ("12", "mask-after-softmax"),
              "05": ("5", "wrong-axis")},
    "dev": {"01": ("all", None), "02": ("3", "no-scale")},                # notebooks
    "emma": {"01": ("all", None), "02": ("0", "error"), "03": ("all", None)},  # a syntax error
    "farid": {"01": ("13", "no-max-shift"), "05": ("16", "crash"), "10": ("all", None)},
    "gwen": {"01": ("all", None), "02": ("12", "mask-after-softmax"), "03": ("0", "timeout")},
    "hugo": {"01": ("2", "rule"), "02": ("1", "rule")},  # runs text it read as code: refused
    "ines": {"01": ("all", None)},
    "jon": {"01": ("all", None), "09": ("12", "float32"), "10": ("5", "no-causal-mask")},
    "kai": {},                                                # submitted nothing at all
    "lena": {"02": ("11", "symptom:only-sets-mask"), "03": ("11", "top-left-alignment"),
             "05": ("all", None)},                                        # torch in lesson 02
    "mo": {"05": ("0", "symptom:float32"), "09": ("all", None)},
    "noor": {"01": ("13", "fixed-last-axis"), "03": ("0", "strict-lower-triangle"),
             "09": ("5", "inverted-mask"), "10": ("1", "relu-without-residual")},
    "omar": {n: ("all", None) for n in ("02", "03", "09", "10")},
    "pia": {"01": ("13", "no-max-shift"), "02": ("3", "no-scale"),
            "05": ("1", "unbiased-variance"), "10": ("2", "no-first-residual")},
}
MISTAKE = """import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
"""
HOSTILE_NAMES = ["<script>alert('name')", '"><img src=x onerror=alert(1)>', "a&amp;b"]
ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p", "a",
                "code", "table", "tr", "th", "td", "img", "section", "ul", "li", "details",
                "summary", "b", "i", "span", "div", "pre", "br"}


class Page(HTMLParser):
    """Every element of a page: its tag, attributes and text (nested text included)."""
    VOID = {"meta", "img", "br"}

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.open = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(element)
        if tag not in self.VOID:
            self.open.append(element)

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.open:
            element["text"] += data

    def having(self, attr, value=None):
        return [e for e in self.elements if attr in e["attrs"]
                and (value is None or e["attrs"][attr] == value)]


@pytest.fixture(scope="module")
def workbook(tmp_path_factory):
    root = tmp_path_factory.mktemp("report") / "workbook"
    shutil.copytree(ROOT / "solutions", root / "solutions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def demo(workbook, tmp_path_factory):
    """The demo class graded in the sandbox, as `make grade` grades it: the gradebook's folder."""
    out = tmp_path_factory.mktemp("demo") / "grading"
    done = grader(workbook, "grade", str(DEMO), "--lessons", LESSONS, "--out", str(out),
                  "--jobs", "2", timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def outcome(db, learner, lesson):
    """(cases passed, what the test table names) of a learner x lesson's current result."""
    row = db.execute(
        "SELECT r.id, r.cases_passed, r.cases_total, r.passed, r.error, r.violations, r.diagnosis "
        "FROM current c JOIN results r ON r.id = c.result WHERE c.learner = ? AND c.lesson LIKE ?",
        (learner, f"{lesson}-%")).fetchone()
    if row is None:
        return None
    rid, passed, total, all_passed, error, violations, diagnosis = row
    statuses = {s for (s,) in db.execute("SELECT status FROM case_results WHERE result = ?", (rid,))}
    verdicts = {v for (v,) in db.execute("SELECT verdict FROM case_results WHERE result = ?", (rid,))}
    what = (json.loads(diagnosis)[0]["mistake"] if json.loads(diagnosis) else
            "error" if error else "rule" if json.loads(violations) else
            "timeout" if "timeout" in statuses else "crash" if "crash" in statuses else
            "stub" if verdicts == {"not implemented yet"} else None)
    assert total == (0 if what == "error" else LESSON_CASES[lesson]), (learner, lesson, total)
    return ("all" if all_passed else str(passed)), what


def test_the_demo_class_grades_as_expected(demo):
    db = sqlite3.connect(demo / "gradebook.sqlite")
    assert sorted(l for (l,) in db.execute("SELECT id FROM learners")) == sorted(EXPECTED)
    got = {learner: {n: outcome(db, learner, n) for n in LESSONS.split(",")
                     if outcome(db, learner, n) is not None} for learner in EXPECTED}
    assert got == EXPECTED
    missing = {(l, s.split("-")[0]) for l, s in db.execute(
        "SELECT learner, lesson FROM ungraded WHERE path IS NULL")}
    assert missing == {(l, n) for l in EXPECTED for n in LESSONS.split(",") if n not in EXPECTED[l]}


def test_the_report_says_what_the_gradebook_says(demo, workbook, tmp_path):
    book = demo / "gradebook.sqlite"
    before = hashlib.sha256(book.read_bytes()).hexdigest()
    out = tmp_path / "report.html"
    done = grader(workbook, "report", str(out), "--gradebook", str(demo))
    assert done.returncode == 0, done.stdout + done.stderr
    assert hashlib.sha256(book.read_bytes()).hexdigest() == before       # read, never written
    page = Page(out.read_text())
    db = sqlite3.connect(book)
    rows = {r["attrs"]["data-lesson"]: r["attrs"] for r in page.having("data-submitted")}
    assert len(rows) == 6
    for lesson, submitted, passed in db.execute(
            "SELECT c.lesson, COUNT(*), SUM(r.passed) FROM current c JOIN results r "
            "ON r.id = c.result GROUP BY c.lesson"):        # untouched stubs counted apart
        assert int(rows[lesson]["data-submitted"]) + int(rows[lesson]["data-stubs"]) == submitted
        assert int(rows[lesson]["data-passed"]) == passed
        assert float(rows[lesson]["data-pass-rate"]) == pytest.approx(
            passed / int(rows[lesson]["data-submitted"]), abs=1e-4)
    made = {}
    for lesson, diagnosis in db.execute("SELECT c.lesson, r.diagnosis FROM current c JOIN results "
                                        "r ON r.id = c.result"):
        for d in json.loads(diagnosis):
            made[lesson, d["mistake"]] = made.get((lesson, d["mistake"]), 0) + 1
    table = {(m["attrs"]["data-lesson"], m["attrs"]["data-mistake"]): int(m["attrs"]["data-learners"])
             for m in page.having("data-mistake") if m["tag"] == "tr"}
    assert table == made and table["01-softmax", "no-max-shift"] == 3
    assert table["05-layer-norm", "symptom:float32"] == 1
    listed = {m["attrs"]["data-mistake"]: m for m in page.having("data-mistake") if m["tag"] == "li"}
    assert "exponentiates the logits directly" in listed["no-max-shift"]["text"]   # its message
    assert "chloe, farid, pia" in listed["no-max-shift"]["text"]
    assert "likely cause" in listed["symptom:float32"]["text"]
    for lesson, in db.execute("SELECT id FROM lessons"):
        expected = sorted(l for (l,) in db.execute(
            "SELECT learner FROM ungraded WHERE lesson = ? AND path IS NULL", (lesson,)))
        shown = [p["text"].split(", ") for p in page.having("data-missing", lesson)]
        assert shown == ([expected] if expected else [])
    assert [b["text"] for b in page.having("data-learner") if b["tag"] == "b"] == ["kai"]
    problems = {(p["attrs"]["data-learner"], p["attrs"]["data-kind"]) for p in page.having("data-kind")}
    assert {("gwen", "timeout"), ("farid", "crash"), ("emma", "error"), ("lena", "rule"),
            ("hugo", "rule"), ("ben", "stub")} == problems
    assert rows["03-causal-mask"]["data-timeouts"] == "1" and rows["05-layer-norm"]["data-crashes"] == "1"
    assert "no-max-shift" in done.stdout and "kai" in done.stdout        # the terminal summary


def test_the_report_is_self_contained(demo, workbook, tmp_path):
    out = tmp_path / "report.html"
    assert grader(workbook, "report", str(out), "--gradebook", str(demo)).returncode == 0
    text = out.read_text()
    page = Page(text)
    images = [e for e in page.elements if e["tag"] == "img"]
    assert len(images) == 3 and all(i["attrs"]["src"].startswith("data:image/png;base64,")
                                    for i in images)
    assert {e["tag"] for e in page.elements} <= ALLOWED_TAGS
    assert all(a["attrs"]["href"].startswith("#") for a in page.having("href"))
    assert not re.search(r"https?://", text) and "<script" not in text.lower()


def test_make_grade_and_make_report_default_to_the_demo_class():
    def dry(*args):
        done = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.replace("\\\n", " ")
    assert re.search(r"grader grade --lessons 01,02,03,05,09,10 --out grading/demo .*-- "
                     r"grader/classroom/demo_class", dry("grade"))
    assert re.search(r"grader grade +--out grading .*-- cls", dry("grade", "SUBMISSIONS=cls"))
    assert "grader report --gradebook grading/demo" in dry("report")
    assert "grader report --gradebook grading" in dry("report", "OUT=grading")


def test_learner_names_and_error_text_are_escaped(workbook, tmp_path):
    cls = tmp_path / "class"
    for name in HOSTILE_NAMES:
        (cls / name / "01-softmax").mkdir(parents=True)
        (cls / name / "01-softmax" / "solution.py").write_text(MISTAKE)
    (cls / "quiet" / "01-softmax").mkdir(parents=True)
    (cls / "quiet" / "01-softmax" / "solution.py").write_text(
        "raise ValueError('</pre><script>alert(2)</script>')\n")
    (cls / "<b>idle").mkdir()
    out = tmp_path / "grading"
    done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox")
    assert done.returncode == 0, done.stdout + done.stderr
    done = grader(workbook, "report", "--gradebook", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    text = (out / "report.html").read_text()
    page = Page(text)
    assert {e["tag"] for e in page.elements} <= ALLOWED_TAGS - {"script"}
    assert "<script" not in text.lower() and "onerror" not in {a for e in page.elements
                                                                for a in e["attrs"]}
    mistake, = [m for m in page.having("data-mistake", "no-max-shift") if m["tag"] == "li"]
    for name in HOSTILE_NAMES:
        assert name in mistake["text"]
    error, = page.having("data-kind", "error")
    assert error["attrs"]["data-learner"] == "quiet"
    assert "</pre><script>alert(2)</script>" in error["text"]
    assert [b["attrs"]["data-learner"] for b in page.having("data-learner") if b["tag"] == "b"] \
        == ["<b>idle"]


names = st.lists(st.one_of(st.sampled_from(["<", ">", "&", '"', "'", "=", ";", "#", "/", " ", "`",
                                            "<script>", "&lt;", "<b>", "\n"]),
                          st.characters(blacklist_categories=("Cs", "Cc"))),
                 min_size=1, max_size=10).map("".join)


def rendered(learners, error):
    """The parts of the report that show learner names and error text, for one lesson."""
    lesson = report_data.LessonReport("01-softmax", 1, "A stable softmax", {l: 0.5 for l in learners},
                                      [], list(learners))
    lesson.mistakes = [report_data.Mistake("no-max-shift", list(learners), ["the message"])]
    lesson.failed_cases = [report_data.FailedCase("case", error, False, list(learners))]
    lesson.ran = len(learners)
    lesson.problems = [report_data.Problem(l, "error", error) for l in learners]
    report = report_data.ClassReport(list(learners), [lesson], {l: 0.5 for l in learners},
                                     list(learners))
    return Page("".join([report_html.summary_table(report), report_html.top_mistakes(report),
                         report_html.nothing_section(report), report_html.lesson_section(lesson)]))


@settings(max_examples=80, deadline=None)
@given(st.lists(names, min_size=1, max_size=4, unique=True), names)
def test_any_learner_name_or_error_text_is_shown_as_text(learners, error):
    """Whatever a learner's folder is called and whatever their code raised, the page shows it as
    text: the page has the very elements it has for plain names, and the text reads back."""
    page = rendered(learners, error)
    plain = rendered([f"n{i}" for i in range(len(learners))],
                     "\n".join("e" for _ in error.splitlines()) or "e")      # as many lines
    assert [e["tag"] for e in page.elements] == [e["tag"] for e in plain.elements]
    rows = page.having("data-kind")
    assert [p["attrs"]["data-learner"] for p in rows] == list(learners)
    assert [b["text"] for b in page.having("data-learner") if b["tag"] == "b"] == list(learners)
    for learner, row in zip(learners, rows):
        assert row["text"].startswith(learner)
        assert " ".join(error.split()) in " ".join(row["text"].split())


def case(name, passed, status="ok"):
    return {"name": name, "public": False, "status": status, "passed": passed, "message": "",
            "verdict": "passed" if passed else "failed", "probe": f"probes {name}", "shown": None}


def test_a_grader_fault_is_a_problem_not_a_score(tmp_path):
    book = Gradebook(tmp_path / "gradebook.sqlite")
    book.add_learners(["ann", "bo", "cy"])
    with book.db:
        book.db.execute("INSERT INTO lessons (id, number, title, version, hints) "
                        "VALUES ('01-softmax', 1, 'A stable softmax', 'v', '[]')")
    fault = result_row(Result(None, tmp_path / "f.py", error="the grader could not grade this "
                              "file: KeyError: 'x'"), KeyError("x"))
    wrong = {"score": 0.5, "passed": False, "cases_passed": 1, "error": None, "error_line": None,
             "feedback_error": None, "fault": False, "hint": None, "violations": [],
             "diagnosis": [{"mistake": "no-max-shift", "message": "Subtract the max."}],
             "cases": [case("small", True), case("huge", False), case("slow", False, "timeout")]}
    book.record(Graded("ann", "01-softmax", "ann/01.py", fault), "a" * 64, 0.1)
    book.record(Graded("bo", "01-softmax", "bo/01.py", wrong), "b" * 64, 0.1)
    with book.db:
        book.db.execute("INSERT INTO ungraded VALUES ('cy', '01-softmax', NULL, 'no submission')")
    report = report_data.build(book.db)
    lesson, = report.lessons
    assert lesson.scores == {"bo": 0.5} and lesson.passed == [] and lesson.missing == ["cy"]
    assert [(p.learner, p.kind) for p in lesson.problems] == [("ann", "fault"), ("bo", "timeout")]
    assert [(m.id, m.learners, m.messages) for m in lesson.mistakes] == [
        ("no-max-shift", ["bo"], ["Subtract the max."])]
    assert [(c.name, c.learners) for c in lesson.failed_cases] == [("huge", ["bo"]), ("slow", ["bo"])]
    assert lesson.ran == 1 and report.nothing == ["cy"] and report.totals == {"ann": 0, "bo": 0.5,
                                                                              "cy": 0}


def test_a_missing_or_bad_gradebook_gets_a_clear_message(workbook, tmp_path):
    bad, empty = tmp_path / "bad", tmp_path / "empty"
    bad.mkdir()
    (bad / "gradebook.sqlite").write_text("not a database")
    empty.mkdir()
    connect(empty / "gradebook.sqlite").close()
    for args, message in [
            (["--gradebook", str(tmp_path / "nowhere")], "there is no gradebook in"),
            (["--gradebook", str(bad / "gradebook.sqlite")], "is not an SQLite gradebook"),
            (["--gradebook", str(empty)], "holds no graded class yet"),
            ([str(tmp_path / "r.html"), "--no-html", "--gradebook", str(empty)], "--no-html")]:
        done = grader(workbook, "report", *args)
        assert done.returncode == 2 and message in done.stdout, done.stdout + done.stderr
        assert "Traceback" not in done.stdout + done.stderr
    assert not list(tmp_path.rglob("*.html"))


def stub_row(cases=3):
    return {"score": 0.0, "passed": False, "cases_passed": 0, "error": None, "error_line": None,
            "feedback_error": None, "fault": False, "hint": None, "violations": [], "diagnosis": [],
            "cases": [{**case(f"c{i}", False, "error"), "verdict": "not implemented yet"}
                      for i in range(cases)]}


def symptom_row(message):
    return {"score": 0.5, "passed": False, "cases_passed": 1, "error": None, "error_line": None,
            "feedback_error": None, "fault": False, "hint": None, "violations": [],
            "diagnosis": [{"mistake": "symptom:function", "message": message}],
            "cases": [case("a", True), case("b", False)]}


def reported(tmp_path):
    """A class of ann (right), bo and cy (the function symptom, in two different functions), stu
    (the untouched stub), mary ann (only a zip) and vic (only a misnamed file), with a duplicate,
    a note and an archive among the files not graded."""
    book = Gradebook(tmp_path / "gradebook.sqlite")
    book.add_learners(["ann", "bo", "cy", "mary ann", "stu", "vic"])
    with book.db:
        book.db.execute("INSERT INTO lessons (id, number, title, version, hints) "
                        "VALUES ('07-heads', 7, 'Heads', 'v', '[]')")
    right = {**symptom_row(""), "score": 1.0, "passed": True, "cases_passed": 2, "diagnosis": [],
             "cases": [case("a", True), case("b", True)]}
    book.record(Graded("ann", "07-heads", "ann/07.py", right), "a" * 64, 0.1)
    book.record(Graded("bo", "07-heads", "bo/07.py", symptom_row(
        "The mistake is in split_heads: every case of split_heads fails, and every case of "
        "merge_heads passes.")), "b" * 64, 0.1)
    book.record(Graded("cy", "07-heads", "cy/07.py", symptom_row(
        "The mistake is in merge_heads: 2 of the 3 cases of merge_heads fail, and every case of "
        "split_heads passes.")), "c" * 64, 0.1)
    book.record(Graded("stu", "07-heads", "stu/07.py", stub_row()), "d" * 64, 0.1)
    book.note_ungraded(["07-heads"], [
        ("mary ann", None, "mary ann/work.zip", "an archive: the grader does not open archives"),
        ("mary ann", "07-heads", None, "no submission"),
        ("vic", None, "vic/my heads.py", "its name names no lesson"),
        ("vic", "07-heads", None, "no submission"),
        ("bo", "07-heads", "bo/07-heads (1).py", "another file for lesson 07-heads: the newest, "
         "bo/07.py, was graded (keep one file per lesson)"),
        ("bo", None, "bo/notes.txt", "not a submission: only .py, .ipynb files are graded")])
    return book


def test_the_report_lists_files_not_graded_stubs_and_who_handed_in_nothing_gradable(tmp_path):
    book = reported(tmp_path)
    report = report_data.build(book.db)
    lesson, = report.lessons
    assert lesson.submitted == 3 and lesson.stubs == ["stu"] and lesson.pass_rate == 1 / 3
    assert report.nothing == [] and report.only_stubs == ["stu"]
    assert report.ungradable == {"mary ann": [("mary ann/work.zip", "an archive: the grader does "
                                                                    "not open archives")],
                                 "vic": [("vic/my heads.py", "its name names no lesson")]}
    page = Page(report_html.page(report, "gradebook.sqlite", "now"))
    row, = page.having("data-submitted")
    assert row["attrs"]["data-submitted"] == "3" and row["attrs"]["data-stubs"] == "1"
    files = {r["attrs"]["data-file"] for r in page.having("data-file")}
    assert files == {"mary ann/work.zip", "vic/my heads.py", "bo/07-heads (1).py", "bo/notes.txt"}
    ungradable = [e for e in page.elements if e["attrs"].get("id") == "ungradable"]
    assert "mary ann" in ungradable[0]["text"] and "work.zip" in ungradable[0]["text"]
    findings = {m["attrs"]["data-finding"] for m in page.having("data-finding") if m["tag"] == "tr"}
    assert findings == {"The mistake is in split_heads", "The mistake is in merge_heads"}


def test_the_mistakes_chart_says_what_was_found_and_its_legend_covers_no_bar(tmp_path):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from grader.classroom.report import plots
    book = reported(tmp_path)
    report = report_data.build(book.db)
    fig = plots.mistakes_figure(report)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    ax, = fig.axes
    legend = fig.legends[0].get_window_extent(renderer)
    bars = [p.get_window_extent(renderer) for p in ax.patches]
    assert len(bars) == 2 and not any(legend.overlaps(b) for b in bars)
    inside = fig.bbox        # the whole legend is on the picture: none of its words cut off
    assert inside.x0 <= legend.x0 and legend.x1 <= inside.x1 and legend.y1 <= inside.y1
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert sorted(labels) == ["07 · The mistake is in merge_heads", "07 · The mistake is in split_heads"]


def test_a_class_report_leaves_out_learners_whose_folder_is_gone(tmp_path):
    book = reported(tmp_path)
    book.add_learners(["ann", "bo", "cy", "mary ann", "stu"])      # vic's folder is gone
    report = report_data.build(book.db)
    assert "vic" not in report.learners and report.withdrawn == ["vic"]
    assert "vic" not in report.ungradable
