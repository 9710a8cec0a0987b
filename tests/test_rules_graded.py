"""A lesson's rules on whole files, graded as a learner's: right answers that bind forbidden
names themselves score 1.0; every route to a forbidden library object scores 0 with the rule and
its line, whether the source shows it or only the run does (the child's guard)."""
import re
from pathlib import Path

import pytest

from grader.judge.grade import grade_file
from grader.lessons import lesson, roadmap

from conftest import ROOT

LESSONS = {}


def load(number):
    if number not in LESSONS:
        LESSONS[number] = lesson.load(roadmap.load(ROOT), number)
    return LESSONS[number]


def region(number, fn, body):
    """The lesson's reference with the learner-written region of `fn` replaced by `body`."""
    source = load(number).reference_source
    start = source.index(f"def {fn}(")
    begin = source.index("### BEGIN SOLUTION", start)
    end = source.index("### END SOLUTION", begin)
    indent = " " * 4
    lines = "\n".join(indent + line if line else line for line in body.strip("\n").splitlines())
    return source[:begin] + "### BEGIN SOLUTION\n" + lines + "\n" + indent + source[end:]


def grade(pool, tmp_path, number, source):
    path = Path(tmp_path) / "solution.py"
    path.write_text(source)
    return grade_file(load(number), path, pool)


def line_of(source, text):
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


LAYER_NORM_CLASS = '''\
import numpy as np


class LayerNorm:
    """A layer norm of my own, in numpy."""

    def __init__(self, gamma, beta, eps=1e-5):
        self.gamma, self.beta, self.eps = gamma, beta, eps

    def __call__(self, x):
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * self.gamma + self.beta


def layer_norm(x, gamma, beta, eps=1e-5):
    return LayerNorm(gamma, beta, eps)(x)


if __name__ == "__main__":
    x = np.random.default_rng(0).normal(size=(2, 4))
    print(layer_norm(x, np.ones(4), np.zeros(4)))      # a self-test of my own
'''


def test_a_numpy_class_layer_norm_with_a_self_test_passes_lesson_05(pool, tmp_path):
    result = grade(pool, tmp_path, "05", LAYER_NORM_CLASS)
    assert result.violations == [] and result.score == 1.0


ADAMW_CLASS = '''\
b1, b2 = betas
opt = AdamW(lr, b1, b2, eps, weight_decay)
return opt.step(params, grads, state)


class AdamW:
    """AdamW by hand."""

    def __init__(self, lr, b1, b2, eps, weight_decay):
        self.lr, self.b1, self.b2, self.eps, self.wd = lr, b1, b2, eps, weight_decay

    def __repr__(self):
        return f"AdamW(lr={self.lr}, betas=({self.b1}, {self.b2}))"

    def step(self, params, grads, state):
        t = state["step"] + 1
        new, m_new, v_new = {}, {}, {}
        for name, p in params.items():
            g = grads[name]
            m = self.b1 * state["m"][name] + (1 - self.b1) * g
            v = self.b2 * state["v"][name] + (1 - self.b2) * g * g
            m_hat, v_hat = m / (1 - self.b1 ** t), v / (1 - self.b2 ** t)
            new[name] = p - self.lr * self.wd * p - self.lr * m_hat / (torch.sqrt(v_hat) + self.eps)
            m_new[name], v_new[name] = m, v
        return new, {"step": t, "m": m_new, "v": v_new}
'''


def adamw_class_file():
    """Lesson 22's reference with adamw_step written through a class AdamW of the file's own."""
    source = region("22", "adamw_step", "\n".join(ADAMW_CLASS.split("\n\n\n")[0].splitlines()))
    cls = "\n\n\nclass AdamW:" + ADAMW_CLASS.split("class AdamW:")[1]
    return source.rstrip("\n") + cls


def test_a_hand_written_class_adamw_named_in_its_repr_passes_lesson_22(pool, tmp_path):
    result = grade(pool, tmp_path, "22", adamw_class_file())
    assert result.violations == [] and result.score == 1.0


TORCH_ADAMW = '''\
names = list(params)
p = [params[n].detach().clone() for n in names]
m = [state["m"][n].clone() for n in names]
v = [state["v"][n].clone() for n in names]
steps = [torch.tensor(float(state["step"])) for _ in names]
update(p, [grads[n] for n in names], m, v, [], steps, foreach=False, amsgrad=False,
       beta1=betas[0], beta2=betas[1], lr=lr, weight_decay=weight_decay, eps=eps, maximize=False)
return dict(zip(names, p)), {"step": state["step"] + 1, "m": dict(zip(names, m)),
                             "v": dict(zip(names, v))}
'''
ROUTES_22 = {
    "from torch.optim import": "from torch.optim.adamw import adamw as update\n",
    "getattr with constant strings": (
        'import importlib\n'
        'update = getattr(importlib.import_module("torch.optim." + "adamw"), "ada" + "mw")\n'),
    "run-time strings": (
        'word = lambda *codes: "".join(map(chr, codes))\n'
        'module = __import__("importlib").import_module(\n'
        '    ".".join([word(116, 111, 114, 99, 104), word(111, 112, 116, 105, 109),'
        ' word(97, 100, 97, 109, 119)]))\n'
        'update = getattr(module, word(97, 100, 97, 109, 119))\n'),
}


