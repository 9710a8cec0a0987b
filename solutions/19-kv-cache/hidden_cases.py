"""Hidden cases for lesson 19 (decoding with a KV cache)."""
import numpy as np

from grader.lessons.authoring import Spec, call, case, promise

PROMISES = (
    promise("with the projected, head-split keys and values of the T_past earlier tokens",
            cases=("a chunk after a cache", "one new token"),
            broken_by=("caches-before-projection", "cache-ignored", "cached-keys-as-values")),
    promise("equal to the last T_new rows of lesson 08's mha_forward run on all T_past + T_new "
            "tokens",
            cases=("prefill from an empty cache", "a chunk after a cache",
                   "a chunk longer than the cache", "prefill then chunks equals the full forward"),
            broken_by=("top-left-mask", "no-mask-with-a-cache", "square-mask", "no-mask",
                       "no-output-projection", "values-from-wk", "keys-from-wq",
                       "float32-arithmetic")),
    promise("the old entries, then the new ones.",
            cases=("a chunk after a cache", "one new token", "a chunk as long as the cache"),
            broken_by=("cache-not-extended", "cache-replaced", "caches-queries",
                       "concatenate-default-axis", "new-before-old", "concatenate-feature-axis",
                       "cache-as-tuple")),
    promise('Do not change the cache you are given (no cache["k"] = ...): return a new dict.',
            cases=("a chunk after a cache",), broken_by=("cache-changed-in-place",)),
    promise("The mask is applied before the softmax; each head's scores are divided by "
            "sqrt(D / H).",
            cases=("a future key with a huge score", "sharp attention", "a chunk after a cache"),
            broken_by=("mask-after-softmax", "scale-by-model-width", "no-scale")),
    promise("with any number of leading batch dimensions (none, one, or more)",
            cases=("a batch", "two batch dimensions", "one new token"),
            broken_by=("concatenate-axis-1",)),
)

SPEC = Spec(promises=PROMISES, 
    hint_topics=(("shapes", "T_past", "first", "cache"), ("axis=-2", "time axis", "batch", "mask", "concatenate", "causal_mask(T_new, T_past + T_new)", "before the softmax", "new dict", "never write"), ("merge_heads", "split_heads", "x_new @ Wk", "q.shape[-1]")),
    functions=("decode_step",),
    no_loops=True,
    forbidden={
        "scaled_dot_product_attention": "this lesson builds attention from its parts in numpy",
        "MultiheadAttention": "this lesson builds multi-head attention from its parts in numpy",
    },
)


def split(x, h):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, h, d // h), -3, -2)


def merge(x):
    *batch, h, t, hd = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, t, h * hd)


