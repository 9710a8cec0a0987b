"""The mutator: each rule makes the slip it names, only inside solution regions, one statement at a
time, and every mutant of every reference compiles."""
import ast
import difflib
from pathlib import Path

import pytest

from grader.lessons.mutants import mutants
from grader.lessons.regions import solution_lines

ROOT = Path(__file__).resolve().parent.parent

SOURCE = '''\
import numpy as np


def f(x, w, t, eps=1e-5):
    """Not a solution: the mutator leaves this alone, and the line below."""
    outside = x - 1
    ### BEGIN SOLUTION
    m = np.max(x, axis=-1, keepdims=True)
    s = x[:, 1:] - m / np.sqrt(t)
    k = np.where(np.arange(t) < t, x, w)
    y = -x @ w.T + eps * 0.5
    z = x.astype(np.float64) + y
    return s + y + k + z
    ### END SOLUTION
'''

EXPECTED = {
    "swap-operands": "s = x[:, 1:] - np.sqrt(t) / m",
    "swap-arguments": "k = np.where(x, np.arange(t) < t, w)",
    "axis": "m = np.max(x, axis=-2, keepdims=True)",
    "keepdims": "m = np.max(x, axis=-1, keepdims=False)",
    "off-by-one": "s = x[:, 2:] - m / np.sqrt(t)",
    "comparison": "k = np.where(np.arange(t) <= t, x, w)",
    "drop-term": "s = x[:, 1:]",
    "double-term": "y = -x @ w.T + 2 * (eps * 0.5)",
    "flip-sign": "y = x @ w.T + eps * 0.5",
    "constant": "s = x[:, 1:] - m / t",
    "float32": "z = x.astype(np.float32) + y",
    "transpose": "y = -x @ w + eps * 0.5",
    "reorder": "after y = -x @ w.T + eps * 0.5",
}

MORE = ["m = np.max(x, keepdims=True)", "m = np.max(x, axis=0, keepdims=True)",
        "k = np.where(np.arange(t + 1) < t, x, w)", "s = x[:, 0:] - m / np.sqrt(t)",
        "y = -x @ w.T + eps * 0.0", "y = np.swapaxes(-x, -1, -2) @ w.T + eps * 0.5",
        "s = np.float32(x[:, 1:] - m / np.sqrt(t))"]


@pytest.fixture(scope="module")
def found():
    return mutants(SOURCE, "numpy")


@pytest.mark.parametrize("rule", sorted(EXPECTED))
def test_each_rule_makes_its_slip(found, rule):
    assert EXPECTED[rule] in [m.after for m in found if m.rule == rule]


def test_more_slips_of_the_same_rules(found):
    afters = {m.after for m in found}
    assert set(MORE) <= afters


def test_torch_lessons_cast_and_transpose_in_torch():
    source = SOURCE.replace("import numpy as np", "import torch\nnp = torch")
    afters = {m.after for m in mutants(source, "torch")}
    assert "y = (-x).transpose(-1, -2) @ w.T + eps * 0.5" in afters
    assert "s = (x[:, 1:] - m / np.sqrt(t)).float()" in afters


def changed_lines(before, after):
    """The line numbers (from 1) of `before` that a mutant replaced or removed."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    return {n + 1 for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"
            for n in range(i1, i2)}


def test_only_one_statement_inside_a_region_changes(found):
    inside = solution_lines(SOURCE)
    for m in found:
        lines = changed_lines(SOURCE, m.source)
        assert lines and lines <= inside, m.label
        if m.rule != "reorder":
            assert len(lines) == 1, m.label


def test_a_statement_is_not_moved_before_the_one_that_binds_what_it_reads(found):
    moved = [m.before for m in found if m.rule == "reorder"]
    assert "m = np.max(x, axis=-1, keepdims=True)" not in moved     # s reads m
    assert "k = np.where(np.arange(t) < t, x, w)" in moved          # y does not read k


REFERENCES = sorted((ROOT / "solutions").glob("[0-9]*/solution.py"))


@pytest.mark.parametrize("path", REFERENCES, ids=[p.parent.name for p in REFERENCES])
def test_every_mutant_of_a_reference_compiles_and_stays_in_its_regions(path):
    source = path.read_text()
    library = "torch" if "import torch" in source else "numpy"
    found = mutants(source, library)
    assert found
    inside = solution_lines(source)
    sources = [m.source for m in found]
    assert len(set(sources)) == len(sources) and source not in sources
    for m in found:
        ast.parse(m.source)
        assert changed_lines(source, m.source) <= inside, m.label
    assert [m.label for m in mutants(source, library)] == [m.label for m in found]   # deterministic
