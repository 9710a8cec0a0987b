"""The lesson notebooks: generated, valid, complete, and graded by their check cell like the file."""
import ast
import builtins
import dis
import inspect
import io
import json
import os
import re
import subprocess
import sys

import nbformat
import pytest
from hypothesis import given, strategies as st

from conftest import ROOT, grader
from grader.learner import backups
from grader.lessons import build, roadmap
from grader.notebooks import build as notebooks, kernel, lab, percent

ROADMAP = roadmap.load(ROOT)
LESSONS = build.lessons(ROADMAP)
# lessons where a picture teaches best, and lessons whose Learn it has display math
FIGURES = {"01", "02", "03", "04", "05", "06", "07", "08", "11", "12", "13", "14", "15", "16", "17",
           "18", "19", "20", "21", "22", "30"}
FORMULAS = {"02", "03", "04", "05", "06", "07", "08", "14", "30"}


def read(lesson_id, root=ROOT):
    return nbformat.read(root / "notebooks" / f"{lesson_id}.ipynb", as_version=4)


def test_every_notebook_is_built_and_up_to_date():
    assert notebooks.drift(ROADMAP) == []
    assert sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb")) >= sorted(l.id for l in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda l: l.id)
def test_a_notebook_holds_every_part_in_order(lesson):
    nb = read(lesson.id)
    nbformat.validate(nb)
    cells = nb.cells
    text = [c.source for c in cells]
    order = [next(i for i, t in enumerate(text) if t.startswith(start)) for start in
             ("## Learn it", "## Your turn", "%%answer", "check(", "## Hints", "## Check yourself",
              "## After you pass")]
    assert order == sorted(order)
    learn, turn, answer = order[0], order[1], order[2]
    assert cells[answer].source == f"%%answer {lesson.id}\n" + (ROOT / "exercises" / lesson.id / "solution.py").read_text().rstrip("\n") \
        or "raise NotImplementedError" in cells[answer].source
    assert "### BEGIN SOLUTION" not in cells[answer].source
    worked = [c for c in cells[learn:turn] if c.cell_type == "code"]
    if (lesson.folder / "notebook.py").is_file() or lesson.id[:2] in FIGURES:
        assert worked and all(c.outputs for c in worked), "the worked example runs, outputs stored"
        assert any(o.output_type == "stream" for c in worked for o in c.outputs)
    if lesson.id[:2] in FIGURES:
        assert any("image/png" in o.get("data", {}) for c in worked for o in c.outputs)
    if lesson.id[:2] in FORMULAS:
        assert "$$" in cells[learn].source, "the formulas are LaTeX"
    hints = cells[order[4]].source
    assert hints.count("<details>") == 3 and all(title in hints for title, _ in lesson.prose.hints)
    questions = cells[order[5]].source
    assert questions.count("<details>") == len(lesson.prose.questions)
    after = cells[order[6]].source
    assert "Solution walkthrough (open after you pass)" in after and "Watch out (open after you pass)" in after


def test_the_softmax_picture_sets_the_naive_formula_against_the_stable_one():
    """Lesson 01's figure cell shows the naive formula's nan beside the stable probabilities."""
    nb = read("01-softmax")
    [cell] = [c for c in nb.cells if c.cell_type == "code"
              and any("image/png" in o.get("data", {}) for o in c.outputs)]
    printed = "".join(o.text for o in cell.outputs if o.output_type == "stream")
    assert "nan" in printed and "0.665241" in printed


@given(st.lists(st.tuples(st.sampled_from(["markdown", "code"]),
                          st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1)
                          .filter(lambda s: s.strip() and "%%" not in s)), max_size=6))
def test_percent_cells_round_trip(cells):
    script = "".join("# %% [markdown]\n" + "".join(f"# {l}\n" for l in s.splitlines())
                     if kind == "markdown" else f"# %%\n{s}\n" for kind, s in cells)
    expected = []
    for kind, s in cells:
        body = "\n".join(s.splitlines()).strip("\n") if kind == "code" else \
            "\n".join(l for l in s.splitlines()).strip("\n")
        if body.strip():
            expected.append((kind, body))
    assert [(k, s.strip("\n")) for k, s in percent.cells(script)] == expected


