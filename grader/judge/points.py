"""A lesson's points: the one definition every route uses (the class gradebook and its exports,
and the score cell of an nbgrader notebook).

A lesson is worth `most(lesson)` points, earned in proportion to its cases that count as passed:
every case weighs the same, and a case without an outcome counts as failed.
"""


def most(lesson):
    """The points a lesson is worth."""
    return 1.0


def earned(lesson, passed):
    """The points earned on `lesson`, given `passed`: {case name: whether the case counts as
    passed}. Names that are not the lesson's cases are ignored."""
    names = [c.name for c in lesson.cases]
    if not names:
        return 0.0
    return most(lesson) * sum(bool(passed.get(n)) for n in names) / len(names)
