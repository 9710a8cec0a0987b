"""Static rules read meaning, not spelling: a forbidden name is forbidden as a library's object,
whatever route reaches it, and never as a name the learner's file binds itself."""
import ast
import textwrap

import pytest
from hypothesis import given, settings, strategies as st

from grader.lessons.authoring import Spec
from grader.judge.constraints import check

SOURCE = '''\
import numpy as np
from torch.nn.functional import scaled_dot_product_attention as sdpa


def helper(x):
    return [v for v in x]          # not run by the entry point: loops allowed


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
SDPA = {"scaled_dot_product_attention": "write it by hand"}


def violations(source, spec, float_checks=False, framework=None):
    return check(ast.parse(textwrap.dedent(source)), spec, float_checks, framework)


def rules_and_lines(source, spec, **kw):
    return [(v.rule, v.lines) for v in violations(source, spec, **kw)]


def test_loops_inside_learner_functions_are_found():
    spec = Spec(functions=("block",), no_loops=True)
    assert rules_and_lines(SOURCE, spec) == [("no-loops", (12,)), ("no-loops", (14,))]


def test_no_rule_no_violation():
    assert violations(SOURCE, Spec(functions=("block",))) == []


def test_one_violation_per_forbidden_name_with_every_line():
    found = violations(SOURCE, Spec(functions=("block",), forbidden=SDPA))
    assert [(v.rule, v.line, v.lines) for v in found] == [("forbidden-name", 2, (2, 18, 19))]
    assert "`torch.nn.functional.scaled_dot_product_attention` (line 2)" in found[0].message
    assert "`numpy.scaled_dot_product_attention` (lines 18 and 19)" in found[0].message


HELPERS = '''\
import numpy as np

def unused(x):
    return [v for v in x]

def scale(x):
    while x.max() > 1:
        x = x / 2
    return x

class Norm:
    def __call__(self, x):
        return self.rows(x)

    def rows(self, x):
        return np.stack([r / r.sum() for r in x])

def block(x):
    return Norm()(scale(x))
