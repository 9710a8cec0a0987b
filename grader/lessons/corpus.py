"""Measure feedback on a corpus of realistic learner answers (tests/learners/NN/*.py).

`right_*.py` must pass; `wrong_*.py` must fail, and the question is how many of them get a
specific explanation: a known mistake, a symptom, or none. The corpus was written from the
lessons' READMEs alone, not from the mistakes or the symptom code, so the rate it gives is an
honest measure of how feedback generalises.
"""
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from grader.judge.grade import grade_file
from grader.runner.workers import Pool, preload_for

from . import build


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
                result = grade_file(lesson, path, pool)
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
