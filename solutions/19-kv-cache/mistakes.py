"""Known mistakes for lesson 19 (decoding with a KV cache)."""
import numpy as np

from grader.lessons.authoring import mistake


def split(x, h):
    *batch, t, d = x.shape
    return np.swapaxes(x.reshape(*batch, t, h, d // h), -3, -2)


def merge(x):
    *batch, h, t, hd = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, t, h * hd)


def stable_softmax(z):
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def bottom_right(t_q, t_k):
    return np.arange(t_k)[None, :] <= np.arange(t_q)[:, None] + (t_k - t_q)


def attend(q, k, v, Wo, mask="bottom-right", scale=None, after=False):
    """Masked attention of q against k, v, merged and projected, with one piece changeable."""
    t_q, t_k = q.shape[-2], k.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(scale or q.shape[-1])
    allowed = {"bottom-right": lambda: bottom_right(t_q, t_k),
               "top-left": lambda: np.tril(np.ones((t_q, t_k), dtype=bool)),
               "square": lambda: bottom_right(t_q, t_q),
               "none": lambda: np.ones((t_q, t_k), dtype=bool)}[mask]()
    if after:
        weights = stable_softmax(scores) * allowed
        weights = weights / np.sum(weights, axis=-1, keepdims=True)
    else:
        weights = stable_softmax(np.where(allowed, scores, -np.inf))
    return merge(weights @ v) @ Wo


def projected(x_new, Wq, Wk, Wv, h):
    return split(x_new @ Wq, h), split(x_new @ Wk, h), split(x_new @ Wv, h)


def extended(cache, k, v, axis=-2):
    if cache is None:
        return k, v
    return np.concatenate([cache["k"], k], axis=axis), np.concatenate([cache["v"], v], axis=axis)


@mistake("top-left-mask", hint=2, message="""\
Your causal mask starts its triangle in the top-left corner, so new token i may only see keys 0 to
i: the first new token sees the oldest cached token and nothing else. The new tokens are the *last*
T_new positions of T_past + T_new: token i sits at position T_past + i and sees every cached key
and the new keys up to itself. `causal_mask(T_new, T_past + T_new)` (lesson 03) lines the triangle
up with the bottom-right corner.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo, mask="top-left"), {"k": k, "v": v}


@mistake("no-mask-with-a-cache", hint=2, message="""\
You apply the causal mask only when there is no cache, as if a decoding step always brought a
single token, which may see everything. A chunk of several new tokens still needs it: the first
new token must not see the ones after it. Always mask, with `causal_mask(T_new, T_past + T_new)`:
for one new token it is a row of True, so it costs nothing.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    mask = "bottom-right" if cache is None else "none"
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo, mask=mask), {"k": k, "v": v}


@mistake("square-mask", hint=2, message="""\
Your mask is `causal_mask(T_new)`, a square (T_new, T_new) array, but the scores have shape
(T_new, T_past + T_new): one column per cached key as well. It only fits when there is no cache
(or a single new token, where it broadcasts). Pass both lengths: `causal_mask(T_new, T_past +
T_new)`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo, mask="square"), {"k": k, "v": v}


@mistake("mask-after-softmax", hint=2, message="""\
You take the softmax over every key and zero the future ones afterwards (then renormalise). When
a future key's score is far above the allowed ones, the softmax gives it all the weight and the
allowed keys exactly 0, so after zeroing nothing is left: 0 / 0 = NaN. Mask first: set the hidden
scores to -inf, then take the softmax.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo, after=True), {"k": k, "v": v}


@mistake("scale-by-model-width", hint=3, message="""\
You divide the scores by sqrt(D), the model width, instead of sqrt(D / H), the head size. Inside
one head a dot product adds up only D / H products, so that is the width the scale undoes, exactly
as in lesson 08. Read it from the queries after the split: `q.shape[-1]`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo, scale=x_new.shape[-1]), {"k": k, "v": v}


@mistake("cache-ignored", hint=1, message="""\
Your new tokens attend only to each other: the cached keys and values are never used (though you
return an extended cache). The whole point of the cache is that the new tokens can look back at
every earlier token without recomputing it: concatenate the cached keys and values in front of the
new ones *before* the attention.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    y = attend(q, k, v, Wo)
    k, v = extended(cache, k, v)
    return y, {"k": k, "v": v}


@mistake("cache-not-extended", hint=2, message="""\
You return the cache you were given, without the new tokens' keys and values (or None after a
prefill). The next step would then attend to a past with holes in it. Return a new dict whose "k"
and "v" hold the old entries followed by the new ones: shape (..., H, T_past + T_new, D/H).""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo), cache


@mistake("cache-replaced", hint=2, message="""\
Your returned cache holds only the new tokens' keys and values: you replace the cache instead of
appending to it. After the next step, the earlier tokens would be forgotten. The cache grows: keep
the old entries and concatenate the new ones after them, along the time axis.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k_new, v_new = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k_new, v_new)
    return attend(q, k, v, Wo), {"k": k_new, "v": v_new}


@mistake("caches-queries", hint=3, message="""\
You store the new tokens' queries in the cache in place of their keys. A query is used once, by
its own token, in the step that computes that token's output; what later tokens need from the past
are its keys (to score against) and its values (to mix). Cache `x_new @ Wk` and `x_new @ Wv`, split
into heads.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k_all, v_all = extended(cache, k, v)
    stored_k, _ = extended(cache, q, v)
    return attend(q, k_all, v_all, Wo), {"k": stored_k, "v": v_all}


@mistake("caches-before-projection", hint=3, message="""\
Your cache holds the tokens themselves (split into heads), not their keys and values, and you
project the whole cache again at every step. Given a cache of projected keys and values, as the
lesson defines it, that projects them a second time. Cache what attention consumes,
`split_heads(x @ Wk)` and `split_heads(x @ Wv)`: that is what saves the recomputation.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q = split(x_new @ Wq, n_heads)
    raw_k, raw_v = extended(cache, split(x_new, n_heads), split(x_new, n_heads))
    k, v = split(merge(raw_k) @ Wk, n_heads), split(merge(raw_v) @ Wv, n_heads)
    return attend(q, k, v, Wo), {"k": raw_k, "v": raw_v}


@mistake("concatenate-default-axis", hint=2, message="""\
`np.concatenate([cache["k"], k])` joins along axis 0, which is the head axis (or a batch axis), not
time. The arrays have shape (..., H, T, D/H), and the cache grows along T: pass `axis=-2`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v, axis=0)
    return attend(q, k, v, Wo), {"k": k, "v": v}


@mistake("cache-changed-in-place", hint=2, message="""\
You write the extended keys and values back into the dict you were given (`cache["k"] = ...`), so
the caller's cache changes under it. A caller may keep that cache, to try another continuation
from the same point (beam search does exactly this); the lesson's contract is a new dict, the
input left as it was. Build `{"k": ..., "v": ...}` and return it.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    if cache is None:
        cache = {}
    cache["k"], cache["v"] = k, v
    return attend(q, k, v, Wo), cache


@mistake("new-before-old", hint=2, message="""\
You put the new keys and values in front of the cached ones, `np.concatenate([k, cache["k"]],
axis=-2)`. The cache is in time order: the earlier tokens first, then the new ones after them, so
that key j is the token at position j and the causal mask lines up. Use
`np.concatenate([cache["k"], k], axis=-2)`, and the same for v.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    if cache is not None:
        k = np.concatenate([k, cache["k"]], axis=-2)
        v = np.concatenate([v, cache["v"]], axis=-2)
    return attend(q, k, v, Wo), {"k": k, "v": v}


@mistake("concatenate-feature-axis", hint=2, message="""\
You join the cached and new keys along the last axis, the features of a head (`axis=-1`), which
makes wider keys instead of more of them. The arrays have shape (..., H, T, D/H), and the cache
grows along T, the time axis: `np.concatenate([cache["k"], k], axis=-2)`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v, axis=-1)
    return attend(q, k, v, Wo), {"k": k, "v": v}


@mistake("no-scale", hint=3, message="""\
Your scores are the plain dot products, not divided by sqrt(D / H). As in lesson 08, each head's
scores are divided by the square root of the head size, read from the queries after the split:
`/ np.sqrt(q.shape[-1])`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo, scale=1.0), {"k": k, "v": v}


@mistake("cache-as-tuple", hint=2, message="""\
You return the cache as a tuple `(k, v)` (the form of `past_key_values` in `transformers`). The
lesson's cache is a dict, as it was handed to you: return a new dict `{"k": k, "v": v}`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo), (k, v)


@mistake("cached-keys-as-values", hint=2, message="""\
You extend the values with the cached KEYS (`np.concatenate([cache["k"], v], axis=-2)`, a copy-paste
of the line above it). The past values are in `cache["v"]`: `v = np.concatenate([cache["v"], v],
axis=-2)`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    if cache is not None:
        k, v = np.concatenate([cache["k"], k], axis=-2), np.concatenate([cache["k"], v], axis=-2)
    return attend(q, k, v, Wo), {"k": k, "v": v}


@mistake("concatenate-axis-1", hint=2, message="""\
You join the cached and new keys along axis 1. That is the time axis only when the arrays are
(H, T, D/H), with no batch axis; with one, axis 1 is the head axis, and you stack heads instead of
tokens. Count from the end, where the time axis always is: `np.concatenate([cache["k"], k],
axis=-2)`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v, axis=1)
    return attend(q, k, v, Wo), {"k": k, "v": v}


@mistake("no-mask", hint=2, message="""\
Your attention has no causal mask: every new token sees every key, including the new tokens after
it. With a single new token that is harmless (it may see all the past), but a prefill or a chunk of
several tokens must hide the later ones: `np.where(causal_mask(T_new, T_past + T_new), scores,
-np.inf)` before the softmax.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo, mask="none"), {"k": k, "v": v}


@mistake("no-output-projection", hint=3, message="""\
You return the merged heads without the output projection Wo. As in lesson 08, attention ends by
mixing the heads: `merge_heads(softmax(scores) @ v) @ Wo`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, np.eye(x_new.shape[-1])), {"k": k, "v": v}


@mistake("float32-arithmetic", hint=1, message="""\
Your answers are float32: somewhere the inputs, the cache or the weights were converted (or a
float32 array started the computation), and float32 keeps only about 7 significant digits. The lesson
computes in float64: keep every array float64, the cache included.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    f = lambda a: np.asarray(a, dtype=np.float32)
    x_new, Wq, Wk, Wv, Wo = map(f, (x_new, Wq, Wk, Wv, Wo))
    cache = None if cache is None else {"k": f(cache["k"]), "v": f(cache["v"])}
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo), {"k": k, "v": v}


@mistake("values-from-wk", hint=3, message="""\
Your values are made with Wk, a copy-paste of the key line: `v = split_heads(x_new @ Wk, n_heads)`.
Each of the three projections has its own weight, and the values, the vectors the weights average,
come from `x_new @ Wv`. Because the wrong values then go into the cache, every later step is wrong
too.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wk, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo), {"k": k, "v": v}


@mistake("keys-from-wq", hint=3, message="""\
Your keys are made with Wq, a copy-paste of the query line: `k = split_heads(x_new @ Wq, n_heads)`.
Each head then scores its queries against themselves. Each projection has its own weight: the keys
come from `x_new @ Wk`, and the cache must hold those.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wq, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo), {"k": k, "v": v}


@mistake("mask-inverted", hint=2, message="""\
Your mask hides the keys a token may see and keeps the ones it may not: `np.where(mask, -np.inf,
scores)` puts -inf where `causal_mask` says True. True means "may attend": keep those scores and
hide the rest, `np.where(mask, scores, -np.inf)`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    weights = stable_softmax(np.where(bottom_right(q.shape[-2], k.shape[-2]), -np.inf, scores))
    return merge(weights @ v) @ Wo, {"k": k, "v": v}


@mistake("softmax-over-queries", message="""\
Your softmax runs over axis -2, the new tokens, so each key's weights are shared out among the
queries instead of each query's among the keys. Every query's row of scores is a distribution
over the keys it may see: `softmax(scores, axis=-1)`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    scores = np.where(bottom_right(q.shape[-2], k.shape[-2]), scores, -np.inf)
    e = np.exp(scores - np.max(scores, axis=-2, keepdims=True))
    return merge(e / np.sum(e, axis=-2, keepdims=True) @ v) @ Wo, {"k": k, "v": v}


@mistake("scale-without-square-root", hint=3, message="""\
You divide the scores by the head size, `q.shape[-1]`, instead of by its square root. The scale
that keeps dot products of D/H-long vectors at a steady size is sqrt(D / H):
`/ np.sqrt(q.shape[-1])`.""")
def decode_step(x_new, cache, Wq, Wk, Wv, Wo, n_heads):
    q, k, v = projected(x_new, Wq, Wk, Wv, n_heads)
    k, v = extended(cache, k, v)
    return attend(q, k, v, Wo, scale=q.shape[-1] ** 2), {"k": k, "v": v}
