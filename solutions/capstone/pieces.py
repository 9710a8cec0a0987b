"""The learner's own functions from the lessons, each tried once on a tiny input against the
workbook's reference for its lesson, with the reference standing in for any that is missing,
unfinished or different. Lesson 27's training loop is then wired to the pieces of lessons 12 to 26.
"""
import importlib.util
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

import llama

PIECES = {  # function: the lesson that defines it
    "lm_loss": "13-lm-loss",
    "next_token_probs": "18-sampling",
    "sample": "18-sampling",
    "generate": "20-generate",
    "adamw_step": "22-train-step",
    "split_data": "23-batches",
    "get_batch": "23-batches",
    "lr_at": "25-lr-schedule",
    "clip_grad_norm": "26-grad-clip",
}
MODEL_PIECES = {  # the model's functions, per kind (WORKBOOK_CAPSTONE_MODEL)
    "gpt2": {"gpt_forward": "12-gpt-forward", "gpt2_init": "24-init", "init_report": "24-init"},
    "llama": {"llama_forward": "30-llama-forward"},
}
TOKENIZER_PIECES = {  # the tokenizer's functions, per kind (WORKBOOK_CAPSTONE_TOKENIZER)
    "chars": {"char_vocab": "28-chars-bytes", "char_encode": "28-chars-bytes",
              "char_decode": "28-chars-bytes"},
    "bpe": {"train_bpe": "29-bpe", "encode": "29-bpe", "decode": "29-bpe"},
}
LOOP = "27-training-loop"
LOOP_FUNCTIONS = ("train_step", "evaluate", "save_checkpoint", "load_checkpoint", "train")


@dataclass
class Pieces:
    """Every function the capstone uses, and who wrote each: "yours" or "the reference"."""
    fns: dict = field(default_factory=dict)
    whose: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)    # why a reference stands in, one line each
    loop: types.ModuleType = None                # lesson 27's module, wired to the pieces

    @property
    def forward(self):
        """The model as the capstone calls it, (ids, params, n_heads) -> logits: lesson 12's GPT,
        or lesson 30's LLaMA-style model."""
        if "llama_forward" in self.fns:
            return llama.forward_of(self.fns["llama_forward"])
        return self.fns["gpt_forward"]

    def __getattr__(self, name):
        try:
            return self.__dict__["fns"][name]
        except KeyError:
            raise AttributeError(name) from None

    def replace(self, **fns):
        """Use these functions instead (a lesson 27 function runs in the loop's module, as the
        learner's would), and wire the loop to them."""
        for name, fn in fns.items():
            if name in LOOP_FUNCTIONS:
                fn = rebound(fn, vars(self.loop))
                setattr(self.loop, name, fn)
            self.fns[name] = fn
        wire(self.loop, self)


def rebound(fn, namespace):
    """`fn` with its global names looked up in `namespace`."""
    return types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, fn.__closure__)