def full_forward(x, Wq, Wk, Wv, Wo, h):
    """Lesson 08's causal multi-head attention on a whole sequence."""
    q, k, v = split(x @ Wq, h), split(x @ Wk, h), split(x @ Wv, h)
    t = x.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(np.tril(np.ones((t, t), dtype=bool)), scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return merge(e / e.sum(axis=-1, keepdims=True) @ v) @ Wo


def cache_of(x_past, Wk, Wv, h):
    """The cache the earlier tokens leave: their projected, head-split keys and values."""
    return {"k": split(x_past @ Wk, h), "v": split(x_past @ Wv, h)}


def weights(rng, d):
    """Wq, Wk, Wv, Wo: random (d, d) matrices, none of them symmetric."""
    return [rng.normal(scale=1 / np.sqrt(d), size=(d, d)) for _ in range(4)]


def step(rng, batch, t_past, t_new, d, h, x_scale=1.0):
    """One decode_step call: t_new tokens after a cache of t_past (None when t_past is 0)."""
    x = rng.normal(scale=x_scale, size=(*batch, t_past + t_new, d))
    W = weights(rng, d)
    cache = cache_of(x[..., :t_past, :], W[1], W[2], h) if t_past else None
    return call("decode_step", x[..., t_past:, :], cache, *W, h)


def chunks_match(sizes):
    """A check: the chunks' outputs, in order, are the rows of the full forward pass, and each
    returned cache holds the keys and values of every token so far."""
    def check(got, expected, calls):
        x = np.concatenate([c.args[0] for c in calls], axis=-2)
        W, h = calls[0].args[2:6], calls[0].args[6]
        full = full_forward(x, *W, h)
        start = 0
        for n, (out, size) in enumerate(zip(got, sizes)):
            y, cache = out
            y = np.asarray(y, dtype=float)
            rows = full[..., start:start + size, :]
            where = f"chunk {n + 1} (positions {start} to {start + size - 1})"
            if y.shape != rows.shape:
                return f"{where}: expected an output of shape {rows.shape}, got {y.shape}"
            if not np.allclose(y, rows, rtol=1e-6, atol=1e-9):
                worst = np.max(np.abs(y - rows))
                return (f"{where}: your output differs from rows {start} to {start + size - 1} of "
                        f"mha_forward on the whole sequence, by up to {worst:.6g}")
            start += size
            want = cache_of(x[..., :start, :], W[1], W[2], h)
            if not isinstance(cache, dict) or set(cache) != {"k", "v"}:
                return f"{where}: the returned cache should be a dict with the keys 'k' and 'v'"
            for key in "kv":
                c = np.asarray(cache[key], dtype=float)
                if c.shape != want[key].shape:
                    return (f"{where}: the returned cache['{key}'] should hold all {start} tokens "
                            f"so far, shape {want[key].shape}; yours has shape {c.shape}")
                if not np.allclose(c, want[key], rtol=1e-6, atol=1e-9):
                    return (f"{where}: the returned cache['{key}'] does not hold the projected "
                            f"{'keys' if key == 'k' else 'values'} of the tokens so far")
        return None
    return check


def cases(rng):
    yield case("prefill from an empty cache", step(rng, (), 0, 6, 12, 3),
               probe="cache None and 6 tokens of width 12, 3 heads: the whole causal attention, "
                     "and a cache of shape (3, 6, 4)", hint=1)
    yield case("one new token", step(rng, (), 5, 1, 12, 3),
               probe="one token after a cache of 5 (3 heads of size 4)", hint=1)
    yield case("a chunk after a cache", step(rng, (), 4, 3, 10, 2),
               probe="3 new tokens after a cache of 4 (D=10, 2 heads of size 5): each new token "
                     "sees the cache and the new tokens up to itself", hint=1)
    yield case("a chunk longer than the cache", step(rng, (), 2, 5, 8, 4),
               probe="5 new tokens after a cache of 2 (4 heads of size 2)", hint=1)
    yield case("a chunk as long as the cache", step(rng, (), 3, 3, 12, 3),
               probe="3 new tokens after a cache of 3 (3 heads of size 4): the cache and the new "
                     "keys have the same shape, so only the time axis joins them", hint=2)
    yield case("a batch", step(rng, (2,), 5, 3, 12, 4),
               probe="x_new (2, 3, 12) after a cache of shape (2, 4, 5, 3)", hint=2)
    yield case("two batch dimensions", step(rng, (2, 3), 4, 2, 8, 2),
               probe="x_new (2, 3, 2, 8) after a cache of shape (2, 3, 2, 4, 4)", hint=2)
    yield case("one head", step(rng, (), 3, 2, 6, 1),
               probe="a single head of size D=6: 2 tokens after a cache of 3", hint=1)
    yield case("head size 1", step(rng, (2,), 3, 2, 5, 5),
               probe="5 heads of size 1, a batch of 2: 2 tokens after a cache of 3", hint=1)
    yield case("sharp attention", step(rng, (), 6, 3, 12, 3, x_scale=3.0),
               probe="larger inputs, so every softmax is far from uniform: 3 tokens after 6")

    # A future key that beats every allowed key by far more than 745: the first new token must
    # not see it, however large it is. Wk = Wq and the second new token is s times the first,
    # so in every head its key scores s * |q_h|^2 / sqrt(d/h) against the first token's query.
    d, h, t_past = 8, 2, 3
    Wq, _, Wv, Wo = weights(rng, d)
    Wk = Wq.copy()
    past = rng.normal(size=(t_past, d))
    a = rng.normal(size=d)
    q = split((a @ Wq)[None, :], h)[:, 0, :]                             # (h, d/h)
    keys = split(np.vstack([past, a[None, :]]) @ Wk, h)                  # (h, t_past + 1, d/h)
    allowed = np.max(np.einsum("hd,htd->ht", q, keys), axis=1) / np.sqrt(d // h)
    own = np.sum(q * q, axis=1) / np.sqrt(d // h)                         # s * own is the future score
    s = np.max((allowed + 3000.0) / own)
    x_new = np.vstack([a, s * a, rng.normal(size=d)])
    yield case("a future key with a huge score",
               call("decode_step", x_new, cache_of(past, Wk, Wv, h), Wq, Wk, Wv, Wo, h),
               probe="3 new tokens after a cache of 3, where the 2nd new token's key scores more "
                     "than 3000 above every key the 1st may see: masked before the softmax, it "
                     "changes nothing", hint=2)

    # Prefill, then chunks of different sizes, each with the cache the earlier ones leave.
    sizes = (4, 1, 3, 2, 1, 2)
    d, h = 12, 3
    x = rng.normal(size=(2, sum(sizes), d))
    W = weights(rng, d)
    calls, start = [], 0
    for size in sizes:
        cache = cache_of(x[:, :start], W[1], W[2], h) if start else None
        calls.append(call("decode_step", x[:, start:start + size], cache, *W, h))
        start += size
    yield case("prefill then chunks equals the full forward", *calls,
               probe="a batch of 2 sequences of 13 tokens (D=12, 3 heads): a prefill of 4, then "
                     "chunks of 1, 3, 2, 1 and 2 tokens; together the outputs must equal lesson 08's "
                     "mha_forward on all 13 tokens, and each returned cache the keys and values "
                     "so far", check=chunks_match(sizes), hint=1)
