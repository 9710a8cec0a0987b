"""The class as the gradebook holds it now: every export and feedback page is built from this, never
from a run's memory."""
import json
from dataclasses import dataclass, field, replace

from grader.judge.points import DEFAULT, Rule
from .clusters import signature
from .course import dates, mistake_notes, notes as course_notes, published as course_published
from .course.extensions import Extension
from .course.late import Late
from .course.roster import Member
from .course.schedule import Timing, timing


@dataclass
class LessonInfo:
    id: str
    number: int
    title: str
    hints: list
    rule: Rule = DEFAULT            # its points and how they are earned (grader.judge.points)
    due: object = None              # an aware datetime, or None
    late: Late = None               # the late policy (course.late)
    released: bool = True           # its feedback may leave (Gradescope, LMS exports)
    never_lower: bool = False       # a regrade keeps its published points (course.published)

    @property
    def points(self):
        return self.rule.points


@dataclass
class Current:
    """A learner x lesson's current result, as stored."""
    lesson: str
    score: float
    passed: bool
    cases_passed: int
    cases_total: int
    error: str              # for the instructor
    feedback_error: str     # what the learner reads
    error_line: int
    fault: bool
    hint: int
    violations: list
    diagnosis: list
    graded_at: str
    path: str
    cases: list = field(default_factory=list)    # dicts: name, public, passed, verdict, probe, shown
    notes: list = field(default_factory=list)    # for the learner; they never change the score
    earned: float = None    # the points this result earns, under its lesson's rule
    timing: Timing = None   # when it was handed in and due, and what the late policy did
    sha256: str = None      # of the submission graded
    cluster: str = None     # the id of the cluster of unexplained wrong answers it falls in
                            # (clusters.signature; None: it is not one)

    def __post_init__(self):
        if self.earned is None:
            self.earned = self.score

    def earn(self, rule):
        """Set `earned`: the points `rule` gives these cases (grader.judge.points); under the
        default rule, the score the result was graded with."""
        self.earned = self.score if rule == DEFAULT else rule.earned(
            ((c["name"], c["public"], c["passed"]) for c in self.cases),
            error=bool(self.error), broken=bool(self.violations))
        return self

    @classmethod
    def of_row(cls, lesson, row, path, graded_at=""):
        """The Current a gradebook row (classroom.jobs.result_row) becomes once stored."""
        return cls(lesson, row["score"], row["passed"], row["cases_passed"], len(row["cases"]),
                   row["error"], row["feedback_error"] or row["error"], row["error_line"],
                   row["fault"], row["hint"], row["violations"], row["diagnosis"], graded_at,
                   str(path), [case_view(c["name"], c["public"], c["passed"], c["verdict"],
                                         c["probe"], c["shown"]) for c in row["cases"]],
                   list(row.get("notes") or []), row["score"])


def case_view(name, public, passed, verdict, probe, shown):
    """A case as feedback reads it (`shown`: a dict, or its JSON as stored)."""
    if isinstance(shown, str):
        shown = json.loads(shown)
    return {"name": name, "public": bool(public), "passed": bool(passed),
            "verdict": verdict or ("passed" if passed else "failed"), "probe": probe or "",
            "shown": shown if shown and public else {}}