@pytest.mark.parametrize("route", ROUTES_22)
def test_torch_optim_by_any_route_scores_0_in_lesson_22(pool, tmp_path, route):
    """Each route reaches torch's own AdamW update, which gives the right answers: only the rule
    stops it."""
    source = region("22", "adamw_step", ROUTES_22[route] + TORCH_ADAMW)
    result = grade(pool, tmp_path, "22", source)
    assert result.score == 0.0
    rule, = [v for v in result.violations if v.rule == "forbidden-name"]
    first = line_of(source, ROUTES_22[route].splitlines()[0][:40])
    assert rule.line == first or first < rule.line <= first + 4
    assert re.search(rf"lines? (\d+, )*{rule.line}\b", rule.message)
    assert "write the AdamW update by hand" in rule.message


SOFTMAX_BY_TORCH = '''\
import importlib

import numpy as np


def softmax(x, axis=-1):
    torch = importlib.import_module({name})
    return torch.softmax(torch.from_numpy(x), dim=axis).numpy()
'''


@pytest.mark.parametrize("name", ['"torch"', '"".join(["to", "rch"][:{n}])'.replace("{n}", "2"),
                                  'chr(116) + "orch"'])
def test_torch_through_importlib_scores_0_in_a_numpy_lesson(pool, tmp_path, name):
    source = SOFTMAX_BY_TORCH.format(name=name)
    result = grade(pool, tmp_path, "01", source)
    assert result.score == 0.0
    rule, = result.violations
    assert rule.rule == "numpy-only" and rule.line == 7 and "`torch` (" in rule.message


def test_autograd_through_importlib_scores_0_in_lesson_21(pool, tmp_path):
    source = region("21", "ce_loss_and_grad", '''\
name = "".join(map(chr, (116, 111, 114, 99, 104)))
torch = __import__("importlib").import_module(name)
z = torch.tensor(logits, requires_grad=True)
loss = torch.nn.functional.cross_entropy(z, torch.tensor(targets), ignore_index=ignore_index)
loss.backward()
return loss.item(), z.grad.numpy()
''')
    result = grade(pool, tmp_path, "21", source)
    assert result.score == 0.0
    assert [(v.rule, v.line) for v in result.violations] == [
        ("forbidden-name", line_of(source, "torch = __import__"))]


def test_lesson_19_refuses_torch(pool, tmp_path):
    source = region("19", "decode_step", '''\
import torch
q = split_heads(x_new @ Wq, n_heads)
k, v = split_heads(x_new @ Wk, n_heads), split_heads(x_new @ Wv, n_heads)
if cache is not None:
    k = np.concatenate([cache["k"], k], axis=-2)
    v = np.concatenate([cache["v"], v], axis=-2)
t_new, t_all = q.shape[-2], k.shape[-2]
mask = torch.from_numpy(causal_mask(t_new, t_all))
att = torch.nn.functional.scaled_dot_product_attention(
    torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(v), attn_mask=mask).numpy()
return merge_heads(att) @ Wo, {"k": k, "v": v}
''')
    result = grade(pool, tmp_path, "19", source)
    assert result.score == 0.0
    assert {v.rule for v in result.violations} == {"numpy-only", "forbidden-name"}


def test_a_loop_in_a_helper_fails_no_loops_in_lesson_19(pool, tmp_path):
    source = region("19", "decode_step", "return decode_by_rows(x_new, cache, Wq, Wk, Wv, Wo, n_heads)")
    reference = load("19").reference_source
    body = reference[reference.index("### BEGIN SOLUTION", reference.index("def decode_step(")):]
    body = body[len("### BEGIN SOLUTION\n"):body.index("### END SOLUTION")]
    helper = ("\n\ndef decode_by_rows(x_new, cache, Wq, Wk, Wv, Wo, n_heads):\n"
              "    for _ in range(1):\n        pass\n" + body)
    source = source.rstrip("\n") + helper
    result = grade(pool, tmp_path, "19", source)
    assert result.cases and all(r.verdict.passed for r in result.cases)   # right, but
    loop, = result.violations
    assert loop.rule == "no-loops" and loop.line == line_of(source, "for _ in range(1)")
    assert "(which `decode_step` runs)" in loop.message


def test_an_import_statement_the_source_shows_still_runs_its_cases(pool, tmp_path):
    """The guard leaves `import torch` to the static rule, so the cases still say how the answer
    fares."""
    source = ("import numpy as np\nimport torch\n\n\ndef softmax(x, axis=-1):\n"
              "    return torch.softmax(torch.from_numpy(x), dim=axis).numpy()\n")
    result = grade(pool, tmp_path, "01", source)
    assert result.score == 0.0 and [v.rule for v in result.violations] == ["numpy-only"]
    assert any(r.verdict.passed for r in result.cases)


def test_a_refusal_during_a_hidden_case_never_names_what_the_string_held(pool, tmp_path):
    """A module name built from a hidden input is not shown: only a known module's name is."""
    source = ('import importlib\nimport numpy as np\n\n\ndef softmax(x, axis=-1):\n'
              '    importlib.import_module("m" + str(abs(int(x.flat[0] * 1e6))))\n'
              '    return x\n')
    result = grade(pool, tmp_path, "01", source)
    rule, = result.violations
    assert rule.rule == "numpy-only" and "a library beyond numpy" in rule.message
    assert not re.search(r"`m\d+`", rule.message)
