"""Static rules point at the line that breaks them."""
import ast

from grader.lessons.authoring import Spec
from grader.judge.constraints import check

SOURCE = '''\
import numpy as np
from torch.nn.functional import scaled_dot_product_attention as sdpa


def helper(x):
    return [v for v in x]          # not a learner function: loops allowed


def block(x):
    """Docstrings may mention scaled_dot_product_attention freely."""
    total = 0
    for row in x:
        total += row
    return sum(v * 2 for v in x) + total


def other(x):
    f = getattr(np, "scaled_dot_product_attention")
    return f(x)
'''


def violations(spec, float_checks=False):
    return [(v.rule, v.line) for v in check(ast.parse(SOURCE), spec, float_checks)]


def test_loops_inside_learner_functions_are_found():
    spec = Spec(functions=("block",), no_loops=True)
    assert violations(spec) == [("no-loops", 12), ("no-loops", 14)]


def test_no_rule_no_violation():
    assert violations(Spec(functions=("block",))) == []


def test_forbidden_names_in_imports_and_strings():
    spec = Spec(functions=("block",), forbidden={"scaled_dot_product_attention": "write it by hand"})
    assert violations(spec) == [("forbidden-name", 2), ("forbidden-name", 18)]


def test_float_lessons_forbid_switching_checks_off():
    tree = ast.parse("import numpy as np\nnp.seterr(all='ignore')\n")
    found = check(tree, Spec(functions=("f",)), float_checks=True)
    assert [(v.rule, v.line) for v in found] == [("forbidden-name", 2)]
    assert "floating-point checks" in found[0].message
