"""`grader export nbgrader`: the lessons as a real nbgrader course.

For each assignment (one per chapter, or all chosen lessons under one name) the course gets
`source/<assignment>/NN-slug.ipynb` and `workbook_examples.py`. A notebook holds the prose as
read-only cells, the reference in one solution cell (nbgrader's own `### BEGIN SOLUTION` /
`### END SOLUTION` markers, which the reference already uses), and the grader's cells, all locked:
one per public example, which checks the learner's answer against the value the prose shows (with
`workbook_examples`, which holds no lesson), one for the hidden cases, which names none, and the
score cell, the one graded cell, worth the lesson's points (grader.judge.points). No cell holds
anything the learner may not read, so a released cell is the source cell and nbgrader's checksums
hold. Nothing in a notebook grades: `nbgrader autograde`, configured by the course's
`nbgrader_config.py`, grades the answer cells with the workbook's grader in its sandbox and writes
the verdicts into these cells (grader.classroom.nbgrader_autograde).

A lesson whose stub gives an earlier lesson's code (02's stub holds 01's `softmax`) gives that
lesson away when both are released at once: `export` warns, and with `given="later"` puts it in
an assignment of its own, to release once the earlier lesson is due.
"""
import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from .build import KERNEL, text
from grader.answers import cell_text
from grader.files import write_atomic
from grader.judge import points

CHECKER = Path(__file__).with_name("workbook_examples.py")
POINTS = "workbook_points.json"     # each lesson's points.Rule, for nbgrader_autograde
DATES = "workbook_dates.json"       # due dates and late policies (classroom.course.portable)
CONFIG = """\
# nbgrader configuration for the Transformer Workbook course (written by `grader export nbgrader`).
# `nbgrader autograde` grades the lesson notebooks with the workbook's grader, in its sandbox: run
# nbgrader with the Python of the workbook the course was exported from (or set WORKBOOK_ROOT to
# another checkout). No learner code runs in a Jupyter kernel, and nothing in a notebook decides a
# score.
import os

c = get_config()
c.CourseDirectory.course_id = {course!r}
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))   # wherever the course lies
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError(\\"not implemented yet\\")"}}
c.Autograde.autograde_preprocessors = [
    "grader.classroom.nbgrader_autograde.WorkbookGrading",   # in place of nbgrader's Execute
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
# Only where bubblewrap cannot run (learner code then runs unconfined, as with --no-sandbox):
# c.WorkbookGrading.sandboxed = False
"""
SCORE = """\
# Your score for this lesson. The workbook's grader computes it when your work is graded, from
# your answer cell alone: the examples above and the hidden cases, {how}.
import os
if os.environ.get("NBGRADER_EXECUTION") == "autograde":
    raise RuntimeError("this course is graded by the workbook's grader: run `nbgrader autograde` "
                       "with the course's nbgrader_config.py and the workbook's Python")
"""


def slug(text_):
    return re.sub(r"[^a-z0-9]+", "-", text_.lower()).strip("-")


def meta(grade_id, **flags):
    nb = {"grade": False, "solution": False, "locked": False, "grade_id": grade_id,
          "schema_version": 3}
    nb.update(flags)
    return {"nbgrader": nb}


def prose(lesson, part, body):
    return nbformat.v4.new_markdown_cell(body.strip(), metadata=meta(f"{lesson.id}-{part}", locked=True))


def example_cell(lesson, number, example):
    """A public example, checked on the learner's side: the prose's own statements, then the call
    and the value the prose shows for it."""
    imports = ["import math", "import numpy as np", "from math import inf, nan"]
    if "torch" in " ".join(example.setup) + example.source:
        imports.append("import torch")
    source = "\n".join([
        f"# Example {number} from Your turn: your answer against the value shown there, to the "
        "digits shown.", "# The grader checks it again, with the hidden cases, when you submit.",
        *imports, "from workbook_examples import check", "", *example.setup,
        f"check({example.source}, {example.expected!r})"])
    return nbformat.v4.new_code_cell(source, metadata=meta(f"{lesson.id}-example-{number}",
                                                           locked=True))


