"""What `nbgrader autograde` runs in place of executing a lesson notebook: the workbook's grader.

The course's nbgrader_config.py (grader.notebooks.nbgrader_export) puts `WorkbookGrading` where
nbgrader's Execute stands. For a lesson notebook (one whose source, in nbgrader's gradebook, has
the lesson's score cell) nothing runs in a Jupyter kernel: the learner's submitted file is graded exactly as
`grader grade` grades it (classroom.jobs.grade_job: its answer cells, in the sandbox, on a warm
worker of this process, which nothing of the course folder reaches), and the grader's cells are
written anew from the gradebook's source cells, their outputs the blocks of `grader grade`'s
feedback: each public example's verdict in its own cell, the hidden cases by name, probe and fixed
phrase, and in the score cell the rest and the lesson's points, the only output nbgrader scores.
Whatever the notebook's copies of those cells held is dropped, so nothing the learner wrote there
changes a verdict. Any other notebook of the course is executed as nbgrader always does.
"""
import json
import threading
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import Execute
from traitlets import Bool

from grader.errors import GraderError
from grader.judge import points
from grader.lessons import lesson as lessons, roadmap
from grader.notebooks import nbgrader_export as layout
from grader.runner import sandbox
from grader.runner.workers import preload_for
from . import feedback, learnerfiles
from .course import portable
from .course.handed_in import handed_in
from .gradebook import lesson_version
from .jobs import grade_job
from .remote import leased, workbook_root
from .submissions import Submission
from .view import ClassView, Current, LessonInfo

NOT_RUN = ("not run: this notebook is graded by the workbook's grader, which runs no notebook "
           "code; put tests of your own in a notebook of their own")
LESSON_LOCK = threading.Lock()
LESSONS = {}        # lesson id -> (its version, the Lesson, its reference's outcomes computed)


class GradingFailed(RuntimeError):
    """The grader itself failed on a notebook: nbgrader records no score for it."""


def lesson_for(notebook):
    """The lesson a notebook is named after, prepared once per process (again when its files
    change, as in a long-running formgrader); None if there is none."""
    try:
        lesson = lessons.load(roadmap.load(workbook_root()), notebook)
    except (LookupError, ValueError):
        return None
    if lesson.id != notebook:
        return None
    version = lesson_version(lesson)
    with LESSON_LOCK:
        if LESSONS.get(notebook, (None,))[0] != version:
            lesson.prepare()
            LESSONS[notebook] = (version, lesson)
        return LESSONS[notebook][1]


def stream(text):
    return nbformat.v4.new_output("stream", name="stdout", text=text.rstrip("\n") + "\n")


