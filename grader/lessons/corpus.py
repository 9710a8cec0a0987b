"""Measure feedback on a corpus of realistic learner answers (tests/learners/NN/*.py).

`right_*.py` must pass; `wrong_*.py` must fail, and the question is how many of them get a
specific explanation: a known mistake, a symptom, or none. The corpus was written from the
lessons' READMEs alone, not from the mistakes or the symptom code, so the rate it gives is an
honest measure of how feedback generalises.

An answer that differs from another in a few functions holds only those: its second line says
`# varies: right_x.py`, and answer_source puts its definitions in place of that answer's.
"""
import ast
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from grader.judge.grade import grade_file
from grader.runner.workers import Pool, preload_for

from . import build

VARIES = "# varies: "


class CorpusError(ValueError):
    """A corpus answer that cannot be read as a whole file."""


def definitions(tree):
    """{name: node} of a module's top-level functions, classes and single-name assignments."""
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = node
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name)):
            found[node.targets[0].id] = node
    return found


def lines_of(node):
    """The node's first and last line (decorators included), counted from 1."""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]), node.end_lineno


def answer_source(path):
    """The whole file a corpus answer stands for: the file itself, or, when its second line says
    `# varies: right_x.py`, that answer with each definition this file holds in place of the one
    of the same name (one it lacks goes at the end), under this file's first line."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    head = text.splitlines(keepends=True)[:2]
    if len(head) < 2 or not head[1].startswith(VARIES):
        return text
    base_path = path.with_name(head[1][len(VARIES):].strip())
    if not base_path.is_file() or base_path == path:
        raise CorpusError(f"{path.name} varies {base_path.name}, which is not another answer here")
    base = base_path.read_text(encoding="utf-8")
    if base.splitlines()[1:2] and base.splitlines()[1].startswith(VARIES):
        raise CorpusError(f"{path.name} varies {base_path.name}, which varies another in turn")
    tree = ast.parse(text, str(path))
    ours = definitions(tree)
    if len(ours) != len(tree.body):
        raise CorpusError(f"{path.name} varies {base_path.name}: it may hold only definitions")
    base_lines, own_lines = base.splitlines(keepends=True), text.splitlines(keepends=True)
    theirs = definitions(ast.parse(base, str(base_path)))

    def own(node):
        first, last = lines_of(node)
        return "".join(own_lines[first - 1:last]).rstrip("\n") + "\n"
    out, line = [head[0]], 1
    for name, node in sorted(((n, d) for n, d in theirs.items() if n in ours),
                             key=lambda item: item[1].lineno):
        first, last = lines_of(node)
        out += base_lines[line - 1:first - 1] + [own(ours[name])]
        line = last + 1
    out += base_lines[line - 1:]
    out += ["\n\n" + own(node) for name, node in ours.items() if name not in theirs]
    return "".join(out)


@dataclass
class Tally:
    lesson: str
    right: int = 0
    right_passed: int = 0
    wrong: int = 0
    wrong_failed: int = 0
    known: int = 0
    symptom: int = 0
    unexplained: list = field(default_factory=list)   # file names of wrong answers left bare
    surprises: list = field(default_factory=list)     # right answers failing, wrong ones passing

    @property
    def explained(self):
        return self.known + self.symptom


def classify(result):
    """'known', 'symptom' or None: how the first explanation of a failing result was given."""
    kinds = Counter("symptom" if d.mistake.startswith("symptom:") else "known" for d in result.diagnosis)
    return "known" if kinds["known"] else ("symptom" if kinds["symptom"] else None)


def measure(roadmap, folder, only=None):
    """A Tally per lesson that has corpus answers in `folder` (sub-folders named by number)."""
    lessons = {f"{l.entry.number:02d}": l for l in build.lessons(roadmap)
               if only is None or l.id in only}
    files = {n: sorted(Path(folder, n).glob("*.py")) for n in lessons if Path(folder, n).is_dir()}
    tallies = []
    with Pool(preload=preload_for([lessons[n] for n in files])) as pool:
        for number, paths in sorted(files.items()):
            lesson, tally = lessons[number], Tally(lessons[number].id)
            for path in paths:
                result = grade_file(lesson, path, pool, data=answer_source(path).encode())
                if path.name.startswith("right_"):
                    tally.right += 1
                    tally.right_passed += result.passed
                    if not result.passed:
                        tally.surprises.append(f"{path.name} (right) fails")
                elif path.name.startswith("wrong_"):
                    tally.wrong += 1
                    if result.passed:
                        tally.surprises.append(f"{path.name} (wrong) passes")
                        continue
                    tally.wrong_failed += 1
                    kind = classify(result)
                    if kind:
                        setattr(tally, kind, getattr(tally, kind) + 1)
                    else:
                        tally.unexplained.append(path.name)
            tallies.append(tally)
    return tallies