def test_build_keeps_a_notebook_the_learner_changed_and_is_idempotent(workbook, run_grader):
    path = workbook / "notebooks" / "01-softmax.ipynb"
    nb = json.loads(path.read_text())
    nb["cells"][0]["source"] = "my notes"
    path.write_text(json.dumps(nb))
    lesson_md = workbook / "solutions" / "01-softmax" / "lesson.md"
    lesson_md.write_text(lesson_md.read_text().replace("## Watch out\n", "## Watch out\n\n- New.\n"))
    result = run_grader(workbook, "build")
    assert "notebooks/01-softmax.ipynb: kept: you changed it" in result.stdout
    assert json.loads(path.read_text())["cells"][0]["source"] == "my notes"
    assert "notebooks/01-softmax.ipynb" in run_grader(workbook, "build", "--check").stdout
    path.unlink()
    assert "notebooks/01-softmax.ipynb: written" in run_grader(workbook, "build").stdout
    again = run_grader(workbook, "build")
    assert again.returncode == 0 and "notebooks/" not in again.stdout
    assert run_grader(workbook, "build", "--check").returncode == 0


def test_a_capstone_script_becomes_a_notebook(workbook, run_grader):
    script = workbook / "solutions" / "capstone" / "capstone.py"
    script.parent.mkdir(exist_ok=True)
    script.write_text("# %% [markdown]\n# # Capstone\n# Train it.\n\n# %%\nx = 1 + 1\nprint(x)\n")
    assert "notebooks/capstone.ipynb: written" in run_grader(workbook, "build").stdout
    nb = nbformat.read(workbook / "notebooks" / "capstone.ipynb", as_version=4)
    nbformat.validate(nb)
    assert [(c.cell_type, c.source) for c in nb.cells] == [
        ("markdown", "# Capstone\nTrain it."), ("code", "x = 1 + 1\nprint(x)")]


def test_a_broken_worked_example_is_reported_not_a_traceback(workbook, run_grader):
    (workbook / "solutions" / "02-attention" / "notebook.py").write_text("# %%\n1 / 0\n")
    (workbook / "notebooks" / "02-attention.ipynb").unlink()
    result = run_grader(workbook, "build")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "notebooks/02-attention.ipynb: skipped: solutions/02-attention/notebook.py: code cell 1 " \
           "raised ZeroDivisionError" in result.stdout


def test_every_notebook_renders_to_html():
    from nbconvert import HTMLExporter
    exporter = HTMLExporter()
    for lesson in LESSONS:
        html, _ = exporter.from_notebook_node(read(lesson.id))
        assert "<details>" in html and "data:image/png" in html or lesson.id[:2] not in FIGURES
        assert "NotImplementedError" in html and "check" in html


# ---- executing the notebooks on a kernel from the project's venv ---------------------------------

