"""`grader export nbgrader`: the lessons as a real nbgrader course.

For each assignment (one per chapter, or all chosen lessons under one name) the course gets
`source/<assignment>/NN-slug.ipynb`: the prose as read-only cells, the reference in one solution
cell (nbgrader's own `### BEGIN SOLUTION` / `### END SOLUTION` markers, which the reference
already uses), and one graded test cell per case, worth one point, that runs our grader on the
answer cell (grader.notebooks.autograde). A hidden case's cell is entirely between
`### BEGIN HIDDEN TESTS` and `### END HIDDEN TESTS`, so the released notebook does not even name
it. `nbgrader_config.py` sets the course, the stub nbgrader leaves in solution regions and a
cell time-out long enough for a case's own limits to act first.
"""
import re
from pathlib import Path

import nbformat

from .build import KERNEL, text
from grader.files import write_atomic

CONFIG = """\
# nbgrader configuration for the Transformer Workbook course (written by `grader export nbgrader`).
# The test cells call the `grader` package of the workbook it was exported from (or the one named
# by the WORKBOOK_ROOT environment variable): run nbgrader with that workbook's Python.
c = get_config()
c.CourseDirectory.course_id = {course!r}
c.CourseDirectory.root = {root!r}
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE\\nraise NotImplementedError(\\"not implemented yet\\")"}}
c.Execute.timeout = 600
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


def test_cell(lesson, index, case):
    call = (f"from grader.notebooks.autograde import case\n"
            f"case({lesson.id!r}, {case.name!r})")
    if case.public:
        source = f"# {case.name}: {case.probe or 'an example from above'}\n{call}"
    else:
        source = ("# A hidden case: graded when you submit.\n"
                  f"### BEGIN HIDDEN TESTS\n{call}\n### END HIDDEN TESTS")
    return nbformat.v4.new_code_cell(source, metadata=meta(
        f"{lesson.id}-case-{index:02d}", grade=True, locked=True, points=1))


def source_notebook(lesson):
    e, p = lesson.entry, lesson.prose
    cells = [
        prose(lesson, "learn", f"# Lesson {e.number:02d} · {e.title}\n\n## Learn it\n\n"
              + p.sections["Learn it"]),
        prose(lesson, "task", "## Your turn\n\n" + p.sections["Your turn"] + "\n\n### Examples\n\n"
              + p.sections["Examples"] + "\n\nWrite your code in the cell below; the cells after "
              "it are the tests, one point per case."),
        nbformat.v4.new_code_cell(lesson.reference_source.rstrip("\n"),
                                  metadata=meta(f"{lesson.id}-answer", solution=True)),
        *(test_cell(lesson, i, c) for i, c in enumerate(lesson.cases, 1)),
    ]
    nb = nbformat.v4.new_notebook(cells=cells, metadata=dict(KERNEL))
    nb.nbformat_minor = 5
    for i, cell in enumerate(nb.cells):
        cell.id = f"{lesson.id[:2]}-{i:02d}"
    nbformat.validate(nb)
    return nb


def assignments(roadmap, lessons, name=None):
    """{assignment name: [lessons]}: one per chapter, or every lesson under `name`."""
    if name:
        return {name: list(lessons)}
    groups = {}
    for lesson in lessons:
        number = next(i for i, (title, entries) in enumerate(roadmap.chapters, 1)
                      if any(x.id == lesson.id for x in entries))
        groups.setdefault(f"ch{number:02d}-{slug(lesson.entry.chapter)}", []).append(lesson)
    return groups


def export(roadmap, lessons, course, name=None, course_id="transformer-workbook"):
    """Write the course under `course`; returns {assignment: [notebook paths]}."""
    course = Path(course).resolve()
    written = {}
    for assignment, members in assignments(roadmap, lessons, name).items():
        for lesson in members:
            path = course / "source" / assignment / f"{lesson.id}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text(source_notebook(lesson)))
            written.setdefault(assignment, []).append(path)
    write_atomic(course / "nbgrader_config.py", CONFIG.format(course=course_id, root=str(course)))
    return written