def hidden_cell(lesson, count):
    return nbformat.v4.new_code_cell(
        f"# The {count} hidden cases: graded when you submit. Your feedback names each one and "
        "what it probes;\n# their inputs are not shown.",
        metadata=meta(f"{lesson.id}-hidden", locked=True))


def score_cell(lesson, rule=points.DEFAULT):
    how = "each case worth the same" if rule == points.DEFAULT else f"scored {rule.describe()}"
    source = SCORE.replace("{how}", how).rstrip("\n")
    return nbformat.v4.new_code_cell(source, metadata=meta(
        score_id(lesson), grade=True, locked=True, points=points.most(lesson, rule)))


def score_id(lesson):
    return f"{lesson.id}-score"


def grader_cells(lesson, rule=points.DEFAULT):
    """The grader's cells, after the answer cell: the examples, the hidden cases, the score."""
    examples = lesson.prose.public_examples()
    hidden = sum(not c.public for c in lesson.cases)
    return [*(example_cell(lesson, i, e) for i, e in enumerate(examples, 1)),
            *([hidden_cell(lesson, hidden)] if hidden else []), score_cell(lesson, rule)]


def source_notebook(lesson, rule=points.DEFAULT):
    e, p = lesson.entry, lesson.prose
    cells = [
        prose(lesson, "learn", f"# Lesson {e.number:02d} · {e.title}\n\n## Learn it\n\n"
              + p.sections["Learn it"]),
        prose(lesson, "task", "## Your turn\n\n" + p.sections["Your turn"] + "\n\n### Examples\n\n"
              + p.sections["Examples"] + "\n\nWrite your code in the cell below. The cells after "
              "it check it against these examples on your machine; your score is computed when "
              "your work is graded, on the examples and on hidden cases."),
        nbformat.v4.new_code_cell(lesson.reference_source.rstrip("\n"),
                                  metadata=meta(f"{lesson.id}-answer", solution=True)),
        *grader_cells(lesson, rule),
    ]
    nb = nbformat.v4.new_notebook(cells=cells, metadata=dict(KERNEL))
    nb.nbformat_minor = 5
    for i, cell in enumerate(nb.cells):
        cell.id = f"{lesson.id[:2]}-{i:02d}"
    nbformat.validate(nb)
    return nb


def grade_id(cell):
    meta_ = cell.get("metadata") if isinstance(cell, dict) else None
    nb = meta_.get("nbgrader") if isinstance(meta_, dict) else None
    return nb.get("grade_id") if isinstance(nb, dict) else None


def flags(cell):
    nb = cell["metadata"]["nbgrader"]
    return tuple(nb.get(k) for k in ("grade", "solution", "locked", "points"))


def altered(lesson, cells):
    """Notes on the grader's cells that a notebook of `lesson` (its cells, as JSON) lacks or holds
    changed; none for a notebook that is not an exported one. Both routes (`grader grade` and
    `nbgrader autograde`) say this, and neither lets those cells count."""
    cells = [c for c in cells if isinstance(c, dict)] if isinstance(cells, list) else []
    theirs = {grade_id(c): c for c in cells}
    if f"{lesson.id}-answer" not in theirs:
        return []
    deleted, changed = [], []
    for cell in grader_cells(lesson):
        gid, got = cell.metadata.nbgrader.grade_id, theirs.get(cell.metadata.nbgrader.grade_id)
        if got is None:
            deleted.append(gid)
        elif (got.get("cell_type"), cell_text(got), flags(got)) != (cell.cell_type, cell.source,
                                                                     flags(cell)):
            changed.append(gid)
    said = [f"{word}: {', '.join(ids)}"
            for word, ids in (("deleted", deleted), ("changed", changed)) if ids]
    if not said:
        return []
    return [f"The grader's cells in this notebook were altered ({'; '.join(said)}). They never "
            "count: the score comes from the answer cell alone."]