def global_names(code):
    """The global names a function's code (and the code nested in it) reads."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= global_names(const)
    return names


def self_contained(mistake, reference):
    """Whether the mistake's functions need nothing beyond the reference's names and builtins
    (some mistakes call helpers of the mistakes file, which a learner's file would not hold)."""
    known = set(reference) | set(vars(builtins)) | set(mistake.functions)
    return all(global_names(fn.__code__) <= known for fn in mistake.functions.values())


def mistaken_source(lesson):
    """The reference with the first self-contained known mistake's functions defined over it, and
    its message."""
    reference = lesson.namespace()
    m = next((m for m, _ in lesson.mistakes if self_contained(m, reference)), None)
    if m is None:
        return None, None
    parts = [lesson.reference_source]
    for fn in m.functions.values():
        lines = inspect.getsource(fn).splitlines()
        node = ast.parse("\n".join(lines)).body[0]
        parts.append("\n".join(lines[node.lineno - 1:]))
    return "\n\n\n".join(parts) + "\n", m.message


def check_output(cell):
    [out] = [o for o in cell.outputs if o.output_type == "execute_result"]
    assert "<pre" in out.data["text/html"] and "\x1b[" not in out.data["text/html"]
    return out.data["text/plain"]


def squash(text):
    return " ".join(text.split())


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda l: l.id)
def test_the_check_cell_grades_what_the_answer_cell_holds(lesson, workbook, monkeypatch):
    from nbclient import NotebookClient
    monkeypatch.setenv("WORKBOOK_ROOT", str(workbook))
    nb = read(lesson.id, workbook)
    answer = next(i for i, c in enumerate(nb.cells) if c.source.startswith("%%answer"))
    check = next(i for i, c in enumerate(nb.cells) if c.source.startswith("check("))
    client = NotebookClient(nb, kernel_name="python3", timeout=300,
                            resources={"metadata": {"path": str(workbook / "notebooks")}})
    progress = workbook / ".workbook" / "progress.json"

    def run(source=None):
        if source is not None:
            nb.cells[answer].source = f"%%answer {lesson.id}\n{source}"
        for i in (answer, check):
            client.execute_cell(nb.cells[i], i)
        return check_output(nb.cells[check])

    with client.setup_kernel():
        for i, cell in enumerate(nb.cells):          # the whole notebook, as shipped: every cell runs
            client.execute_cell(cell, i)
        assert "not implemented yet" in check_output(nb.cells[check])
        assert json.loads(progress.read_text())[lesson.id]["passed"] is False

        wrong, message = mistaken_source(lesson)
        if wrong is not None:       # every lesson has one, but some mistakes need helpers
            shown = run(wrong)
            assert "Why:" in shown and squash(message)[:60] in squash(shown)
            assert (workbook / "exercises" / lesson.id / "solution.py").read_text() == wrong

        shown = run(lesson.reference_source)
        assert "passed" in shown.splitlines()[0] and "Solution walkthrough" in shown
    assert json.loads(progress.read_text())[lesson.id]["passed"] is True
    # the file and the notebook are one place: the terminal's check agrees
    assert grader(workbook, "check", lesson.id).returncode == 0
    if wrong is not None:
        assert backups.versions(workbook, lesson.id)[-1].path.read_text() == wrong


@pytest.mark.slow
def test_an_endless_loop_costs_a_time_out_not_the_kernel(workbook, monkeypatch):
    from nbclient import NotebookClient
    monkeypatch.setenv("WORKBOOK_ROOT", str(workbook))
    nb = read("01-softmax", workbook)
    answer = next(i for i, c in enumerate(nb.cells) if c.source.startswith("%%answer"))
    check = next(i for i, c in enumerate(nb.cells) if c.source.startswith("check("))
    nb.cells[answer].source = ("%%answer 01-softmax\nimport numpy as np\n\n"
                               "def softmax(x, axis=-1):\n    while True:\n        pass\n")
    client = NotebookClient(nb, kernel_name="python3", timeout=120,
                            resources={"metadata": {"path": str(workbook / "notebooks")}})
    with client.setup_kernel():
        for i in (1, answer, check):
            client.execute_cell(nb.cells[i], i)
    assert "timed out" in check_output(nb.cells[check])


def test_the_stub_in_the_cell_never_replaces_work_in_the_file(workbook, monkeypatch):
    from grader.notebooks import kernel
    monkeypatch.setenv("WORKBOOK_ROOT", str(workbook))
    wb = kernel.workbook()
    lesson = wb.lesson("01")
    path = wb.exercise(lesson.entry)
    stub = path.read_text()
    path.write_text(lesson.reference_source)
    code, note, offer = kernel.save_answer(wb, lesson, stub)
    assert code == lesson.reference_source and "left as it is" in note and offer
    assert path.read_text() == lesson.reference_source
    code, note, offer = kernel.save_answer(wb, lesson, stub + "# mine\n")
    assert path.read_text() == stub + "# mine\n" and note.startswith("Saved") and not offer
    [kept] = backups.versions(workbook, "01-softmax")
    assert kept.path.read_text() == lesson.reference_source and str(kept.path.name) in note


