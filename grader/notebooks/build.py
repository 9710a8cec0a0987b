"""Generate notebooks/NN-slug.ipynb for every lesson, from the lesson's one source folder.

A lesson notebook holds, in order: Learn it (the prose, then the worked example and figures the
author wrote as cells in `solutions/NN-slug/notebook.py`, run at build time with their outputs
stored), Your turn with the stub in the answer cell, the check cell, the three hints folded,
Check yourself with folded answers, and the Solution walkthrough and Watch out, folded, for after
a pass. `solutions/capstone/capstone.py`, when present, becomes notebooks/capstone.ipynb as it is.

`notebooks/.generated.json` records, per notebook, a hash of what it was built from and a hash of
the file written: an up-to-date notebook is left alone, one the learner changed is never
overwritten, and drift is a source hash that no longer matches.
"""
import hashlib
import json
from pathlib import Path

import nbformat

from . import execute, percent
from grader.files import write_atomic
from grader.lessons import build as lesson_build, regions

FOLDER = "notebooks"
LOCK = ".generated.json"
WORKED = "notebook.py"          # the lesson's worked example and figures, in percent format
CAPSTONE = Path("solutions") / "capstone" / "capstone.py"
BUILDER = [Path(__file__).with_name(n) for n in ("build.py", "execute.py", "percent.py")]
KERNEL = {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                         "language": "python"},
          "language_info": {"name": "python", "pygments_lexer": "ipython3"}}


def digest(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode())
        h.update(b"\0")
    return h.hexdigest()


def source_hash(lesson):
    """A hash of everything a lesson's notebook is made from: its sources and this builder."""
    e = lesson.entry
    files = [lesson.folder / n for n in ("lesson.md", "solution.py", WORKED)] + BUILDER
    return digest(f"{e.id}|{e.number}|{e.title}|{e.chapter}|{e.framework}",
                  *(p.read_bytes() if p.is_file() else b"" for p in files))


def folded(summary, body):
    return f"<details>\n<summary>{summary}</summary>\n\n{body.strip()}\n\n</details>"


def markdown(text):
    return nbformat.v4.new_markdown_cell(text.strip())


def code(text):
    return nbformat.v4.new_code_cell(text.strip("\n"))


def worked_cells(lesson):
    path = lesson.folder / WORKED
    if not path.is_file():
        return []
    cells = [markdown(s) if kind == "markdown" else code(s)
             for kind, s in percent.cells(path.read_text())]
    return execute.execute(cells, f"solutions/{lesson.id}/{WORKED}")


def lesson_cells(lesson):
    e, p = lesson.entry, lesson.prose
    n = f"{e.number:02d}"
    exercise = f"exercises/{e.id}/solution.py"
    hints = "\n\n".join(folded(f"Hint {i}: {title}", body)
                        for i, (title, body) in enumerate(p.hints, 1))
    questions = "\n\n".join(f"**{q}**\n\n{folded('Answer', a)}" for q, a in p.questions)
    return [
        markdown(f"""# Lesson {n} · {e.title}

Chapter: {e.chapter} ({e.framework}). Read *Learn it*, run its cells, then write your code in the
answer cell under *Your turn* and run the check cell. The answer cell and `{exercise}` are one
place: running the cell saves it to that file, so `make check L={n}` and this notebook always
grade the same code."""),
        code("%load_ext grader.notebooks"),
        markdown("## Learn it\n\n" + p.sections["Learn it"]),
        *worked_cells(lesson),
        markdown("## Your turn\n\n" + p.sections["Your turn"] + "\n\n### Examples\n\n"
                 + p.sections["Examples"]),
        markdown(f"Write your code below, then run the cell: it saves the cell to `{exercise}` "
                 f"(the file's previous version is kept: `make backups L={n}` lists them) and "
                 "defines your functions in this notebook. If the file holds code of yours and "
                 "this cell still the stub, running it shows your code here. The code outside the "
                 "`# YOUR CODE HERE` parts is given."),
        code(f"%%answer {e.id}\n" + regions.stub(lesson.reference_source)),
        markdown("## Check your work\n\nThe same grader as `make check`: the examples above and "
                 "hidden cases, each case with a time limit, and *Why* when your answers match a "
                 "known mistake. A pass here is a pass in `make status`."),
        code(f"check({e.id!r})"),
        markdown("## Hints\n\nOpen one at a time: where to start, the key step, the outline.\n\n"
                 + hints),
        markdown("## Check yourself\n\n" + questions),
        markdown("## After you pass\n\n"
                 + folded("Solution walkthrough (open after you pass)", p.sections["Solution"])
                 + "\n\n" + folded("Watch out (open after you pass)", p.sections["Watch out"])),
    ]


def finish(cells, **metadata):
    nb = nbformat.v4.new_notebook(cells=cells, metadata={**KERNEL, "workbook": metadata})
    nb.nbformat_minor = 5
    for i, cell in enumerate(nb.cells):
        cell.id = f"{cell.cell_type[:2]}{i:02d}"
    nbformat.validate(nb)
    return nb


def lesson_notebook(lesson):
    return finish(lesson_cells(lesson), lesson=lesson.id)


def capstone_notebook(path):
    cells = [markdown(s) if kind == "markdown" else code(s)
             for kind, s in percent.cells(path.read_text())]
    return finish(cells, capstone=True)


def text(nb):
    return nbformat.writes(nb) + "\n"


def targets(roadmap):
    """(notebook path relative to notebooks/, source hash, a function that makes it) per notebook."""
    for lesson in lesson_build.lessons(roadmap):
        try:
            yield f"{lesson.id}.ipynb", source_hash(lesson), lambda l=lesson: lesson_notebook(l)
        except OSError as e:
            yield f"{lesson.id}.ipynb", e, None
    capstone = roadmap.root / CAPSTONE
    if capstone.is_file():
        yield "capstone.ipynb", digest(capstone.read_bytes(), *(p.read_bytes() for p in BUILDER)), \
            lambda: capstone_notebook(capstone)


def load_lock(root):
    path = Path(root) / FOLDER / LOCK
    return json.loads(path.read_text()) if path.is_file() else {}


def build(roadmap):
    """Write every notebook whose sources changed; returns (path, what happened) pairs."""
    folder = roadmap.root / FOLDER
    lock, report = load_lock(roadmap.root), []
    for rel, source, make in targets(roadmap):
        target = folder / rel
        current = target.read_text() if target.is_file() else None
        recorded = lock.get(rel, {})
        if isinstance(source, Exception):
            action = f"skipped: {source}"
        elif current is not None and recorded.get("source") == source:
            action = "unchanged"
        elif current is not None and digest(current) != recorded.get("file"):
            action = "kept: you changed it (delete it, then `make build`, to regenerate it)"
        else:
            try:
                written = text(make())
            except (OSError, ValueError, SyntaxError) as e:   # a lesson still being written
                report.append((rel, f"skipped: {e}"))
                continue
            write_atomic(target, written)
            lock[rel] = {"source": source, "file": digest(written)}
            action = "written"
        report.append((rel, action))
    folder.mkdir(exist_ok=True)
    write_atomic(folder / LOCK, json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return report


def drift(roadmap):
    """Notebooks (relative to notebooks/) missing or built from sources that have since changed."""
    lock = load_lock(roadmap.root)
    return [rel for rel, source, _ in targets(roadmap)
            if isinstance(source, Exception) or lock.get(rel, {}).get("source") != source
            or not (roadmap.root / FOLDER / rel).is_file()]
