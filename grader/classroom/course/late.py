"""Late work: how late a submission is, and what the late policy does with its points.

* `none`: late work counts in full;
* `penalty`: `per_day` of the points lost for each day or part of a day late, never below `floor`;
* `refuse`: work more than `after_days` days late scores 0 (up to then it counts in full).
"""
import json
import math
from dataclasses import asdict, dataclass

from .table import CourseError
from .values import number, table, unknown_keys

POLICIES = ("none", "penalty", "refuse")
DAY = 86400.0


def share(value):
    whole = abs(value * 100 - round(value * 100)) < 1e-6
    return f"{value:.0%}" if whole else f"{value:.2%}"


@dataclass(frozen=True)
class Late:
    policy: str = "none"
    per_day: float = 0.0
    floor: float = 0.0
    after_days: float = 0.0

    @classmethod
    def of(cls, spec, where):
        """The policy a course file's `late` table gives; raises CourseError."""
        if spec is None:
            return NONE
        spec = table(spec, where)
        unknown_keys(spec, {"policy", "per_day", "floor", "after_days"}, where)
        policy = spec.get("policy", "none")
        if policy not in POLICIES:
            raise CourseError(f"{where}: policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        need = {"penalty": ("per_day",), "refuse": ("after_days",), "none": ()}[policy]
        missing = [k for k in need if k not in spec]
        if missing:
            raise CourseError(f"{where}: the {policy} policy needs {', '.join(missing)}")
        return cls(policy, number(spec.get("per_day", 0), f"{where}.per_day", 0, 1),
                   number(spec.get("floor", 0), f"{where}.floor", 0, 1),
                   number(spec.get("after_days", 0), f"{where}.after_days", 0))

    def to_json(self):
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def of_json(cls, text):
        return cls(**json.loads(text)) if text else NONE

    def describe(self):
        if self.policy == "penalty":
            return (f"{share(self.per_day)} of the points off per day late, never below "
                    f"{share(self.floor)}")
        if self.policy == "refuse":
            return f"work more than {self.after_days:g} days late scores 0"
        return "late work counts in full"

    def apply(self, seconds_late):
        """(the share of the points kept, what the policy did, in words) for work handed in
        `seconds_late` after it was due (<= 0: on time)."""
        if seconds_late <= 0:
            return 1.0, "handed in on time"
        days = math.ceil(seconds_late / DAY)
        late = f"handed in {days} day{'s' if days != 1 else ''} late"
        if self.policy == "penalty":
            kept = max(self.floor, 1.0 - self.per_day * days)
            return kept, f"{late}: {share(1 - kept)} of the points off ({self.describe()})"
        if self.policy == "refuse" and seconds_late > self.after_days * DAY:
            return 0.0, f"{late}: not accepted, scored 0 ({self.describe()})"
        return 1.0, f"{late}: counted in full ({self.describe()})"


NONE = Late()
