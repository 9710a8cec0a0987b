"""What running one case produced, whoever ran it (the learner's child or trusted code)."""
from dataclasses import dataclass, field


@dataclass
class Outcome:
    status: str                 # "ok", "error", "timeout", "crash" or "not-run"
    outputs: list = None        # one value per call, when ok
    error: dict = None          # type, message, line, trace: an exception in the code under test
    mutated: list = field(default_factory=list)   # inputs the code changed in place
    stdout: str = ""            # what the code printed during this case (capped)
    detail: str = ""            # why a case timed out, crashed or did not run
    stdout_lines: int = 0       # how many lines it printed in all, shown or not
    stdout_chars: int = 0       # how many characters it printed in all
    warnings: str = ""          # the warnings it raised (numpy's RuntimeWarnings), as text
    where: list = field(default_factory=list)   # at a time-out: the learner's stack, innermost last


@dataclass
class Job:
    """The outcomes of one file on one lesson's cases; import_error when the file would not load."""
    outcomes: list
    import_error: dict = None
    import_printed: dict = None  # what the file printed while imported: stdout, stdout_lines, stdout_chars
    channel_error: str = ""     # the child broke the result protocol
    broken: list = field(default_factory=list)   # (rule, line, module): refused by the child's guard
