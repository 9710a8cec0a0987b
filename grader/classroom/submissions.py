"""Find a class's submissions: one folder per learner, each with its lesson folders.

A learner's folder holds lesson folders named as in exercises/ (`01-softmax/solution.py`), or its
whole `exercises/` tree, or files named by lesson (`01-softmax.py`), or notebooks
(`01-softmax.ipynb`, also in nbgrader's `submitted/<learner>/<assignment>/` layout). A SUBMISSIONS
folder that is itself one learner's tree is graded as that one learner.
"""
from dataclasses import dataclass
from pathlib import Path

from grader.errors import GraderError
from grader.notebooks.read import learners_folder, notebook_file


@dataclass(frozen=True)
class Submission:
    learner: str
    lesson: object      # grader.lesson.Lesson
    path: Path
    folder: Path        # the learner's folder

    @property
    def problem(self):
        """Why the file cannot be graded as this learner's own, or None."""
        if not self.path.resolve().is_relative_to(self.folder.resolve()):
            return ("the submission is a link to a file outside the learner's folder; submit the "
                    "file itself")
        return None


def lesson_file(folder, lesson):
    """The learner's file for `lesson` in `folder`, or None."""
    for base in (folder / "exercises", folder):
        for path in (base / lesson.id / "solution.py", base / f"{lesson.id}.py"):
            if path.is_file():
                return path
    return notebook_file(folder, lesson)


def holds_lessons(folder, lessons):
    return any(lesson_file(folder, lesson) for lesson in lessons)


def discover(root, lessons):
    """(learner ids in order, their submissions) under `root`; raises GraderError on a bad folder."""
    root = learners_folder(Path(root))
    if not root.is_dir():
        raise GraderError(f"{root} is not a folder of submissions (one folder per learner)")
    if holds_lessons(root, lessons):
        folders = [((root.parent if root.name == "exercises" else root).name, root)]
    else:
        folders = [(p.name, p) for p in sorted(root.iterdir())
                   if p.is_dir() and not p.name.startswith((".", "_"))]
    if not folders:
        raise GraderError(f"{root} holds no learner folders: put each learner's lesson folders "
                          "(01-softmax/solution.py, ...) in a folder named after the learner")
    found = [Submission(name, lesson, path, folder) for name, folder in folders
             for lesson in lessons if (path := lesson_file(folder, lesson)) is not None]
    return [name for name, _ in folders], found
