"""A result's place in time: when it was handed in (and how that is known), when it was due (the
lesson's due date, or the learner's extension), and what the late policy made of it."""
from dataclasses import dataclass

from . import dates
from .extensions import EVERY
from .handed_in import SOURCES
from .late import NONE


@dataclass
class Timing:
    handed_in: object = None        # aware datetime, or None when nothing says
    source: str = None              # a handed_in.SOURCES key
    due: object = None              # aware datetime, or None: no due date
    extension: str = ""             # how an extension moved the due date, in words
    kept: float = 1.0               # the share of the points the late policy leaves
    verdict: str = ""               # what the late policy did, in words

    def lines(self):
        """What the learner's feedback says about it."""
        out = []
        if self.handed_in is not None:
            out.append(f"Handed in {dates.shown(self.handed_in)} ({SOURCES[self.source]}).")
        if self.due is not None:
            out.append(f"Due {dates.shown(self.due)}" + (f" ({self.extension})" if self.extension
                                                         else "") + ".")
        if self.verdict:
            out.append(self.verdict[:1].upper() + self.verdict[1:] + ".")
        return out


def timing(due, policy, extensions, learner, lesson_id, handed_in, source):
    """The Timing of `learner`'s result on `lesson_id`: `due` (the lesson's, or None), `policy`
    (a late.Late, or None), `extensions` {(learner, lesson id or EVERY): Extension}."""
    ext = extensions.get((learner, lesson_id)) or extensions.get((learner, EVERY))
    if ext is not None:
        due = ext.applied(due)
    found = Timing(handed_in, source, due, ext.describe() if ext and due else "")
    if due is None or handed_in is None:
        return found
    found.kept, found.verdict = (policy or NONE).apply((handed_in - due).total_seconds())
    return found
