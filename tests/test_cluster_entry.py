"""The entry `grader cluster --promote` writes into a lesson's mistakes.py, composed from an answer's
syntax tree (never run): the functions that differ from the reference, marked with the new id (the
lesson's function with the message), the imports and names they need; the file's own content kept;
names already used, bad ids and answers an entry cannot hold refused."""
import ast
import re

import pytest
from hypothesis import given, strategies as st

from grader.classroom.clusters.entry import EntryError, compose, mistake_ids
from mixed_class import ROOT, reference

SOFTMAX = ROOT / "solutions" / "01-softmax"
MISTAKES = (SOFTMAX / "mistakes.py").read_text()
REFERENCE = reference("01-softmax")
ANSWER = '''"""My softmax."""
import numpy as np
import math, os.path as osp
from math import sqrt as root
from .mine import thing
SCALE = 3

def uniform(x):
    return np.ones_like(x)

def softmax(x, axis=-1):
    """Softmax, I think."""
    x = np.asarray(x, dtype=float)
    return uniform(x) / x.shape[axis] * SCALE / 3

if __name__ == "__main__":
    print(softmax([1.0, 2.0]))
'''


def written(text, name):
    """{function name: its @mistake(...) call} of the entries marked `name` in a mistakes file."""
    found = {}
    for node in ast.parse(text).body:
        for d in getattr(node, "decorator_list", []):
            if isinstance(d, ast.Call) and d.args and getattr(d.args[0], "value", None) == name:
                found[node.name] = d
    return found


def message_of(call):
    value = next((k.value for k in call.keywords if k.arg == "message"), None)
    return None if value is None else ast.literal_eval(value)


def test_an_entry_holds_what_the_answer_changed_and_what_it_needs_and_keeps_the_file():
    made = compose(MISTAKES, REFERENCE, ANSWER, "uniform-weights", "Your weights are uniform.",
                   "From cluster:0123abcd", ("softmax",))
    assert made.functions == ["uniform", "softmax"]
    calls = written(made.text, "uniform-weights")
    assert list(calls) == ["uniform", "softmax"]
    assert message_of(calls["softmax"]) == "Your weights are uniform."
    assert message_of(calls["uniform"]) is None
    assert made.imports == ["import math", "import os.path as osp", "from math import sqrt as root"]
    head = made.text.split("from grader.lessons.authoring import mistake")[0]
    assert all(line in head.splitlines() for line in made.imports)      # in the import block
    assert "SCALE = 3\n" in made.text and "if __name__" not in made.text
    assert [w.split(":")[0] for w in made.left_out] == ["line 5", "line 16"]
    kept = [line for line in made.text.splitlines() if line not in made.imports]
    assert kept[:len(MISTAKES.splitlines())] == MISTAKES.splitlines()
    assert mistake_ids(ast.parse(made.text)) == mistake_ids(ast.parse(MISTAKES)) + [
        "uniform-weights"]
    assert "# From cluster:0123abcd\n" in made.text


def test_without_a_message_the_entry_says_where_to_write_it():
    made = compose(MISTAKES, REFERENCE, ANSWER, "uniform-weights", None, "x", ("softmax",))
    assert message_of(written(made.text, "uniform-weights")["softmax"]) is None
    assert re.search(r'@mistake\("uniform-weights", message=None\)  # write in', made.text)


@pytest.mark.parametrize("answer, words", [
    (REFERENCE, "defines no function that differs"),
    ("import numpy as np\nSCALE = 3\n", "defines no function that differs"),
    ("def softmax(x, axis=-1:\n    return x\n", "the answer does not parse"),
    ("def mistake(x):\n    return x\n\ndef softmax(x, axis=-1):\n    return mistake(x)\n",
     "has the name of a helper the lesson's mistakes.py keeps"),
])
def test_an_answer_an_entry_cannot_hold_is_refused(answer, words):
    with pytest.raises(EntryError, match=re.escape(words)):
        compose(MISTAKES, REFERENCE, answer, "fresh", None, "x", ("softmax",))


def test_a_name_the_reference_gives_every_mistake_is_not_replaced():
    given_code = "import numpy as np\nEPS = 1e-5\n\ndef rmsnorm(x, g):\n    return x\n"
    with pytest.raises(EntryError, match="`EPS` .* is not the one the lesson's solution.py gives"):
        compose("from grader.lessons.authoring import mistake\n", given_code,
                "EPS = 1e-3\n\ndef rmsnorm(x, g):\n    return x * EPS\n", "eps", None, "x")


LESSONS = sorted(p.name for p in (ROOT / "solutions").iterdir() if (p / "mistakes.py").exists())


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lessons_mistakes_file_takes_an_entry_and_keeps_its_own(lesson):
    """The reference with its first function rewritten, and an import it lacks: the new entry goes
    in, every mistake already there stays, and the file still parses."""
    source, mistakes = reference(lesson), (ROOT / "solutions" / lesson / "mistakes.py").read_text()
    first = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef))
    answer = source + f"\n\nimport colorsys\n\n\ndef {first.name}(*args, **kwargs):\n" \
                      "    return colorsys.rgb_to_hsv(0.1, 0.2, 0.3)\n"
    made = compose(mistakes, source, answer, "promoted-here", "It is wrong.", "x")
    assert made.functions == [first.name] and made.imports == ["import colorsys"]
    tree = ast.parse(made.text)
    assert mistake_ids(tree) == mistake_ids(ast.parse(mistakes)) + ["promoted-here"]
    assert message_of(written(made.text, "promoted-here")[first.name]) == "It is wrong."


@given(st.text(max_size=300))
def test_any_message_is_written_as_a_string_that_reads_back_as_it(message):
    try:
        made = compose(MISTAKES, REFERENCE, ANSWER, "uniform-weights", message, "x", ("softmax",))
    except EntryError as exc:
        text = " ".join(message.split())
        assert not text or not text.isprintable(), exc
        return
    said = message_of(written(made.text, "uniform-weights")["softmax"])
    assert re.sub(r"\s*\n\s*", " ", said.strip()) == " ".join(message.split())


@given(st.one_of(st.text(max_size=70), st.sampled_from(["no-max-shift", "uniform", "a-b-c",
                                                          "arange-stops-at-T"])))
def test_a_name_is_taken_only_when_it_is_a_new_id_of_letters_digits_and_hyphens(name):
    taken = mistake_ids(ast.parse(MISTAKES))
    try:
        made = compose(MISTAKES, REFERENCE, ANSWER, name, None, "x", ("softmax",))
    except EntryError:
        assert name in taken or not re.fullmatch(r"[A-Za-z0-9]+(-[A-Za-z0-9]+)*", name) \
            or len(name) > 60
    else:
        assert name not in taken and mistake_ids(ast.parse(made.text))[-1] == name