def load_module(path, name):
    """The module in `path`, or (None, why not)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        return None, f"does not import ({type(exc).__name__}: {exc})"
    return module, None


def lesson_module(root, folder, lesson):
    """(module, None) from root/folder/lesson/solution.py, or (None, why not)."""
    path = Path(root) / folder / lesson / "solution.py"
    if not path.is_file():
        return None, f"{path.relative_to(root)} does not exist"
    module, why = load_module(path, f"capstone_{folder}_{lesson.replace('-', '_')}")
    return module, why and f"{path.relative_to(root)} {why}"


def f64(*xs):
    return torch.tensor(xs, dtype=torch.float64)


def tiny_gpt(vocab=7, width=6, n_layers=2, n_positions=5, seed=1):
    """Small random GPT-2 parameters (larger than an initialisation, so that answers differ)."""
    g = torch.Generator().manual_seed(seed)
    p = {"transformer.wte.weight": 0.5 * torch.randn(vocab, width, generator=g, dtype=torch.float64),
         "transformer.wpe.weight": 0.3 * torch.randn(n_positions, width, generator=g, dtype=torch.float64)}
    for i in range(n_layers):
        pre = f"transformer.h.{i}."
        for ln in ("ln_1", "ln_2"):
            p[pre + ln + ".weight"] = 1 + 0.2 * torch.randn(width, generator=g, dtype=torch.float64)
            p[pre + ln + ".bias"] = 0.1 * torch.randn(width, generator=g, dtype=torch.float64)
        for name, (n_in, n_out) in {"attn.c_attn": (width, 3 * width), "attn.c_proj": (width, width),
                                    "mlp.c_fc": (width, 4 * width), "mlp.c_proj": (4 * width, width)}.items():
            p[pre + name + ".weight"] = torch.randn(n_in, n_out, generator=g, dtype=torch.float64) / n_in ** 0.5
            p[pre + name + ".bias"] = 0.1 * torch.randn(n_out, generator=g, dtype=torch.float64)
    p["transformer.ln_f.weight"] = 1 + 0.2 * torch.randn(width, generator=g, dtype=torch.float64)
    p["transformer.ln_f.bias"] = 0.1 * torch.randn(width, generator=g, dtype=torch.float64)
    return p


TINY_VOCAB = ["<unk>", " ", ",", "d", "e", "h", "l", "o", "r", "w"]
# bc, then ab (the two compete in "abc"), an, ana, se, ses, " ses", and ". " (which would join
# two pre-tokens)
TINY_MERGES = [(98, 99), (97, 98), (97, 110), (258, 97), (115, 101), (260, 115), (32, 261), (46, 32)]


def try_on_tiny_input(name, fn):
    """What `fn` answers on a tiny input that uses it the way the capstone does."""
    g = torch.Generator().manual_seed(1)
    if name == "gpt_forward":
        return fn(torch.tensor([[1, 4, 2, 6], [0, 3, 3, 5]]), tiny_gpt(), 2)
    if name == "llama_forward":  # as the capstone calls it: RoPE's and RMSNorm's defaults
        return fn(torch.tensor([[1, 4, 2, 6, 6], [0, 3, 3, 5, 1]]), llama.tiny_llama(), 4,
                  llama.KV_HEADS)
    if name == "lm_loss":
        logits = torch.randn(2, 5, 7, generator=g, dtype=torch.float64)
        return fn(logits, torch.tensor([[1, 4, 2, 6, 0], [0, 3, 3, 5, 1]]))
    if name == "next_token_probs":
        return fn(np.array([0.3, -1.2, 2.2, 0.9, -0.4]), temperature=0.7, top_k=3)
    if name == "sample":
        # u on the running total's steps, and a token of probability 0 that must never come
        return [fn(np.array([0.25, 0.25, 0.0, 0.5]), u) for u in (0.0, 0.1, 0.25, 0.5, 0.9)]
    if name == "generate":  # a context of 3 tokens: the next token depends on all three
        logits_fn = lambda ids: F.one_hot(ids.cumsum(-1) % 5, 5).to(torch.float64)
        return fn(logits_fn, torch.tensor([[1, 2, 4]]), 3, 3)
    if name == "adamw_step":
        state = {"step": 3, "m": {"w": f64(0.2, -0.05)}, "v": {"w": f64(0.04, 0.01)}}
        new, state = fn({"w": f64(1.0, -2.0)}, {"w": f64(0.5, -0.1)}, state, 0.1, weight_decay=0.01)
        return [new["w"], state["m"]["w"], state["v"]["w"], state["step"]]
    if name == "split_data":
        return list(fn(torch.arange(23), 0.8))
    if name == "get_batch":
        data = torch.arange(40) * 7 % 13
        return [list(fn(data, 3, 5, g)) for _ in range(2)]
    if name == "gpt2_init":
        return fn(7, 4, 2, 5, g)
    if name == "init_report":
        return fn(tiny_gpt(), torch.tensor([[1, 4, 2, 6]]), torch.tensor([[4, 2, 6, 0]]), 2)
    if name == "lr_at":
        return [fn(s, 1e-3, 1e-4, 3, 10) for s in range(13)]
    if name == "char_vocab":
        return fn("hello, world")
    if name == "char_encode":
        return fn("Hello, world!", TINY_VOCAB)
    if name == "char_decode":
        return fn([5, 4, 6, 6, 7, 0, 1, 9], TINY_VOCAB)
    if name == "train_bpe":      # ties, overlaps and the special token between two documents
        return fn("ana sees bo. bo likes cy.<|endoftext|>cy sees ana. aaa", 257 + 12)
    if name == "encode":
        return fn("ana sees bo. abc<|endoftext|>cy abcab", TINY_MERGES)
    if name == "decode":         # é in two tokens, a character cut short, the special token
        return fn([259, 32, 98, 111, 195, 169, 257, 263, 226, 264], TINY_MERGES)
    if name == "clip_grad_norm":
        grads = {"a": f64(3.0, -4.0), "b": f64(12.0)}
        return [list(fn(grads, 1.0)), list(fn(grads, 100.0))]
    raise KeyError(name)


def try_the_loop(module):
    """What lesson 27's functions in `module` give on a tiny run: a run stopped and resumed from
    its checkpoint, with dropout, and one evaluation."""
    data = torch.arange(60) * 3 % 11
    config = dict(n_heads=2, batch_size=3, context=5, max_lr=1e-2, min_lr=1e-3, warmup_steps=2,
                  max_steps=6, max_norm=0.5, weight_decay=0.1, dropout=0.1, eval_every=2,
                  eval_batches=2, eval_seed=7)
    params = tiny_gpt(vocab=11, width=8, n_layers=1, n_positions=5)
    history = module.run_resumed(params, data[:45], data[45:], config, 5, 2, 0, 1)
    return [history, module.watched_evaluate(params, data[45:], config)]


def differs(got, want):
    """None if `got` matches `want` (tensors, arrays, numbers, or lists and dicts of them), else how
    not."""
    if isinstance(want, str):
        return None if got == want else "gave other text"
    if isinstance(want, dict):
        if not isinstance(got, dict) or got.keys() != want.keys():
            return "gave other names" if isinstance(got, dict) else f"gave {type(got).__name__}"
        return next(filter(None, (differs(got[k], want[k]) for k in want)), None)
    if isinstance(want, (list, tuple)):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            return f"gave {type(got).__name__} of another length"
        return next(filter(None, map(differs, got, want)), None)
    try:
        got, want = np.asarray(torch.as_tensor(got).detach()), np.asarray(torch.as_tensor(want))
    except (TypeError, ValueError, RuntimeError):
        return f"gave {type(got).__name__}"
    if got.shape != want.shape:
        return f"gave shape {got.shape}, expected {want.shape}"
    return None if np.allclose(got, want, rtol=1e-8, atol=1e-10) else "gave different numbers"


def probe(answer, reference):
    """None if `answer()` gives what `reference()` gives, else what went wrong."""
    try:
        got = answer()
    except NotImplementedError:
        return "is not implemented yet"
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"
    problem = differs(got, reference())
    return problem and f"{problem} than the reference on a tiny input"


def choose(mine, reference, answer, trust):
    """(the function to use, who wrote it, why the reference stands in or None). `answer(fn)`
    tries fn on a tiny input. With trust, the learner's function is used even when it answers
    differently, as long as it is written (so that the training doctor can show what it does)."""
    why = probe(lambda: answer(mine), lambda: answer(reference))
    if why is None or (trust and why != "is not implemented yet"):
        return mine, "yours", why and f"{why}, and is used all the same"
    return reference, "the reference", why


def load(root, code="exercises", trust=False, tokenizer="chars", model="gpt2"):
    """Every piece the capstone needs: the learner's (from `code`/NN-slug/solution.py) where it
    agrees with the reference, else the reference (from solutions/). code="solutions" takes the
    references throughout; trust=True takes every learner function that is written. `tokenizer`
    ("chars" or "bpe") chooses the tokenizer's pieces (lesson 28's or lesson 29's), `model`
    ("gpt2" or "llama") the model's (lessons 12 and 24, or lesson 30: the LLaMA-style model's
    initialisation and loss-at-init report are then the capstone's own, in llama.py)."""
    pieces = Pieces()
    for name, lesson in {**MODEL_PIECES[model], **PIECES, **TOKENIZER_PIECES[tokenizer]}.items():
        reference, why = lesson_module(root, "solutions", lesson)
        if reference is None:
            sys.exit(f"The capstone needs lesson {lesson}, but {why}.")
        fn, whose = getattr(reference, name), "the reference"
        if code != "solutions":
            mine, why = lesson_module(root, code, lesson)
            if mine is not None and not callable(getattr(mine, name, None)):
                why = f"has no function {name}"
            elif mine is not None:
                fn, whose, why = choose(getattr(mine, name), fn,
                                        lambda f: try_on_tiny_input(name, f), trust)
            if why:
                pieces.notes.append(f"lesson {lesson}: your {name} {why}"
                                    + ("" if whose == "yours" else "; the reference stands in "
                                       f"(finish it with `make check L={lesson[:2]}`)"))
        pieces.fns[name], pieces.whose[name] = fn, (whose, lesson)
    if model == "llama":
        pieces.fns["init_report"] = llama.init_report_of(
            pieces.forward, lambda logits, targets: shifted_loss(pieces.lm_loss, logits, targets))
    pieces.loop, whose = loop_module(root, code, pieces, trust)
    for name in LOOP_FUNCTIONS:
        pieces.fns[name], pieces.whose[name] = getattr(pieces.loop, name), (whose, LOOP)
    return pieces


