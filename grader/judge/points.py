"""A lesson's points: the one definition every route uses (the class gradebook and its exports,
Gradescope's results, and the score cell of an nbgrader notebook).

A lesson is worth `Rule.points`, earned by its scoring rule from the cases that count as passed:
`fraction` (the default: in proportion to the cases passed, each weighing `public` or `hidden`
as it is one or the other, or what `weights` gives it by name), or `all` (every point when every
case passes, else none). A case without an outcome counts as failed. A file that could not be
graded earns nothing; one that breaks the lesson's rules keeps `broken_rule` of what its cases
earn (0 by default). With no course file every lesson has the DEFAULT rule: 1 point, every case
weighing the same.
"""
import json
from dataclasses import asdict, dataclass, field

SCORINGS = ("fraction", "all")


@dataclass(frozen=True)
class Rule:
    points: float = 1.0
    scoring: str = "fraction"
    public: float = 1.0             # the weight of a public case not named in `weights`
    hidden: float = 1.0             # the weight of a hidden case not named in `weights`
    weights: dict = field(default_factory=dict)     # case name -> weight
    broken_rule: float = 0.0        # the share of its cases' points a rule-breaking file keeps

    def weight(self, name, public):
        return self.weights.get(name, self.public if public else self.hidden)

    def earned(self, cases, error=False, broken=False):
        """The points earned by `cases`: (name, public, passed) triples; `error`: the file could
        not be graded; `broken`: it breaks a rule of the lesson."""
        cases = list(cases)
        if error or not cases:
            return 0.0
        if self.scoring == "all":
            share = 1.0 if all(passed for _, _, passed in cases) else 0.0
        else:
            total = sum(self.weight(n, p) for n, p, _ in cases)
            share = (sum(self.weight(n, p) for n, p, ok in cases if ok) / total) if total else 0.0
        return self.points * share * (self.broken_rule if broken else 1.0)

    def describe(self):
        """How the points are earned, in words a learner reads."""
        if self.scoring == "all":
            return "all or nothing: every case must pass"
        return "in proportion to the cases passed" + (
            f", hidden cases weighing {self.hidden:g} and public ones {self.public:g}"
            if self.hidden != self.public else ", every case worth the same" if not self.weights
            else "") + (", some cases weighing more (named by the course)" if self.weights else "")

    def to_json(self):
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def of_json(cls, text):
        return cls(**json.loads(text)) if text else DEFAULT


DEFAULT = Rule()


def most(lesson, rule=DEFAULT):
    """The points a lesson is worth."""
    return rule.points


def earned(lesson, passed, rule=DEFAULT):
    """The points earned on `lesson`, given `passed`: {case name: whether the case counts as
    passed}. Names that are not the lesson's cases are ignored."""
    return rule.earned((c.name, c.public, bool(passed.get(c.name))) for c in lesson.cases)