def test_a_lesson_without_worked_cells_still_gets_its_notebook(workbook, run_grader):
    (workbook / "solutions" / "02-attention" / "notebook.py").unlink()
    result = run_grader(workbook, "build")
    assert result.returncode == 0 and "notebooks/02-attention.ipynb: written" in result.stdout
    nb = read("02-attention", workbook)
    nbformat.validate(nb)
    assert [c.source.split("\n")[0] for c in nb.cells if c.cell_type == "code"] == [
        "%load_ext grader.notebooks", "%%answer 02-attention", "check('02-attention')"]


def replies(client):
    """Collect each executed cell's execute_reply (its payloads: what Jupyter does to the cell)."""
    got = {}
    client.on_cell_executed = lambda cell, cell_index, execute_reply: got.__setitem__(
        cell_index, execute_reply)
    return got


@pytest.mark.slow
def test_a_pass_in_the_notebook_is_a_pass_in_status_and_every_replaced_version_is_kept(
        workbook, monkeypatch):
    """A wrong file checked in the terminal, then in the notebook: the stub cell shows the file's
    code, two answers replace two versions (both kept), and the pass is recorded for the file
    that passed (not "changed since" the terminal's check)."""
    from nbclient import NotebookClient
    monkeypatch.setenv("WORKBOOK_ROOT", str(workbook))
    lesson = next(l for l in LESSONS if l.id == "01-softmax")
    first, second = ("import numpy as np\n\ndef softmax(x, axis=-1):\n    return np.exp(x)\n",
                     "import numpy as np\n\ndef softmax(x, axis=-1):\n    return x * 0\n")
    path = workbook / "exercises" / lesson.id / "solution.py"
    path.write_text(first)
    assert grader(workbook, "check", "01").returncode == 1
    nb = read(lesson.id, workbook)
    answer = next(i for i, c in enumerate(nb.cells) if c.source.startswith("%%answer"))
    check = next(i for i, c in enumerate(nb.cells) if c.source.startswith("check("))
    client = NotebookClient(nb, kernel_name="python3", timeout=300,
                            resources={"metadata": {"path": str(workbook / "notebooks")}})
    got = replies(client)
    with client.setup_kernel():
        client.execute_cell(nb.cells[1], 1)
        client.execute_cell(nb.cells[answer], answer)         # the stub, as shipped
        printed = "".join(o.get("text", "") for o in nb.cells[answer].outputs)
        assert "this cell now shows it" in printed and path.read_text() == first
        [offer] = [p for p in got[answer]["content"]["payload"] if p["source"] == "set_next_input"]
        assert offer["replace"] and offer["text"] == f"%%answer {lesson.id}\n{first.rstrip()}"
        for source in (second, lesson.reference_source):
            nb.cells[answer].source = f"%%answer {lesson.id}\n{source}"
            client.execute_cell(nb.cells[answer], answer)
        client.execute_cell(nb.cells[check], check)
        assert "passed" in check_output(nb.cells[check]).splitlines()[0]
    status = grader(workbook, "status").stdout
    line = next(l for l in status.splitlines() if l.strip().startswith("01 "))
    assert line.split()[-1] == "passed" and "changed" not in line
    assert "Next: lesson 02" in status
    assert [v.path.read_text() for v in backups.versions(workbook, lesson.id)] == [first, second]
    listed = grader(workbook, "backups", "01").stdout
    assert "  1  saved" in listed and "  2  saved" in listed