def loop_module(root, code, pieces, trust=False):
    """Lesson 27's module (the learner's if its loop agrees with the reference's on a tiny run),
    with the pieces it is given replaced by the ones in `pieces`: the model of lesson 12 (this
    capstone trains without dropout), the loss of lesson 13, and lessons 22 to 26."""
    reference, why = lesson_module(root, "solutions", LOOP)
    if reference is None:
        sys.exit(f"The capstone needs lesson {LOOP}, but {why}.")
    module, whose = reference, "the reference"
    if code != "solutions":
        mine, why = lesson_module(root, code, LOOP)
        if mine is not None:
            module, whose, why = choose(mine, reference, try_the_loop, trust)
        if why:
            pieces.notes.append(f"lesson {LOOP}: your training loop {why}"
                                + ("" if whose == "yours" else "; the reference stands in "
                                   "(finish it with `make check L=27`)"))
    wired = types.ModuleType(f"capstone_loop_{whose.replace(' ', '_')}")
    wired.__dict__.update(vars(module))
    for name, fn in vars(module).items():   # rebound, so that they call the pieces wired below
        if isinstance(fn, types.FunctionType) and fn.__globals__ is vars(module):
            wired.__dict__[name] = rebound(fn, wired.__dict__)
    wire(wired, pieces)
    return wired, whose


def wire(loop, pieces):
    """Give lesson 27's module the pieces instead of the copies it holds: the model of lesson 12
    or 30 (this capstone trains without dropout), the loss of lesson 13, and lessons 22 to 26."""
    forward, loss = pieces.forward, pieces.lm_loss
    loop.__dict__.update(
        gpt2_logits=lambda params, ids, n_heads, dropout=0.0: forward(ids, params, n_heads),
        batch_loss=lambda logits, targets: shifted_loss(loss, logits, targets),
        get_batch=pieces.get_batch, lr_at=pieces.lr_at, clip_grad_norm=pieces.clip_grad_norm,
        adamw_step=pieces.adamw_step)


def shifted_loss(lm_loss, logits, targets):
    """Lesson 13's lm_loss on targets that get_batch has already shifted.

    lm_loss shifts inside: it scores logits[:, t] against ids[:, t + 1]. So it is given ids whose
    position t + 1 holds targets[:, t], with any token in front (position 0 is never a target),
    and the logits with one more row at the end (the last row is never scored).
    """
    ids = torch.cat([torch.zeros_like(targets[:, :1]), targets], dim=1)
    return lm_loss(torch.cat([logits, torch.zeros_like(logits[:, :1])], dim=1), ids)
