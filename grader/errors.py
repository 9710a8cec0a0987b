"""The error a command reports to its user as a plain message (exit status 2)."""


class GraderError(Exception):
    """Something the user can fix: a missing tool, a bad folder, a refused option."""
