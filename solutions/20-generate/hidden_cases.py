"""Hidden cases for lesson 20 (generation with a context window)."""
from pathlib import Path

import numpy as np
import torch

from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("max_new_tokens: at most this many tokens are appended to each row (0 returns the "
            "prompts).", cases=("no new tokens", "one new token", "greedy inside the window"),
            broken_by=("total-length", "one-step-short")),
    promise("context: at every step, the model is called on the last context tokens of each row "
            "only.",
            cases=("example 2", "the window slides", "window at the model's limit",
                   "prompt longer than the window"),
            broken_by=("no-crop", "crop-first-tokens", "window-one-short", "window-one-long",
                       "cropped-once")),
    promise("A row that produces it is finished; the end token stays in the output, and the row is "
            "padded with eos_id from then on. Stop as soon as every row is finished.",
            cases=("example 3", "end token, one row", "end token, rows finish apart",
                   "end token never produced"),
            broken_by=("end-token-dropped", "pads-with-zero", "stop-at-first-row",
                       "finished-rows-continue", "stops-one-step-late", "eos-test-on-a-tensor")),
    promise("Only generated tokens count: a prompt that ends with eos_id is not finished.",
            cases=("a prompt that ends with the end token",),
            broken_by=("prompt-end-token-stops",)),
    promise("temperature: 0 means greedy (argmax over the vocabulary).",
            cases=("greedy inside the window", "batch of one", "example 1"),
            broken_by=("argmax-over-time", "argmax-without-dim", "argmax-flat-index")),
    promise("Above 0, sample from softmax(logits / temperature) by inverse CDF: at step s, row b "
            "takes the smallest token whose cumulative probability exceeds uniforms[s][b]",
            cases=("example 4", "sampled, temperature 0.7", "sampled, temperature 1.8",
                   "u on the boundaries of equal intervals"),
            broken_by=("temperature-multiplied", "same-uniform-every-step", "always-greedy",
                       "cdf-ignored", "cdf-at-or-above-u", "softmax-over-batch")),
    promise("or the last token if none does", cases=("u at or above the last running total",),
            broken_by=("no-fallback-to-the-last-token",
                       edit(".clamp(max=logits.shape[-1] - 1)", ""))),
    promise("uniforms: numbers in [0, 1) of shape (max_new_tokens, B) (a tensor or nested lists)",
            cases=("example 4", "u a hair above a running total"),
            broken_by=("uniforms-in-float32",)),
    promise("Only the last position's logits choose the next token.",
            cases=("greedy inside the window", "one new token"),
            broken_by=("first-position-logits",)),
    promise("raises the model's ValueError", cases=("a context beyond the model's positions",),
            broken_by=("hides-the-model-error",)),
    promise("Leave ids unchanged: build new tensors.", cases=("greedy inside the window",),
            broken_by=(edit("    ids = torch.as_tensor(ids, dtype=torch.int64)\n",
                            "    ids = torch.as_tensor(ids, dtype=torch.int64)\n    ids[:, 0] = 0\n"),)),
)

SPEC = Spec(promises=PROMISES, hint_topics=(("ids[:, -context:]", "context", "crop", "argmax", "greedy", "torch.cat", "max_new_tokens",
                  "[:, -1, :]"), ("shape", "dim=-1", "(B, 1)", "next_id[:, None]", "cdf", "cumsum", "temperature", "clamped", "V - 1"), ("finished", "eos_id", "break", "uniforms", "range(max_new_tokens)")),
            functions=("generate", "generate_with_model"))

REFERENCE = {}
exec(compile(Path(__file__).with_name("solution.py").read_text(), "solution.py", "exec"), REFERENCE)

V, D = 11, 6   # vocabulary size and model width: distinct from every length used below


def model(rng, n_positions, scale=2.5):
    """Random float64 parameters of the given model (torch tensors drawn from the numpy rng)."""
    t = lambda *shape, s=1.0: torch.from_numpy(rng.normal(scale=s, size=shape))
    return {"wte": t(V, D), "wpe": t(n_positions, D), "w_out": t(D, V, s=scale)}