class WorkbookGrading(Execute):
    """nbgrader's Execute, except that a lesson notebook is graded by the workbook's grader."""

    sandboxed = Bool(True, help="Run learner code in bubblewrap's sandbox (as `grader grade` "
                                "does unless told --no-sandbox).").tag(config=True)

    def preprocess(self, nb, resources, km=None):
        info = resources["nbgrader"]
        with Gradebook(info["db_url"]) as gb:
            lesson = self.graded_here(gb, info)
            if lesson is not None:
                restored = self.grader_cells(gb, lesson, info)
                source = gb.find_notebook(info["notebook"], info["assignment"])
                known = {c.name for c in source.source_cells}
        if lesson is None:
            return super().preprocess(nb, resources, km)
        row, submission = self.graded(lesson, info)
        ours = {layout.grade_id(c) for c in restored}
        kept = []
        for cell in nb.cells:
            gid = layout.grade_id(cell)
            if gid in ours:
                continue
            if gid not in known:        # the learner's own cell: plain, whatever it claims
                cell.metadata.pop("nbgrader", None)
            elif cell.cell_type == "code" and cell.metadata.nbgrader.get("grade") \
                    and not cell.metadata.nbgrader.get("solution"):
                cell.outputs = [nbformat.v4.new_output(
                    "error", ename="NotRun", evalue=NOT_RUN, traceback=[NOT_RUN])]
            kept.append(cell)
        nb.cells = kept + restored
        self.write_verdicts(lesson, submission, row, {layout.grade_id(c): c for c in restored})
        return nb, resources

    def graded_here(self, gb, info):
        """The lesson, if this notebook is one of the workbook's lesson notebooks."""
        lesson = lesson_for(info["notebook"])
        if lesson is None:
            return None
        try:
            gb.find_grade_cell(layout.score_id(lesson), info["notebook"], info["assignment"])
        except MissingEntry:
            return None
        return lesson

    def grader_cells(self, gb, lesson, info):
        """The grader's cells as released (from the gradebook), in the export's order."""
        found = []
        for cell in layout.grader_cells(lesson):
            gid = layout.grade_id(cell)
            try:
                source = gb.find_source_cell(gid, info["notebook"], info["assignment"])
            except MissingEntry:
                continue
            cell.source, cell.id = source.source, gid
            cell.metadata.nbgrader["checksum"] = source.checksum
            if cell.metadata.nbgrader["grade"]:
                cell.metadata.nbgrader["points"] = gb.find_grade_cell(
                    gid, info["notebook"], info["assignment"]).max_score
            found.append(cell)
        return found

    def graded(self, lesson, info):
        """(The gradebook row `grader grade` would store for the submitted notebook, its
        classroom.submissions.Submission)."""
        course = CourseDirectory(config=self.config)
        folder = Path(course.format_path(course.submitted_directory, info["student"], "."))
        path = Path(course.format_path(course.submitted_directory, info["student"],
                                       info["assignment"])) / f"{info['notebook']}.ipynb"
        if self.sandboxed:
            try:
                sandbox.bwrap()
            except GraderError as exc:
                raise GradingFailed(f"{exc} (for nbgrader: `c.WorkbookGrading.sandboxed = False` "
                                    "in nbgrader_config.py)") from None
        submission = Submission(info["student"], lesson, path, folder,
                                learnerfiles.entry_at(folder, path))
        with leased(self.sandboxed, preload_for([lesson])) as pool:
            graded, _ = grade_job(submission, pool, None)
        if graded.row["fault"]:     # the grader's failure, never the learner's score
            raise GradingFailed(f"{path}: {graded.row['error']}")
        return graded.row, submission

    def course_file(self, name):
        """A dict `grader export nbgrader` wrote into the course ({} for a course exported
        before it wrote that file)."""
        path = Path(CourseDirectory(config=self.config).root) / name
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def rule(self, lesson):
        """The lesson's points.Rule, as `grader export nbgrader` wrote it into the course."""
        return points.Rule.of_json(self.course_file(layout.POINTS).get(lesson.id))

    def write_verdicts(self, lesson, submission, row, cells):
        """Each block of the learner's feedback into the cell it is about; the score last. With a
        due date in the course, the hand-in time is nbgrader's timestamp.txt (course.handed_in)
        and the late policy applies to the points as on the class route."""
        learner, dates = submission.learner, self.course_file(layout.DATES)
        timing = portable.lesson_timing(dates, learner, lesson.id, *handed_in(submission))
        info = LessonInfo(lesson.id, lesson.entry.number, lesson.entry.title,
                          [title for title, _ in lesson.prose.hints], self.rule(lesson),
                          timing.due)
        cur = Current.of_row(lesson.id, row, submission.path).earn(info.rule)
        cur.timing = timing
        cur.earned *= timing.kept
        _, blocks = feedback.lesson_blocks(ClassView([info], [learner], {(learner, lesson.id): cur},
                                                     []), learner, info)
        texts = {gid: [] for gid in cells}
        hidden, score = f"{lesson.id}-hidden", layout.score_id(lesson)
        for kind, text, _ in blocks:
            where = score
            if kind == "case":
                number = text["name"].removeprefix("example ")
                where = f"{lesson.id}-example-{number}" if text["public"] else hidden
                where = where if where in cells else score
            texts[where] += feedback.block_md(kind, text)
        for gid, cell in cells.items():
            cell.outputs, cell.execution_count = [], None
            lines = texts[gid] or ([] if gid == score else ["(see the score below)"])
            if lines:
                cell.outputs.append(stream("\n".join(lines)))
        most = cells[score].metadata.nbgrader["points"]
        cells[score].outputs += [
            stream(f"Score: {cur.earned:.4g} of {most:g} {'point' if most == 1 else 'points'}"),
            nbformat.v4.new_output("execute_result", data={"text/plain": repr(float(cur.earned))},
                                   execution_count=None)]
