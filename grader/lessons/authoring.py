"""What a lesson author writes with: the lesson's rules, its cases and its known mistakes.

A lesson's hidden test file (`solutions/NN-slug/hidden_cases.py`) defines `SPEC = Spec(...)` and
`def cases(rng)`, which yields `case(...)`s; SPEC's `promises` hold its Your turn section to the
cases, one `promise(...)` for each thing the contract promises. Its mistakes file (`mistakes.py`)
decorates wrong variants of the learner's functions with `@mistake(...)`.
"""
import re
from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Spec:
    """A lesson's grading rules.

    functions: the functions the learner writes (the entry points), in the order taught.
    rtol, atol: how close an answer must be to the reference's.
    no_loops: "No loops": no for/while/comprehension inside the learner's functions.
    forbidden: names the learner's file may not use, each with the reason shown.
    timeout: seconds a single case may take.
    hint_topics: per hint tier, in order, the words that tier is about (each must appear in the
        tier's text). A mistake or case that names hint N must mention one of tier N's topics (in
        its message, or its name or probe), so that the pointer leads to the hint that addresses it.
    promises: what the Your turn section promises, as `promise(...)`s: each quotes the contract,
        names the cases that hold an answer to it, and what breaks it (see Promise).
    """

    functions: tuple
    rtol: float = 1e-6
    atol: float = 1e-9
    no_loops: bool = False
    forbidden: dict = field(default_factory=dict)
    timeout: float = 5.0
    hint_topics: tuple = ()
    promises: tuple = ()


@dataclass(frozen=True)
class Edit:
    """A small change of the reference: the text `old`, found once in a solution region, becomes
    `new` (a slip written as the learner would make it)."""
    old: str
    new: str


def edit(old, new):
    return Edit(old, new)


@dataclass(frozen=True)
class Promise:
    """One promise of a lesson's contract, with its proof.

    says: the promise, quoted from the lesson's Your turn or Examples section (a sentence, or the
        part of one that promises; backticks, emphasis and line breaks aside).
    cases: the names of the cases (property checks included; "example 2" for a public one) that
        hold an answer to it.
    broken_by: answers that break it: ids of mistakes in mistakes.py, or `edit(old, new)`s of the
        reference. `make verify` proves that each fails one of `cases`, on every seed.
    """
    says: str
    cases: tuple
    broken_by: tuple


def promise(says, cases, broken_by):
    """`promise("...", cases=("case name", ...), broken_by=("mistake-id", edit("a", "b")))`."""
    as_tuple = lambda v: (v,) if isinstance(v, (str, Edit)) else tuple(v)
    return Promise(says, as_tuple(cases), as_tuple(broken_by))


@dataclass(frozen=True)
class Call:
    fn: str
    args: tuple
    kwargs: dict


def call(fn, *args, **kwargs):
    """One call of an entry point: `call("softmax", x, axis=0)`."""
    return Call(fn, args, kwargs)


@dataclass(frozen=True)
class Case:
    """A graded case: one or more calls, judged against the reference's answers.

    probe: what the case probes, shown for hidden cases instead of their inputs.
    check: a property check `check(got, expected, calls) -> str | None` replacing the comparison:
        got and expected are lists of outputs, one per call; a string is the failure message.
    float_errors: numpy floating-point warnings (overflow, invalid, divide) raise errors.
    hint: the hint tier that addresses what this case probes.
    part: the one part of the lesson this case runs alone (e.g. "the MLP sub-layer" when the
        attention's output projection is zero), so a diagnosis can say which part is wrong.
    raises: the name of an exception type (e.g. "ValueError") that the case's call must raise;
        the case passes when the code under test raises exactly that type, as the reference does.
    traits: short phrases for what sets the case apart from the others, read after "the cases
        with" (e.g. "fewer queries than keys"), so a diagnosis can say so when exactly the cases
        that share a trait fail.
    """

    name: str
    calls: tuple
    probe: str = ""
    public: bool = False
    check: Callable = None
    float_errors: bool = False
    hint: int = None
    raises: str = None
    part: str = None
    traits: tuple = ()


def case(name, *calls, **options):
    """A case named `name` made of `calls`; see Case for the options."""
    return Case(name, calls, **options)


@dataclass
class Mistake:
    id: str
    message: str
    hint: int = None
    functions: dict = field(default_factory=dict)


MISTAKES = {}


def mistake(id, message=None, hint=None):
    """Mark a function as a known wrong variant of the learner function of the same name.

    Several functions may share one id (a mistake spanning functions); the first gives the message.
    The variant runs in a copy of the reference module, so the learner's other functions calling it
    see the mistake, as they would in the learner's file.
    """
    def register(fn):
        entry = MISTAKES.setdefault(fn.__module__, {}).setdefault(id, Mistake(id, None, hint))
        entry.message = entry.message or (message and re.sub(r"\s*\n\s*", " ", message.strip()))
        entry.hint = entry.hint or hint
        entry.functions[fn.__name__] = fn
        return fn
    return register
