"""Solution regions: the parts of a reference between `### BEGIN SOLUTION` and `### END SOLUTION`."""
import re

REGION = re.compile(r"^([ \t]*)### BEGIN SOLUTION[^\n]*\n.*?^[ \t]*### END SOLUTION[^\n]*\n?", re.S | re.M)
STUB = "{indent}# YOUR CODE HERE\n{indent}raise NotImplementedError(\"not implemented yet\")\n"


class RegionError(ValueError):
    """Unbalanced or missing solution markers."""


def stub(source):
    """The learner's stub: every solution region replaced by `raise NotImplementedError`."""
    begins = source.count("### BEGIN SOLUTION")
    if begins == 0:
        raise RegionError("the reference has no ### BEGIN SOLUTION region")
    if begins != source.count("### END SOLUTION"):
        raise RegionError("### BEGIN SOLUTION and ### END SOLUTION markers do not pair up")
    out, n = REGION.subn(lambda m: STUB.format(indent=m.group(1)), source)
    if n != begins:
        raise RegionError("a solution region is nested or out of order")
    return out



def solution_lines(source):
    """The numbers (from 1) of the lines strictly inside solution regions."""
    inside, lines = False, set()
    for number, line in enumerate(source.splitlines(), 1):
        if line.strip().startswith("### END SOLUTION"):
            inside = False
        elif inside:
            lines.add(number)
        elif line.strip().startswith("### BEGIN SOLUTION"):
            inside = True
    return lines