'''


def test_no_loops_covers_every_function_the_entry_points_run():
    found = violations(HELPERS, Spec(functions=("block",), no_loops=True))
    assert [v.line for v in found] == [7, 16]
    assert all("(which `block` runs)" in v.message for v in found)


OWN_CODE = {
    "a numpy class LayerNorm": '''
        import numpy as np

        class LayerNorm:
            """Not torch's LayerNorm: a class of this file."""
            def __init__(self, d, eps=1e-5):
                self.gamma, self.beta, self.eps = np.ones(d), np.zeros(d), eps

            def __call__(self, x):
                mean = x.mean(-1, keepdims=True)
                return (x - mean) / np.sqrt(x.var(-1, keepdims=True) + self.eps) * self.gamma + self.beta

        def layer_norm(x, gamma, beta, eps=1e-5):
            norm = LayerNorm(x.shape[-1], eps)
            norm.gamma, norm.beta = gamma, beta
            return norm(x)

        if __name__ == "__main__":
            print(layer_norm(np.ones((2, 3)), np.ones(3), np.zeros(3)))   # a self-test
        ''',
    "a method named like the library's function": '''
        import numpy as np

        class Attention:
            def scaled_dot_product_attention(self, q, k, v):
                w = np.exp(q @ k.T)
                return (w / w.sum(-1, keepdims=True)) @ v

            def __call__(self, q, k, v):
                return self.scaled_dot_product_attention(q, k, v)
        ''',
    "a hand-written AdamW named in its __repr__": '''
        import torch

        class AdamW:
            def __init__(self, lr):
                self.lr = lr

            def __repr__(self):
                return f"AdamW(lr={self.lr})"   # AdamW, Adam and torch.optim in a string

        def adamw_step(params, grads, lr):
            opt = AdamW(lr)
            return {k: p - opt.lr * grads[k] for k, p in params.items()}
        ''',
    "parameters, loop variables and names bound by with and except": '''
        import numpy as np

        def f(layer_norm, LayerNorm=None):
            for AdamW in range(2):
                pass
            try:
                pass
            except ValueError as optim:
                pass
            return layer_norm
        ''',
}
BANNED = {"layer_norm": "no", "LayerNorm": "no", "scaled_dot_product_attention": "no",
          "AdamW": "no", "Adam": "no", "optim": "no"}


@pytest.mark.parametrize("name", OWN_CODE)
def test_names_the_file_binds_itself_are_never_forbidden(name):
    assert violations(OWN_CODE[name], Spec(functions=("layer_norm",), forbidden=BANNED)) == []


ROUTES = {
    "from x import y as z": ("from torch.optim import AdamW as A\nA([], lr=1)", [1, 2]),
    "from the package, a class beside the forbidden one": ("from torch.optim import Optimizer", [1]),
    "an attribute chain on a module": ("import torch\ntorch.optim.AdamW([])", [2]),
    "an alias of a module": ("import torch\nopt = torch.optim\nopt.AdamW([])", [2, 3]),
    "a getattr with a constant": ('import torch\ngetattr(torch.optim, "AdamW")', [2]),
    "a getattr with a built string": ('import torch\nw = "Ada" + "mW"\ngetattr(torch, "op" "tim")', [3]),
    "importlib with a constant": ('import importlib\nm = importlib.import_module("torch.optim")', [2]),
    "__import__": ('m = __import__("torch.optim", fromlist=["AdamW"])', [1]),
    "sys.modules": ('import sys\nsys.modules["torch.optim"].AdamW', [2]),
    "vars() of a module": ('import torch\nvars(torch)["optim"]', [2]),
    "exec of constant code": ('exec("from torch.optim import AdamW")', [1]),
    "an f-string of constants": ('import torch\nn = "W"\ngetattr(torch.optim, f"Adam{n}")', [3]),
    "a method of a value, not of the file": ("def f(opt):\n    return opt.AdamW", [2]),
}


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_to_a_forbidden_object_is_found(route):
    source, lines = ROUTES[route]
    found = violations(source, Spec(functions=("f",), forbidden=BANNED))
    assert found and {n for v in found for n in v.lines} == set(lines)
    assert all(v.rule == "forbidden-name" for v in found)


def test_code_built_from_strings_cannot_be_checked_in_a_lesson_with_rules():
    source = "import numpy as np\ncode = input()\nexec(code)\n"
    found = violations(source, Spec(functions=("f",)), framework="numpy")
    assert [(v.rule, v.line) for v in found] == [("computed-name", 3)]
    assert violations(source, Spec(functions=("f",)), framework="torch") == []


@pytest.mark.parametrize("source, refused", [
    ('import sys\nname = input()\nsys.modules[name]', True),
    ('import torch\nname = input()\nvars(torch)[name]', True),
    ('import torch, operator\nname = input()\noperator.attrgetter(name)(torch)', True),
    ('import runpy\nname = input()\nrunpy.run_module(name)', True),
    # the child's guard decides these as the code runs
    ('import torch\nname = input()\ngetattr(torch, name)', False),
    ('import importlib\nname = input()\nimportlib.import_module(name)', False),
    ('name = input()\n__import__(name)', False),
])
def test_a_computed_string_route_the_guard_cannot_see_is_refused(source, refused):
    found = violations(source, Spec(functions=("f",), forbidden={"optim": "no"}), framework="torch")
    assert [(v.rule, v.line) for v in found] == ([("computed-name", 3)] if refused else [])


def test_numpy_only_is_said_once_with_every_line():
    source = "import torch\nimport numpy as np\nfrom scipy.special import softmax\nimport torch.nn as nn\n"
    found = violations(source, Spec(functions=("f",)), framework="numpy")
    assert [(v.rule, v.lines) for v in found] == [("numpy-only", (1, 3, 4))]
    assert "`torch` (lines 1 and 4) and `scipy` (line 3) are not allowed" in found[0].message


def test_float_lessons_forbid_switching_checks_off():
    found = violations("import numpy as np\nnp.seterr(all='ignore')\n", Spec(functions=("f",)),
                       float_checks=True)
    assert [(v.rule, v.line) for v in found] == [("forbidden-name", 2)]
    assert "floating-point checks" in found[0].message


# ---- generated: every way of binding a name, every way of reaching the library's object ----

NAME = "layer_norm"
IMPORTS = [  # (lines, the name bound, the path it stands for)
    (["import torch"], "torch", "torch"),
    (["import torch as T"], "T", "torch"),
    (["import torch.nn.functional as F"], "F", "torch.nn.functional"),
    (["from torch.nn import functional as G"], "G", "torch.nn.functional"),
    (["import importlib", 'M = importlib.import_module("torch.nn")'], "M", "torch.nn"),
    (['U = __import__("torch")'], "U", "torch"),
]
PATH = "torch.nn.functional.layer_norm".split(".")


def step(expr, part, how):
    """One more part of the path, reached as an attribute or through getattr."""
    return {"attr": f"{expr}.{part}",
            "getattr": f'getattr({expr}, "{part}")',
            "concat": f'getattr({expr}, "{part[:1]}" + "{part[1:]}")'}[how]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(IMPORTS), st.lists(st.sampled_from(["attr", "getattr", "concat"]), min_size=3,
                                          max_size=3),
       st.lists(st.booleans(), min_size=3, max_size=3), st.booleans())
def test_generated_routes_to_the_library_object_are_found(imported, hows, aliases, in_function):
    lines, name, path = imported
    lines = list(lines)
    expr, k = name, len(path.split("."))
    for i, (how, alias) in enumerate(zip(hows, aliases)):
        if k >= len(PATH):
            break
        expr = step(expr, PATH[k], how)
        k += 1
        if alias and k < len(PATH):
            lines.append(f"a{i} = {expr}")
            expr = f"a{i}"
    use = f"y = {expr}(x, (3,))"
    if in_function:
        lines += ["def f(x):", "    " + use, "    return y"]
    else:
        lines += ["x = 1", use]
    source = "\n".join(lines) + "\n"
    found = violations(source, Spec(functions=("f",), forbidden={NAME: "no"}))
    assert [v.rule for v in found] == ["forbidden-name"], source
    assert set(found[0].lines) == {len(lines) - (1 if in_function else 0)}, source


BINDINGS = [  # lines that bind NAME in the file itself, and the expression that uses it
    (["def layer_norm(x, s):", "    return x"], "layer_norm(x, (3,))"),
    (["class layer_norm:", "    def __init__(self, x, s):", "        pass"], "layer_norm(x, (3,))"),
    (["layer_norm = lambda x, s: x"], "layer_norm(x, (3,))"),
    (["import numpy as layer_norm"], "layer_norm.ones(3)"),
    (["class Obj:", "    def layer_norm(self, x, s):", "        return x", "o = Obj()"],
     "o.layer_norm(x, (3,))"),
    (["class Holder:", "    pass", "o = Holder()", "o.layer_norm = abs"], "o.layer_norm(x)"),
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(BINDINGS), st.sampled_from(IMPORTS), st.booleans(), st.booleans())
def test_generated_bindings_of_the_files_own_are_never_forbidden(bound, imported, in_function,
                                                               mention):
    lines = list(imported[0]) + list(bound[0])
    body = [f"y = {bound[1]}"]
    if mention:      # the library's name in a string and a comment changes nothing
        body.append(f'note = "torch.nn.functional.{NAME}"  # not torch.nn.functional.{NAME}')
    if in_function:
        lines += ["def f(x):"] + ["    " + b for b in body] + ["    return y"]
    else:
        lines += ["x = 1"] + body
    source = "\n".join(lines) + "\n"
    assert violations(source, Spec(functions=("f",), forbidden={NAME: "no"})) == [], source


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["x", "layer_norm", "F"]), st.booleans())
def test_generated_parameters_shadow_the_library(param, call):
    """A parameter named like a forbidden name, or like the module's alias, is the file's own."""
    use = f"{param}(1)" if call else param
    source = (f"import torch.nn.functional as F\n"
              f"def f({param}):\n    return {use}\n")
    found = violations(source, Spec(functions=("f",), forbidden={NAME: "no"}))
    assert found == []
