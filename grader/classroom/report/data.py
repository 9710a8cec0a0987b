"""What a class got wrong, from the gradebook as plain data: per lesson who passed, who submitted
nothing, the diagnosed mistakes and how many learners made each, the cases most often failed, and the
submissions that timed out, crashed, broke a rule or could not be graded. The HTML report, its
figures and the terminal summary are all drawn from this."""
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

from .. import view as class_view
from ..clusters import groups
from ..clusters.signature import code_ran, not_run
from ..course.handed_in import SOURCES

SYMPTOM = "symptom:"


# What a likely cause found, at a glance (the symptom's message says it in full).
TITLES = {"type": "returns the wrong kind of value", "float32": "computed in float32",
          "transposed": "right values, axes in another order", "extra-axis":
          "an axis of size 1 added or missing", "reshaped": "right values, in another shape",
          "rearranged": "right numbers, arranged differently", "rearranged-part":
          "part of the answer in another order", "returns-input": "returns its input unchanged",
          "factor": "the answer times a constant factor", "offset": "the answer plus a constant",
          "row-factor": "each row times a factor of its own", "column-factor":
          "each feature times a factor of its own", "column-affine":
          "each feature scaled and shifted", "log": "the logarithm of the answer",
          "exp": "the exponential of the answer", "clipped": "clipped to a range",
          "zeros-wrong": "wrong only where the answer is 0", "zeroed":
          "entries set to 0 that should not be", "first-item-only":
          "only the first item of a batch right", "eps": "eps in the wrong place",
          "in-place": "changes its input in place", "wrong-exception":
          "raises the wrong kind of exception", "check-too-strict": "its own check is too strict"}
LEADS = ("On every failing case ", "On the failing case ")
MAX_FINDING = 70


def clause(text):
    """The first clause of a message, without a count in brackets at its end, capped."""
    for stop in (": ", "; ", ". "):
        text = text.split(stop, 1)[0]
    if text.endswith(")") and " (" in text:
        text = text.rsplit(" (", 1)[0]
    text = text.rstrip(".")
    return text if len(text) <= MAX_FINDING else text[:MAX_FINDING - 1] + "…"


def finding(mistake, message):
    """A diagnosis at a glance: a known mistake's name, or what a likely cause found (the function
    or part that is wrong, the kind of error, how the answers relate to the expected ones)."""
    if not mistake.startswith(SYMPTOM):
        return mistake
    name = mistake.removeprefix(SYMPTOM)
    text = " ".join(message.replace("`", "").split())
    if name == "unfinished":
        return text.split(" still raises", 1)[0][:MAX_FINDING] + " not written yet"
    if name == "part" and "the difference is in " in text:
        return "wrong in " + clause(text.rsplit("the difference is in ", 1)[1])
    if name in TITLES:
        return TITLES[name]
    for lead in LEADS:
        text = text.removeprefix(lead)
    if " raised this kind" in text and ": " in text:        # an error the grader recognised
        text = text.split(": ", 1)[1]
    found = clause(text)
    return found[:1].upper() + found[1:] if found else name


@dataclass
class Mistake:
    """One diagnosis, as made by one or more learners on one lesson."""
    id: str                         # the mistake's name, or symptom:NAME for a likely cause
    learners: list
    messages: list                  # the distinct messages they read (a symptom's may differ)
    label: str = None               # what it found, at a glance (default: its name)

    @property
    def symptom(self):
        return self.id.startswith(SYMPTOM)

    @property
    def name(self):
        return self.label or self.id.removeprefix(SYMPTOM)


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
    scores: dict                    # learner -> score from 0 to 1, for work handed in (not the
                                    # untouched stub, not a grader fault)
    passed: list
    missing: list                   # learners with no submission for this lesson
    mistakes: list = field(default_factory=list)     # Mistake, most learners first
    failed_cases: list = field(default_factory=list)  # FailedCase, most learners first
    ran: int = 0                    # submissions whose code ran the cases
    problems: list = field(default_factory=list)     # Problem
    stubs: list = field(default_factory=list)        # learners who handed in the stub untouched
    clusters: list = field(default_factory=list)     # clusters.groups.Cluster, largest first
    alone: int = 0                  # unexplained wrong answers that no other learner's matches

    @property
    def submitted(self):
        """Work handed in: untouched stubs are counted apart (`stubs`)."""
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
    ungradable: dict = field(default_factory=dict)  # learner -> [(file, why)], who handed in only
                                                    # files that could not be graded
    only_stubs: list = field(default_factory=list)  # learners who handed in untouched stubs only
    ungraded: list = field(default_factory=list)    # (learner, lesson, file, why) of every file
                                                    # not graded: archives, misnamed, duplicates
    withdrawn: list = field(default_factory=list)   # learners left out: their folder is gone
    off_roster: list = field(default_factory=list)  # graded from a folder not on the roster
    handed_in_from: dict = field(default_factory=dict)  # where hand-in times came from -> learners

    @property
    def lesson_count(self):
        return len(self.lessons)