def prompt(rng, b, t):
    return torch.from_numpy(rng.integers(0, V, size=(b, t))).to(torch.int64)


def greedy(params, ids, n, window):
    """Greedy decoding in which `window(ids)` is what the model reads (for building cases)."""
    fn = REFERENCE["make_logits_fn"](params)
    for _ in range(n):
        ids = torch.cat([ids, fn(window(ids))[:, -1].argmax(-1)[:, None]], dim=1)
    return ids


def reference(params, ids, n, context, **kw):
    return REFERENCE["generate_with_model"](params, ids, n, context, **kw)


def crop_matters(rng, b, t0, n, context, n_positions):
    """A model and prompts for which keeping the last `context` tokens, the last `context - 1`, the
    first `context` and all of them give different outputs (drawn again until they do, whatever the
    seed)."""
    while True:
        params, ids = model(rng, n_positions), prompt(rng, b, t0)
        right = greedy(params, ids, n, lambda x: x[:, -context:])
        first = greedy(params, ids, n, lambda x: x[:, :context])
        short = greedy(params, ids, n, lambda x: x[:, -(context - 1):])
        outs = [right, first, short]
        if t0 + n <= n_positions:
            outs.append(greedy(params, ids, n, lambda x: x))
        if all(not torch.equal(a, c) for i, a in enumerate(outs) for c in outs[i + 1:]):
            return params, ids


def first_at(row, token):
    hits = (row == token).nonzero()
    return int(hits[0]) if len(hits) else None


def eos_setup(rng, b, t0, n, context, n_positions, **sampling):
    """A model, prompts and an end token that every row emits first at its own step, none at the
    first step and all at least two steps before the limit, with a row whose next token would not
    have been the end token (so padding shows). Drawn again until so, whatever the seed."""
    while True:
        params, ids = model(rng, n_positions), prompt(rng, b, t0)
        new = reference(params, ids, n, context, **sampling)[:, t0:]
        for token in range(1, V):
            steps = [first_at(row, token) for row in new]
            if None in steps or min(steps) < 1 or max(steps) > n - 3 or len(set(steps)) < b:
                continue
            if b == 1 or any(new[r, s + 1] != token for r, s in enumerate(steps) if s < max(steps)):
                return params, ids, token


def prompt_ends_with_eos(rng):
    """Two prompts, the first ending with the end token, and a model whose next token for that row
    is not the end token (drawn again until so)."""
    while True:
        params, ids = model(rng, 12), prompt(rng, 2, 5)
        eos = int(ids[0, -1])
        new = reference(params, ids, 5, 6, eos_id=eos)[:, 5:]
        if new.shape[1] > 1 and new[0, 0] != eos and ids[1, -1] != eos:
            return params, ids, eos


def even_model(rng, n_positions, live=8):
    """A model that gives `live` tokens exactly the same probability 1/live and the others exactly 0,
    at every position and for any temperature from 0.5 to 2, so that every running total is exact.

    Feature 0 of every token embedding is 30 and of every position embedding 0, so the model's
    tanh of feature 0 is exactly 1.0; only row 0 of w_out is non-zero, holding 0 for the live tokens
    and -1000 for the others: their logits are exactly 0 and -1000, and exp(-1000 / T) is 0.
    """
    params = model(rng, n_positions)
    params["wte"][:, 0] = 30.0
    params["wpe"][:, 0] = 0.0
    dead = rng.permutation(V)[: V - live]
    w_out = torch.zeros(D, V, dtype=torch.float64)
    w_out[0, torch.from_numpy(dead)] = -1000.0
    params["w_out"] = w_out
    return params


