"""What a class got wrong, from the gradebook as plain data: per lesson who passed, who submitted
nothing, the diagnosed mistakes and how many learners made each, the cases most often failed, and the
submissions that timed out, crashed, broke a rule or could not be graded. The HTML report, its
figures and the terminal summary are all drawn from this."""
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .. import view as class_view

SYMPTOM = "symptom:"


@dataclass
class Mistake:
    """One diagnosis, as made by one or more learners on one lesson."""
    id: str                         # the mistake's name, or symptom:NAME for a likely cause
    learners: list
    messages: list                  # the distinct messages they read (a symptom's may differ)

    @property
    def symptom(self):
        return self.id.startswith(SYMPTOM)

    @property
    def name(self):
        return self.id.removeprefix(SYMPTOM)


@dataclass
class FailedCase:
    name: str
    probe: str
    public: bool
    learners: list                  # who failed it, among the submissions whose code ran


@dataclass
class Problem:
    """A submission that did not simply give answers: what happened, in the grader's words."""
    learner: str
    kind: str                       # see KINDS
    detail: str


KINDS = {"timeout": "timed out", "crash": "crashed", "error": "could not be graded",
         "rule": "broke a rule", "stub": "left the stub unfinished",
         "fault": "the grader failed"}


@dataclass
class LessonReport:
    id: str
    number: int
    title: str
    scores: dict                    # learner -> score from 0 to 1, for those graded (not faults)
    passed: list
    missing: list                   # learners with no submission for this lesson
    mistakes: list = field(default_factory=list)     # Mistake, most learners first
    failed_cases: list = field(default_factory=list)  # FailedCase, most learners first
    ran: int = 0                    # submissions whose code ran the cases
    problems: list = field(default_factory=list)     # Problem

    @property
    def submitted(self):
        return len(self.scores)

    @property
    def pass_rate(self):
        """Passed among those who submitted (None when nobody did)."""
        return len(self.passed) / self.submitted if self.submitted else None

    @property
    def mean_score(self):
        return sum(self.scores.values()) / self.submitted if self.submitted else None

    def problems_of(self, kind):
        return [p for p in self.problems if p.kind == kind]


@dataclass
class ClassReport:
    learners: list
    lessons: list                   # LessonReport, in lesson order
    totals: dict                    # learner -> sum of their lesson scores
    nothing: list                   # learners who submitted nothing for any lesson

    @property
    def lesson_count(self):
        return len(self.lessons)


def case_statuses(db):
    """(learner, lesson) -> [(case name, status)] of each current result, in case order."""
    out = defaultdict(list)
    for learner, lesson, name, status in db.execute(
            "SELECT c.learner, c.lesson, k.name, k.status FROM current c JOIN case_results k "
            "ON k.result = c.result ORDER BY c.learner, c.lesson, k.position"):
        out[learner, lesson].append((name, status))
    return out


def problems(learner, cur, statuses):
    """The Problems of one current result, one per kind (none for code that ran and answered)."""
    if cur.fault:
        return [Problem(learner, "fault", cur.error or "")]
    found = []
    if cur.error:
        found.append(Problem(learner, "error", cur.error))
    for kind in ("timeout", "crash"):
        names = [n for n, s in statuses if s == kind]
        if names:
            found.append(Problem(learner, kind, "on " + ", ".join(names)))
    if cur.violations:
        found.append(Problem(learner, "rule", "\n".join(f"line {v['line']}: {v['message']}"
                                                        for v in cur.violations)))
    if cur.cases and all(c["verdict"] == "not implemented yet" for c in cur.cases):
        found.append(Problem(learner, "stub", f"{len(cur.cases)} cases not implemented yet"))
    return found


def code_ran(cur):
    """Whether the learner's code ran the cases (so each failure says something about it)."""
    return not (cur.error or cur.fault or cur.violations) and not all(
        c["verdict"] == "not implemented yet" or not_run(c) for c in cur.cases)


def not_run(case):
    return case["verdict"].startswith("not run")


def lesson_report(v, lesson, statuses):
    scores, passed, missing = {}, [], []
    diagnosed = defaultdict(lambda: ([], []))
    failed = {}
    report = LessonReport(lesson.id, lesson.number, lesson.title, scores, passed, missing)
    for learner in v.learners:
        cur = v.current.get((learner, lesson.id))
        if cur is None:
            if not any(u[1] == lesson.id and u[2] for u in v.notes(learner)):
                missing.append(learner)
            continue
        report.problems += problems(learner, cur, statuses.get((learner, lesson.id), []))
        if cur.fault:               # no score, as in grades.csv: the next run grades it again
            continue
        scores[learner] = cur.score
        if cur.passed:
            passed.append(learner)
        for d in cur.diagnosis:
            who, messages = diagnosed[d["mistake"]]
            who.append(learner)
            if d["message"] not in messages:
                messages.append(d["message"])
        if code_ran(cur):
            report.ran += 1
            for c in cur.cases:
                if not c["passed"] and not not_run(c):
                    failed.setdefault(c["name"], FailedCase(c["name"], c["probe"], c["public"], []))
                    failed[c["name"]].learners.append(learner)
    report.mistakes = sorted((Mistake(m, who, msgs) for m, (who, msgs) in diagnosed.items()),
                             key=lambda m: (-len(m.learners), m.symptom, m.id))
    report.failed_cases = sorted(failed.values(), key=lambda c: -len(c.learners))
    return report


def build(db):
    """The ClassReport of the gradebook open on `db`."""
    v = class_view.load(db)
    statuses = case_statuses(db)
    lessons = [lesson_report(v, lesson, statuses) for lesson in v.lessons]
    totals = Counter()
    for (learner, _), cur in v.current.items():
        totals[learner] += 0 if cur.fault else cur.score
    graded = {learner for learner, _ in v.current}
    nothing = [l for l in v.learners if l not in graded
               and not any(u[2] for u in v.notes(l))]
    return ClassReport(v.learners, lessons, {l: totals[l] for l in v.learners}, nothing)