def text_of(html):
    """(the text a browser shows, the text of each element styled nowrap, of each code element)."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.text, self.stack, self.unbroken, self.code = [], [], [], []

        def handle_starttag(self, tag, attrs):
            style = dict(attrs).get("style") or ""
            self.stack.append((tag, "nowrap" in style, len(self.text)))

        def handle_endtag(self, tag):
            name, nowrap, start = self.stack.pop()
            assert name == tag, "tags nest"
            inner = "".join(self.text[start:])
            if nowrap:
                self.unbroken.append(inner)
            if tag == "code":
                self.code.append(inner)

        def handle_data(self, data):
            self.text.append(data)

    reader = Reader()
    reader.feed(html)
    assert not reader.stack
    return "".join(reader.text), reader.unbroken, reader.code


NUMBER = st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:.6g}")
WORD = st.one_of(NUMBER, st.text("abc<>&'-xyz", min_size=1, max_size=9),
                 st.sampled_from(["overflows", "time-out", "L=01", "(shape (2, 3))"]))
CODE_SPAN = st.lists(WORD, min_size=1, max_size=3).map(lambda w: "`" + " ".join(w) + "`")


@given(st.lists(st.lists(st.one_of(WORD, CODE_SPAN), max_size=12), min_size=1, max_size=5))
def test_the_check_cell_html_keeps_numbers_whole_and_shows_code_as_code(lines):
    from rich.console import Console
    from rich.markup import escape
    console = Console(record=True, file=io.StringIO(), width=100, color_system="truecolor",
                      highlight=False, soft_wrap=True, force_jupyter=False)
    for i, words in enumerate(lines):
        text = escape(" ".join(words))
        console.print(f"[red]✗[/red] {text}" if i % 2 else text)
    html = kernel.PRE.format(code=kernel.readable(
        console.export_html(inline_styles=True, clear=False, code_format="{code}")))
    assert "word-break:normal" in html and "overflow-wrap:normal" in html
    shown, unbroken, code = text_of(html)
    expected = "\n".join(("✗ " if i % 2 else "") + " ".join(w) for i, w in enumerate(lines))
    assert shown.rstrip("\n") == expected.replace("`", "").rstrip("\n")
    kept_whole = {t for piece in unbroken for t in piece.split()}
    for words in lines:
        for w in words:
            for token in w.strip("`").split():
                if re.search(r"[\d-]", token):
                    assert token in kept_whole, token
    assert code == [w.strip("`") for words in lines for w in words if w.startswith("`")]


def test_make_lab_gives_learners_lab_without_nbgrader(tmp_path):
    """Lab as `make lab` starts it: nbgrader's server extensions are not loaded and its Lab
    extension is disabled; an instructor's Lab keeps it."""
    env = lab.environment(tmp_path)
    probe = ("from jupyter_server.serverapp import ServerApp\n"
             "from jupyter_core.paths import jupyter_path\n"
             "from jupyterlab_server.config import get_page_config\n"
             "app = ServerApp()\n"
             "app.initialize(['--ServerApp.open_browser=False', '--port=0'], "
             "find_extensions=True, new_httpserver=False)\n"
             "print(sorted(n for n, e in app.extension_manager.extensions.items() if e.enabled))\n"
             "print(sorted(get_page_config(jupyter_path('labextensions'), None)"
             ".get('disabledExtensions', {})))\n")
    result = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                            text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    enabled, disabled = result.stdout.strip().splitlines()[-2:]
    assert "jupyterlab" in enabled and "nbgrader" not in enabled
    assert "@jupyter/nbgrader" in disabled
    assert lab.server_extensions() and lab.lab_extensions() == ["@jupyter/nbgrader"]
    instructor = lab.environment(tmp_path, instructor=True)
    assert instructor.get("JUPYTER_CONFIG_DIR") == os.environ.get("JUPYTER_CONFIG_DIR")
    made = subprocess.run(["make", "-n", "lab", "INSTRUCTOR=1"], cwd=ROOT, capture_output=True,
                          text=True).stdout
    assert "-m grader.notebooks.lab --instructor -- --notebook-dir=notebooks" in made


def test_jupyter_checkpoints_are_not_committed():
    for path in ("notebooks/.ipynb_checkpoints/01-softmax-checkpoint.ipynb",
                 "exercises/01-softmax/.ipynb_checkpoints/solution-checkpoint.py"):
        assert subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0, path