def last_total_below_u(rng, b, t0, n, context, n_positions, temperature):
    """A model, prompts and uniforms whose last step has a row where rounding leaves the last
    running total below 1 and u equal to it: no total exceeds u, so the row takes the last token.
    The last token is likely there (2% or more), so any sound way of summing picks it. Drawn again
    until so, whatever the seed."""
    while True:
        params, ids = model(rng, n_positions, scale=1.0), prompt(rng, b, t0)
        u = torch.from_numpy(rng.uniform(size=(n, b)))
        before = reference(params, ids, n - 1, context, temperature=temperature, uniforms=u[:n - 1])
        logits = REFERENCE["make_logits_fn"](params)(before[:, -context:])[:, -1, :]
        probs = torch.softmax(logits / temperature, dim=-1)
        last = torch.cumsum(probs, dim=-1)[:, -1]
        rows = [r for r in range(b) if last[r] < 1.0 and probs[r, -1] > 0.02]
        if rows:
            u[-1, rows] = last[rows]
            return params, ids, u


def u_a_hair_above(rng, b, t0, n, context, n_positions, temperature):
    """A model, prompts and uniforms as nested lists of floats, whose first step gives every row a
    u 1e-12 above one of its running totals, where rounding u to float32 would put it below that
    total: the row takes the next token, a float32 u the one before. Drawn again until so."""
    while True:
        params, ids = model(rng, n_positions, scale=1.0), prompt(rng, b, t0)
        logits = REFERENCE["make_logits_fn"](params)(ids[:, -context:])[:, -1, :]
        probs = torch.softmax(logits / temperature, dim=-1)
        cdf = torch.cumsum(probs, dim=-1)
        u = rng.uniform(size=(n, b))
        for r in range(b):
            above = [float(cdf[r, i]) + 1e-12 for i in range(V - 1) if probs[r, i + 1] > 1e-6
                     and float(np.float32(float(cdf[r, i]) + 1e-12)) < float(cdf[r, i])]
            if not above:
                break
            u[0, r] = above[int(rng.integers(len(above)))]
        else:
            return params, ids, u.tolist()