@dataclass
class ClassView:
    lessons: list                   # LessonInfo, in lesson order
    learners: list
    current: dict                   # (learner, lesson id) -> Current
    ungraded: list                  # (learner, lesson, path, reason)
    withdrawn: set = field(default_factory=set)     # learners whose folder is gone
    roster: dict = field(default_factory=dict)      # learner -> course.roster.Member (may be empty)
    overrides: dict = field(default_factory=dict)   # (learner, lesson) -> course.notes.Override
    comments: dict = field(default_factory=dict)    # (learner, lesson) -> [course.notes.Comment]
    mistake_notes: dict = field(default_factory=dict)   # lesson -> {mistake: MistakeNote}
    published: dict = field(default_factory=dict)   # (learner, lesson) -> published.Published

    def earned(self, learner, lesson_id):
        """The points learner x lesson counts for: the instructor's override, else the published
        points a regrade may not lower (course.published), else what it scores."""
        override = self.overrides.get((learner, lesson_id))
        if override is not None:
            return override.score
        kept = self.kept(learner, lesson_id)
        return self.scored(learner, lesson_id) if kept is None else kept

    def kept(self, learner, lesson_id):
        """The published points kept in place of lower ones this submission now scores (with
        never_lower, and no override), or None."""
        info = next((l for l in self.lessons if l.id == lesson_id), None)
        if info is None or not info.never_lower or (learner, lesson_id) in self.overrides:
            return None
        return course_published.kept(self.published.get((learner, lesson_id)),
                                     self.current.get((learner, lesson_id)),
                                     self.scored(learner, lesson_id))

    def scored(self, learner, lesson_id):
        """The current result's points with those of the mistake notes it carries, kept within the
        lesson's (None: nothing graded, or the grader failed)."""
        cur = self.current.get((learner, lesson_id))
        if cur is None or cur.fault:
            return None
        shift = sum(n.points or 0 for n in self.notes_on_mistakes(learner, lesson_id))
        if not shift:
            return cur.earned
        worth = next((l.points for l in self.lessons if l.id == lesson_id), cur.earned)
        return min(max(cur.earned + shift, 0.0), worth)

    def notes_on_mistakes(self, learner, lesson_id):
        """The instructor's mistake notes learner x lesson's current result carries."""
        return mistake_notes.carried(self.mistake_notes.get(lesson_id, {}),
                                     self.current.get((learner, lesson_id)))

    def override_stale(self, learner, lesson_id):
        """Whether the submission an override was made for has changed since."""
        override = self.overrides.get((learner, lesson_id))
        cur = self.current.get((learner, lesson_id))
        return override is not None and (cur.sha256 if cur else None) != override.sha256

    @property
    def off_roster(self):
        """Learners graded from a folder whose id is not on the roster (none without a roster)."""
        return {l for l in self.learners if self.roster and l not in self.roster}

    def status(self, learner):
        """What grades.csv's `status` says of `learner` ("" for a learner on the roster, present)."""
        if learner in self.withdrawn:
            return "withdrawn"
        return "not on the roster" if learner in self.off_roster else ""

    def present(self):
        """The view without the learners who withdrew (their history stays in the gradebook)."""
        return replace(self, learners=[l for l in self.learners if l not in self.withdrawn],
                       current={k: c for k, c in self.current.items() if k[0] not in self.withdrawn},
                       ungraded=[u for u in self.ungraded if u[0] not in self.withdrawn],
                       withdrawn=set())

    def released(self):
        """The view of the lessons whose feedback may leave: what Gradescope and the LMS get."""
        ids = {l.id for l in self.lessons if l.released}
        return replace(self, lessons=[l for l in self.lessons if l.id in ids],
                       current={k: c for k, c in self.current.items() if k[1] in ids})

    def lesson(self, lesson_id):
        return next(l for l in self.lessons if l.id == lesson_id)

    def notes(self, learner):
        return [u for u in self.ungraded if u[0] == learner]


def load(db):
    released = {lesson for (lesson,) in db.execute("SELECT lesson FROM releases")}
    lessons = [LessonInfo(i, n, t, json.loads(h), Rule.of_json(rule), dates.of_text(due),
                          Late.of_json(late), not held or i in released, bool(never_lower))
               for i, n, t, h, rule, due, late, held, never_lower in db.execute(
                   "SELECT id, number, title, hints, rule, due, late, held, never_lower FROM "
                   "lessons ORDER BY number, id")]
    info = {l.id: l for l in lessons}
    extensions = {(e.learner, e.lesson): e for e in (Extension(*row) for row in db.execute(
        "SELECT learner, lesson, due, days FROM extensions"))}
    people = db.execute("SELECT id, withdrawn FROM learners ORDER BY id").fetchall()
    learners = [l for l, _ in people]
    current = {}
    rows = db.execute(
        "SELECT c.learner, c.lesson, r.id, r.score, r.passed, r.cases_passed, r.cases_total, r.error, "
        "COALESCE(r.feedback_error, r.error), r.error_line, r.fault, r.hint, r.violations, "
        "r.diagnosis, r.graded_at, s.path, r.notes, s.handed_in, s.handed_in_from, s.sha256 "
        "FROM current c "
        "JOIN results r ON r.id = c.result JOIN submissions s ON s.id = r.submission")
    by_id = {}
    for (learner, lesson, rid, score, passed, cp, ct, error, ferror, line, fault, hint, violations,
         diagnosis, at, path, notes, handed_in, source, sha) in rows.fetchall():
        cur = Current(lesson, score, bool(passed), cp, ct, error, ferror, line, bool(fault), hint,
                      json.loads(violations), json.loads(diagnosis), at, path,
                      notes=json.loads(notes or "[]"), sha256=sha)
        known = info.get(lesson) or LessonInfo(lesson, 0, lesson, [])
        cur.timing = timing(known.due, known.late, extensions, learner, lesson,
                            dates.of_text(handed_in), source)
        current[learner, lesson] = by_id[rid] = cur
    outputs = {rid: [] for rid in by_id}
    for rid, *case, output in db.execute(
            "SELECT result, name, public, passed, verdict, probe, shown, output FROM case_results "
            "WHERE result IN (SELECT result FROM current) ORDER BY result, position"):
        by_id[rid].cases.append(case_view(*case))
        outputs[rid].append((case[0], case[2], output))
    for rid, cur in by_id.items():
        cur.cluster = signature.of_result(cur, outputs[rid])
    for (learner, lesson), cur in current.items():
        cur.earn(info[lesson].rule if lesson in info else DEFAULT)
        cur.earned *= cur.timing.kept
    ungraded = db.execute("SELECT learner, lesson, path, reason FROM ungraded "
                          "ORDER BY learner, lesson, path").fetchall()
    roster = {row[0]: Member(*row) for row in db.execute(
        "SELECT id, name, email, section, sis_id FROM roster ORDER BY rowid")}
    return ClassView(lessons, learners, current, ungraded, {l for l, gone in people if gone},
                     roster, *course_notes.load(db), mistake_notes.load(db),
                     course_published.load(db))