# ---- lessons whose stubs give earlier lessons' code ----

def given_functions(lesson):
    """Top-level functions the lesson's stub gives whole (no solution region inside them)."""
    tree = ast.parse(lesson.reference_source)
    lines = lesson.reference_source.splitlines()
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)
            and not any("### BEGIN SOLUTION" in l for l in lines[n.lineno - 1:n.end_lineno])}


def gives(lesson, others):
    """The lessons among `others` before `lesson` whose own functions its stub gives."""
    given = given_functions(lesson)
    return [o for o in others if o.entry.number < lesson.entry.number
            and given & set(o.spec.functions)]


@dataclass(frozen=True)
class Giveaway:
    lesson: object          # the lesson whose stub gives ...
    earlier: tuple          # ... these lessons' code
    assignment: str         # where it is released
    moved: bool             # put in an assignment of its own, after the last of `earlier`

    def __str__(self):
        names = ", ".join(e.id for e in self.earlier)
        if self.moved:
            return (f"{self.lesson.id} gives the code of {names}: it is in {self.assignment}; "
                    f"release that once {self.earlier[-1].id} is due")
        return (f"{self.lesson.id}'s stub gives the code of {names}, released with it in "
                f"{self.assignment}: learners can copy it from there (--given-code later puts "
                f"{self.lesson.id} in an assignment of its own, to release once "
                f"{self.earlier[-1].id} is due)")


def assignments(roadmap, lessons, name=None, given="keep"):
    """({assignment name: [lessons]}, [Giveaway]): one assignment per chapter, or every lesson
    under `name`. With given="later", a lesson whose stub gives the code of lessons in its own
    assignment moves to `<assignment>-after-NN`, NN the last of those, to release once NN is due."""
    if name:
        groups = {name: list(lessons)}
    else:
        groups = {}
        for lesson in lessons:
            number = next(i for i, (title, entries) in enumerate(roadmap.chapters, 1)
                          if any(x.id == lesson.id for x in entries))
            groups.setdefault(f"ch{number:02d}-{slug(lesson.entry.chapter)}", []).append(lesson)
    placed, found = {}, []
    for assignment, members in groups.items():
        for lesson in members:
            earlier = sorted(gives(lesson, members), key=lambda e: e.entry.number)
            where = assignment
            if earlier and given == "later":
                where = f"{assignment}-after-{earlier[-1].entry.number:02d}"
            if earlier:
                found.append(Giveaway(lesson, tuple(earlier), where, where != assignment))
            placed.setdefault(where, []).append(lesson)
    return placed, found


def export(roadmap, lessons, course, name=None, course_id="transformer-workbook", given="keep",
           rules=None, dates=None):
    """Write the course under `course`, each lesson worth what `rules` (lesson id ->
    points.Rule) gives it, and those rules into POINTS for autograde, with the due dates and late
    policies `dates` (classroom.course.portable) in DATES; returns ({assignment: [notebook
    paths]}, [Giveaway])."""
    rules = rules or {}
    course = Path(course).resolve()
    written = {}
    placed, giveaways = assignments(roadmap, lessons, name, given)
    for assignment, members in placed.items():
        folder = course / "source" / assignment
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / CHECKER.name, CHECKER.read_text())
        for lesson in members:
            path = folder / f"{lesson.id}.ipynb"
            write_atomic(path, text(source_notebook(lesson, rules.get(lesson.id, points.DEFAULT))))
            written.setdefault(assignment, []).append(path)
    write_atomic(course / "nbgrader_config.py", CONFIG.format(course=course_id))
    write_atomic(course / POINTS, json.dumps({l.id: rules.get(l.id, points.DEFAULT).to_json()
                                              for l in lessons}, indent=1))
    write_atomic(course / DATES, json.dumps(dates or {}, indent=1))
    return written, giveaways
