"""What running one case produced, whoever ran it (the learner's child or trusted code)."""
from dataclasses import dataclass, field


@dataclass
class Outcome:
    status: str                 # "ok", "error", "timeout", "crash" or "not-run"
    outputs: list = None        # one value per call, when ok
    error: dict = None          # type, message, line, trace: an exception in the code under test
    mutated: list = field(default_factory=list)   # inputs the code changed in place
    stdout: str = ""            # what the code printed during this case
    detail: str = ""            # why a case timed out, crashed or did not run


@dataclass
class Job:
    """The outcomes of one file on one lesson's cases; import_error when the file would not load."""
    outcomes: list
    import_error: dict = None
    import_stdout: str = ""
    channel_error: str = ""     # the child broke the result protocol
