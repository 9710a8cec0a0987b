"""The commands a learner can type, as messages should spell them: the `make` form where there is
one, else the grader in the workbook's own virtual environment (the `grader` command is not on a
learner's PATH). Each works as typed in the workbook's folder."""

GRADER = ".venv/bin/grader"


def make(target, number, **extra):
    """`make TARGET L=NN`, plus any extra variables."""
    more = "".join(f" {k}={v}" for k, v in extra.items())
    return f"make {target} L={number:02d}{more}"