class CaseRow(NamedTuple):
    name: str
    status: str                     # "ok", or how the run went wrong ("timeout", "crash", ...)


def current_cases(db):
    """(learner, lesson) -> [CaseRow] of each current result, in case order."""
    out = defaultdict(list)
    for learner, lesson, name, status in db.execute(
            "SELECT c.learner, c.lesson, k.name, k.status FROM current c JOIN case_results k "
            "ON k.result = c.result ORDER BY c.learner, c.lesson, k.position"):
        out[learner, lesson].append(CaseRow(name, status))
    return out


def problems(learner, cur, cases):
    """The Problems of one current result, one per kind (none for code that ran and answered)."""
    if cur.fault:
        return [Problem(learner, "fault", cur.error or "")]
    found = []
    if cur.error:
        found.append(Problem(learner, "error", cur.error))
    for kind in ("timeout", "crash"):
        names = [c.name for c in cases if c.status == kind]
        if names:
            found.append(Problem(learner, kind, "on " + ", ".join(names)))
    if cur.violations:
        found.append(Problem(learner, "rule", "\n".join(f"line {v['line']}: {v['message']}"
                                                        for v in cur.violations)))
    if is_stub(cur):
        found.append(Problem(learner, "stub", f"{len(cur.cases)} cases not implemented yet"))
    return found


def is_stub(cur):
    """Whether a result is of the lesson's stub, untouched: every case not implemented yet."""
    return bool(cur.cases) and all(c["verdict"] == "not implemented yet" for c in cur.cases)


def lesson_report(v, lesson, cases):
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
        report.problems += problems(learner, cur, cases.get((learner, lesson.id), []))
        if cur.fault:               # no score, as in grades.csv: the next run grades it again
            continue
        if is_stub(cur):
            report.stubs.append(learner)
            continue
        scores[learner] = cur.score
        if cur.passed:
            passed.append(learner)
        for d in cur.diagnosis:
            who, messages = diagnosed[d["mistake"], finding(d["mistake"], d["message"])]
            who.append(learner)
            if d["message"] not in messages:
                messages.append(d["message"])
        if code_ran(cur):
            report.ran += 1
            for c in cur.cases:
                if not c["passed"] and not not_run(c):
                    failed.setdefault(c["name"], FailedCase(c["name"], c["probe"], c["public"], []))
                    failed[c["name"]].learners.append(learner)
    report.mistakes = sorted((Mistake(m, who, msgs, label) for (m, label), (who, msgs)
                              in diagnosed.items()),
                             key=lambda m: (-len(m.learners), m.symptom, m.id, m.name))
    report.failed_cases = sorted(failed.values(), key=lambda c: -len(c.learners))
    report.clusters, report.alone = groups.of_lesson(v, lesson.id)
    return report


def time_sources(v):
    """{what a hand-in time was read from (in words): the learners it was read from for}."""
    found = defaultdict(set)
    for (learner, _), cur in v.current.items():
        if cur.timing is not None and cur.timing.source:
            found[SOURCES[cur.timing.source]].add(learner)
    return {source: sorted(who) for source, who in sorted(found.items())}


def build(db):
    """The ClassReport of the gradebook open on `db`: the class as it is now (learners whose
    folder is gone are left out, and named)."""
    whole = class_view.load(db)
    v = whole.present()
    cases = current_cases(db)
    lessons = [lesson_report(v, lesson, cases) for lesson in v.lessons]
    totals = Counter()
    for learner in v.learners:
        totals[learner] += sum(v.earned(learner, l.id) or 0 for l in v.lessons)
    graded = {learner for learner, _ in v.current}
    files = {l: [(u[2], u[3]) for u in v.notes(l) if u[2]] for l in v.learners}
    nothing = [l for l in v.learners if l not in graded and not files[l]]
    ungradable = {l: files[l] for l in v.learners if l not in graded and files[l]}
    stubbed = {l for lesson in lessons for l in lesson.stubs}
    worked = {l for lesson in lessons for l in lesson.scores}
    only_stubs = [l for l in v.learners if l in stubbed and l not in worked]
    return ClassReport(v.learners, lessons, {l: totals[l] for l in v.learners}, nothing,
                       ungradable, only_stubs, [u for u in v.ungraded if u[2]],
                       sorted(whole.withdrawn), sorted(v.off_roster), time_sources(v))