def cases(rng):
    p, ids = model(rng, 12), prompt(rng, 2, 3)
    yield case("greedy inside the window", call("generate_with_model", p, ids, 5, 10),
               probe="2 prompts of 3 tokens, 5 new tokens, context 10: the window is never full",
               hint=1)
    p, ids = model(rng, 9), prompt(rng, 1, 4)
    yield case("batch of one", call("generate_with_model", p, ids, 4, 9),
               probe="1 prompt of 4 tokens, 4 new tokens, context 9: every shape keeps its batch axis of 1",
               hint=2)
    p, ids = crop_matters(rng, 2, 7, 5, 4, 16)
    yield case("the window slides", call("generate_with_model", p, ids, 5, 4),
               probe="2 prompts of 7 tokens, context 4, 5 new tokens; the model could read 16 "
                     "tokens, and reading more than the last 4 changes the answer", hint=1)
    p, ids = crop_matters(rng, 3, 5, 6, 7, 7)
    yield case("window at the model's limit", call("generate_with_model", p, ids, 6, 7),
               probe="3 prompts of 5 tokens, 6 new tokens, context 7 = the most the model reads",
               hint=1)
    p, ids = crop_matters(rng, 2, 9, 3, 5, 6)
    yield case("prompt longer than the window", call("generate_with_model", p, ids, 3, 5),
               probe="2 prompts of 9 tokens, context 5 (the model reads at most 6)", hint=1)
    p, ids = model(rng, 8), prompt(rng, 2, 5)
    yield case("one new token", call("generate_with_model", p, ids, 1, 8),
               probe="max_new_tokens = 1", hint=1)
    p, ids = model(rng, 8), prompt(rng, 3, 2)
    yield case("no new tokens", call("generate_with_model", p, ids, 0, 8),
               probe="max_new_tokens = 0 returns the prompts as they are", hint=1)
    p, ids, eos = eos_setup(rng, 1, 3, 9, 6, 16)
    yield case("end token, one row", call("generate_with_model", p, ids, 9, 6, eos_id=eos),
               probe="1 prompt, up to 9 new tokens; the row emits the end token (eos_id) before the limit",
               hint=3)
    p, ids, eos = eos_setup(rng, 2, 4, 10, 5, 16)
    yield case("end token, rows finish apart", call("generate_with_model", p, ids, 10, 5, eos_id=eos),
               probe="2 prompts; row 0 emits the end token (eos_id) some steps before row 1, and both "
                     "before the limit", hint=3)
    p, ids, eos = prompt_ends_with_eos(rng)
    yield case("a prompt that ends with the end token",
               call("generate_with_model", p, ids, 5, 6, eos_id=eos),
               probe="2 prompts; the first ends with the end token, which does not finish it: only "
                     "generated end tokens (eos_id) count", hint=3)
    p, ids = model(rng, 10), prompt(rng, 2, 4)
    new = reference(p, ids, 6, 10)[:, 4:]
    unused = next(t for t in range(V) if not (new == t).any())
    yield case("end token never produced",
               call("generate_with_model", p, ids, 6, 10, eos_id=unused),
               probe="an end token (eos_id) that the model never emits: the limit of 6 new tokens applies",
               hint=3)
    p, ids = crop_matters(rng, 2, 6, 5, 4, 12)
    u = torch.from_numpy(rng.uniform(size=(5, 2)))
    yield case("sampled, temperature 0.7",
               call("generate_with_model", p, ids, 5, 4, temperature=0.7, uniforms=u),
               probe="2 prompts of 6 tokens, context 4, temperature 0.7, one uniform per row and "
                     "step", hint=2)
    p, ids = model(rng, 12, scale=1.0), prompt(rng, 3, 3)
    u = torch.from_numpy(rng.uniform(size=(7, 3)))
    yield case("sampled, temperature 1.8",
               call("generate_with_model", p, ids, 7, 6, temperature=1.8, uniforms=u),
               probe="3 prompts of 3 tokens, context 6, temperature 1.8 (flatter than the model)",
               hint=2)
    p, ids = model(rng, 9, scale=1.0), prompt(rng, 1, 2)
    u = torch.from_numpy(rng.uniform(size=(6, 1)))
    yield case("sampled, one row",
               call("generate_with_model", p, ids, 6, 9, temperature=1.3, uniforms=u),
               probe="1 prompt of 2 tokens, temperature 1.3", hint=2)
    p, ids = even_model(rng, 12), prompt(rng, 2, 3)
    u = torch.from_numpy(rng.integers(1, 8, size=(5, 2)) / 8.0)
    yield case("u on the boundaries of equal intervals",
               call("generate_with_model", p, ids, 5, 6, temperature=0.9, uniforms=u),
               probe="a model that gives 8 of the 11 tokens probability exactly 1/8 (the rest 0), and "
                     "every u a multiple of 1/8, so each u equals a running total: the token is the "
                     "first whose cdf EXCEEDS u, so u = cdf[i] picks a later token than i", hint=2)
    p, ids, u = last_total_below_u(rng, 3, 3, 4, 6, 12, 1.1)
    yield case("u at or above the last running total",
               call("generate_with_model", p, ids, 4, 6, temperature=1.1, uniforms=u),
               probe="at the last step, a row whose running totals end a hair below 1 and whose u "
                     "equals the last of them: no cdf entry exceeds u, so the row takes the last "
                     "token, V - 1 (a count of V names no token)", hint=2)
    p, ids = model(rng, 5), prompt(rng, 2, 4)
    yield case("a context beyond the model's positions",
               call("generate_with_model", p, ids, 4, 100), raises="ValueError",
               probe="context 100 for a model of 5 positions: on the third step the rows hold 6 "
                     "tokens, and the model's ValueError must reach the caller", hint=1)
    p, ids, u = u_a_hair_above(rng, 2, 4, 3, 6, 12, 0.8)
    yield case("u a hair above a running total",
               call("generate_with_model", p, ids, 3, 6, temperature=0.8, uniforms=u),
               probe="uniforms as nested lists of floats; at the first step each row's u is 1e-12 "
                     "above one of its running totals (cdf), so the next token is chosen: u must "
                     "stay float64 (a float32 u falls below that total)", hint=2)
