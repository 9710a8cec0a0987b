"""What running one case produced, whoever ran it (the learner's child or trusted code)."""
from dataclasses import dataclass, field

# Errors the grader reports itself, told apart from the code's exceptions by a mark of their own
# ("grader": True), never by their type's name: a learner's exception class may be called anything.
GRADER_KINDS = frozenset({"MissingFunction", "UnsupportedReturn", "ImportCrash", "ImportTimeout"})


def grader_error(kind, message, trace=()):
    """An error in the grader's own words: `kind` is one of GRADER_KINDS."""
    return {"type": kind, "message": message, "line": None, "trace": list(trace), "grader": True}


def grader_kind(error):
    """The grader's own kind of `error` (one of GRADER_KINDS), or None for an exception of the code
    under test, whatever its class is named."""
    if isinstance(error, dict) and error.get("grader") is True and error.get("type") in GRADER_KINDS:
        return error["type"]
    return None


def last_words(said):
    """How a crash quotes what the process printed last (learner text: public cases only)."""
    return f' (its last words: "{said}")' if said else ""


@dataclass
class Outcome:
    status: str                 # "ok", "error", "timeout", "crash" or "not-run"
    outputs: list = None        # one value per call, when ok
    error: dict = None          # type, message, line, trace: an exception in the code under test
    mutated: list = field(default_factory=list)   # inputs the code changed in place
    stdout: str = ""            # what the code printed during this case (capped)
    detail: str = ""            # why a case timed out, crashed or did not run, in the grader's words
    stdout_lines: int = 0       # how many lines it printed in all, shown or not
    stdout_chars: int = 0       # how many characters it printed in all
    warnings: str = ""          # the warnings it raised (numpy's RuntimeWarnings), as text
    where: list = field(default_factory=list)   # at a time-out: the learner's stack, innermost last
    said: str = ""              # at a crash: the last line the process printed below Python


@dataclass
class Job:
    """The outcomes of one file on one lesson's cases; import_error when the file would not load."""
    outcomes: list
    import_error: dict = None
    import_printed: dict = None  # what the file printed while imported: stdout, stdout_lines, stdout_chars
    channel_error: str = ""     # the child broke the result protocol
    broken: list = field(default_factory=list)   # (rule, line, module): refused by the child's guard
