"""A lesson's clusters as a class view holds them: the unexplained wrong answers of two learners or
more that give the same outputs on every case, largest first (the order `grader cluster` numbers
them in), and how many such answers stand alone."""
from collections import defaultdict
from dataclasses import dataclass

from .signature import PREFIX


@dataclass
class Cluster:
    """Wrong answers that no known mistake or symptom explains and that give the same outputs on
    every case (most likely the same bug): who, one of their files, and how it differs."""
    id: str                         # clusters.signature's digest of their outputs
    learners: list
    representative: str             # the file of the first of them
    difference: str                 # the grader's verdict on its first failed case
    failed: int = 0                 # cases it fails
    cases: int = 0                  # cases in all

    @property
    def name(self):
        return PREFIX + self.id


def of_lesson(v, lesson_id):
    """([Cluster] of two learners or more, largest first; how many answers stand alone) of the
    lesson's current results in the class view `v` (classroom.view.ClassView)."""
    groups = defaultdict(list)
    for learner in v.learners:
        cur = v.current.get((learner, lesson_id))
        if cur is not None and cur.cluster:
            groups[cur.cluster].append(learner)
    found = []
    for cluster, who in groups.items():
        if len(who) > 1:
            first = v.current[who[0], lesson_id]
            failed = [c for c in first.cases if not c["passed"]]
            found.append(Cluster(cluster, who, first.path, failed[0]["verdict"] if failed else "",
                                 len(failed), len(first.cases)))
    found.sort(key=lambda c: (-len(c.learners), c.learners))
    return found, sum(len(who) == 1 for who in groups.values())
