"""Known mistakes for lesson 15 (rotary position embeddings, rotate-half convention)."""
import numpy as np

from grader.lessons.authoring import mistake


def _angles(x, positions, theta):
    d = x.shape[-1]
    inv_freq = theta ** (-2.0 * np.arange(d // 2) / d)
    return np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]


@mistake("interleaved-pairs", hint=1, message="""\
You rotate neighbouring columns together, (0, 1), (2, 3), (4, 5) and so on: the interleaved
convention of the original RoPE paper and of GPT-J. This lesson uses the rotate-half convention of
LLaMA in `transformers`: column i is paired with column i + d/2, so the first half of the vector holds
the first member of every pair and the second half the second. Both are valid rotary embeddings, but
they pair different numbers, so their outputs differ (they agree only when d = 2). Split with
`x1, x2 = x[..., :d//2], x[..., d//2:]`.""")
def rope(x, positions, theta=10000.0):
    angles = _angles(x, positions, theta)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    out = np.empty_like(x)
    out[..., 0::2] = x1 * cos - x2 * sin
    out[..., 1::2] = x2 * cos + x1 * sin
    return out


@mistake("exponent-missing-2", hint=2, message="""\
Your frequencies are theta ** (-i / d): the factor 2 in the exponent is missing. Pair i turns at
theta ** (-2i / d), so the d/2 frequencies run from 1 down to about 1/theta across the pairs; without
the 2 they only reach about 1/sqrt(theta), and every pair but the first turns too fast. Use
`theta ** (-2 * np.arange(d // 2) / d)` (the same as `theta ** (-np.arange(0, d, 2) / d)`).""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    angles = np.asarray(positions, dtype=np.float64)[:, None] * theta ** (-np.arange(d // 2) / d)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


@mistake("frequency-per-column", hint=2, message="""\
You give every column its own frequency, theta ** (-j / d) for j = 0 .. d-1, instead of one frequency
per pair. The two members of a pair (columns i and i + d/2) must turn through the same angle:
otherwise the map is no longer a rotation, vector lengths change, and the dot product of a query and
a key stops depending only on their distance. Compute d/2 frequencies, theta ** (-2i / d), and use
each one for both columns of its pair.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    angles = np.asarray(positions, dtype=np.float64)[:, None] * theta ** (-np.arange(d) / d)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    rotated = np.concatenate([-x2, x1], axis=-1)
    return x * cos + rotated * sin


@mistake("frequencies-grow", hint=2, message="""\
Your frequencies are theta ** (+2i / d): the exponent has lost its minus sign, so the pairs turn
faster and faster, up to theta times per position, instead of slower and slower. In RoPE the first
pair turns by one radian per position and each later pair more slowly, down to about 1/theta:
`theta ** (-2 * np.arange(d // 2) / d)`, or `1 / theta ** (2 * np.arange(d // 2) / d)`.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    angles = np.asarray(positions, dtype=np.float64)[:, None] * theta ** (2.0 * np.arange(d // 2) / d)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


@mistake("positions-from-zero", hint=2, message="""\
You rotate row t by the angle of position t (`np.arange(T)`) and ignore the `positions` you were
given. The rows are not always the first T positions of a sequence: a block of new tokens may start
at position 100, and packed or padded sequences skip numbers. Row t sits at `positions[t]`: build
the angles from `positions[:, None] * inv_freq`.""")
def rope(x, positions, theta=10000.0):
    return _reference_rope(x, np.arange(x.shape[-2]), theta)


@mistake("sin-cos-swapped", hint=3, message="""\
You swapped sine and cosine: `x * sin + rotate_half(x) * cos`. A rotation by angle a keeps
cos(a) of each coordinate and mixes in sin(a) of its partner, so that at position 0 (angle 0) nothing
moves. Yours turns every pair by 90 degrees minus the angle, so even position 0 changes x. The
formula is `x * cos + rotate_half(x) * sin`.""")
def rope(x, positions, theta=10000.0):
    angles = _angles(x, positions, theta)
    cos, sin = np.cos(angles), np.sin(angles)
    d = x.shape[-1]
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * sin - x2 * cos, x2 * sin + x1 * cos], axis=-1)


@mistake("rotate-half-sign", hint=3, message="""\
Your rotation turns the wrong way: `rotate_half(x)` must be `[-x2, x1]` (minus on the second half,
which moves to the front), and yours is `[x2, -x1]`. That rotates every pair by minus its angle. The
dot products still depend only on distances, so the mistake hides from that check, but the values
are not LLaMA's: out[i] = x1[i] cos - x2[i] sin and out[i + d/2] = x2[i] cos + x1[i] sin.""")
def rope(x, positions, theta=10000.0):
    angles = _angles(x, positions, theta)
    cos, sin = np.cos(angles), np.sin(angles)
    d = x.shape[-1]
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos + x2 * sin, x2 * cos - x1 * sin], axis=-1)


@mistake("angles-as-degrees", hint=2, message="""\
You convert the angles with `np.radians` (or `np.deg2rad`), as if position times frequency were
measured in degrees. It is already in radians: the first pair turns by exactly one radian per
position. `np.cos` and `np.sin` take radians, so pass them the angles as they are.""")
def rope(x, positions, theta=10000.0):
    angles = np.radians(_angles(x, positions, theta))
    cos, sin = np.cos(angles), np.sin(angles)
    d = x.shape[-1]
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


@mistake("frequencies-repeated-not-concatenated", hint=3, message="""\
You widen the (T, d/2) angles to (T, d) with `np.repeat(angles, 2, axis=-1)`, which gives
[a0, a0, a1, a1, ...]: the layout of the interleaved convention. With rotate-half pairs, column i and
column i + d/2 share an angle, so the widened angles must be the two halves side by side,
[a0, a1, ..., a0, a1, ...]: `np.concatenate([angles, angles], axis=-1)` (torch's `cat((freqs, freqs))`).""")
def rope(x, positions, theta=10000.0):
    angles = np.repeat(_angles(x, positions, theta), 2, axis=-1)
    cos, sin = np.cos(angles), np.sin(angles)
    d = x.shape[-1]
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return x * cos + np.concatenate([-x2, x1], axis=-1) * sin


@mistake("second-half-not-rotated", hint=3, message="""\
You rotate only the first half: out[i] = x1[i] cos - x2[i] sin is right, but you leave the second
half, x2, as it was. A rotation moves both coordinates of a pair: the second half becomes
x2 cos + x1 sin. With one half left untouched the vector lengths change and the dot products depend
on absolute positions.""")
def rope(x, positions, theta=10000.0):
    angles = _angles(x, positions, theta)
    cos, sin = np.cos(angles), np.sin(angles)
    d = x.shape[-1]
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2], axis=-1)


def _reference_rope(x, positions, theta):
    angles = _angles(x, positions, theta)
    cos, sin = np.cos(angles), np.sin(angles)
    d = x.shape[-1]
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


def _rotate(x, angles):
    d = x.shape[-1]
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


@mistake("float32-frequencies", hint=2, message="""\
Your frequencies are float32, as in code that builds `inv_freq` from `np.arange(..., dtype=np.float32)`
or with `.float()`. At a position of a few thousand the angle of the fastest pair is thousands of
radians, and float32's 7 digits leave the frequencies off enough to move it by about a thousandth of a
radian, which shows in the result. Keep inv_freq and the angles in float64:
`theta ** (-2.0 * np.arange(d // 2) / d)`.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = (theta ** (-2.0 * np.arange(d // 2) / d)).astype(np.float32)
    return _rotate(x, np.asarray(positions)[:, None] * inv_freq[None, :])


@mistake("float32-angles", hint=2, message="""\
Your angles are float32 (cast with `.astype(np.float32)`, or built from float32 positions and
frequencies), so their cosines and sines are float32 too. At a position of a few thousand the angle
of the fastest pair is thousands of radians, and float32 keeps it only to about a thousandth of a
radian. Keep the angles, and their cos and sin, in float64.""")
def rope(x, positions, theta=10000.0):
    angles = _angles(x, positions, theta).astype(np.float32)
    d = x.shape[-1]
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


@mistake("integer-division-exponent", hint=2, message="""\
Your exponent uses integer division, `-2 * np.arange(d // 2) // d`, which rounds -2i/d down to a
whole number: 0 for the first pair and -1 for every other, so all pairs but the first turn at the
same 1/theta. Use true division: `theta ** (-2.0 * np.arange(d // 2) / d)`.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = theta ** (-2 * np.arange(d // 2) // d)
    return _rotate(x, np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :])


@mistake("exponent-doubled", hint=2, message="""\
Your exponent counts in steps of 2 twice: `np.arange(0, d, 2)` already gives 2i, and you multiply by
2 again, so pair i turns at theta ** (-4i / d), far too slowly. Use either
`theta ** (-np.arange(0, d, 2) / d)` or `theta ** (-2 * np.arange(d // 2) / d)`, not both.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = theta ** (-2.0 * np.arange(0, d, 2) / d)
    return _rotate(x, np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :])


@mistake("pairs-counted-from-1", hint=2, message="""\
You number the pairs from 1 (`np.arange(1, d // 2 + 1)`), so even the first pair turns at
theta ** (-2/d) instead of one radian per position. Pairs are numbered i = 0 .. d/2 - 1:
`np.arange(d // 2)`.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = theta ** (-2.0 * np.arange(1, d // 2 + 1) / d)
    return _rotate(x, np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :])


@mistake("theta-ignored", hint=2, message="""\
You use 10000 as the base whatever `theta` says. 10000 is only the default; models choose other
bases (LLaMA 3 uses 500000). Use the argument: `theta ** (-2 * np.arange(d // 2) / d)`.""")
def rope(x, positions, theta=10000.0):
    return _rotate(x, _angles(x, positions, 10000.0))


@mistake("angles-not-outer", hint=2, message="""\
You multiply `positions * inv_freq` directly, which pairs position t with frequency t (and fails to
broadcast when T differs from d/2). Every row needs every pair's angle: the outer product
`positions[:, None] * inv_freq[None, :]`, a (T, d/2) table.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = theta ** (-2.0 * np.arange(d // 2) / d)
    return _rotate(x, np.asarray(positions, dtype=np.float64) * inv_freq)


@mistake("modifies-x", hint=3, message="""\
You write the rotated halves back into `x` (`x[..., :half] = ...`), which changes the caller's array,
and a half written first is then read again as if it were the original. Build a new array from the
original halves: `np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)`.""")
def rope(x, positions, theta=10000.0):
    angles = _angles(x, positions, theta)
    cos, sin = np.cos(angles), np.sin(angles)
    half = x.shape[-1] // 2
    x[..., :half] = x[..., :half] * cos - x[..., half:] * sin
    x[..., half:] = x[..., half:] * cos + x[..., :half] * sin
    return x


@mistake("integer-division-all-ones", hint=2, message="""\
Your exponent uses integer division, as in `np.arange(0, d, 2) // d` (or `2 * i // d`): 2i is always
below d, so the exponent rounds to 0 and every pair turns at one radian per position, like the first.
Use true division, `/`: `theta ** (-2.0 * np.arange(d // 2) / d)`.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = 1.0 / theta ** (np.arange(0, d, 2) // d)
    return _rotate(x, np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :])


@mistake("float32-throughout-angles", hint=2, message="""\
Your angles are computed in float32 from start to end, as in code translated from PyTorch's
`inv_freq = 1.0 / theta ** (torch.arange(0, d, 2).float() / d)` and `positions.float()`: float32
frequencies, float32 positions, a float32 product and float32 cos and sin. At a position of a few
thousand the angle of the fastest pair is thousands of radians, and float32 keeps it only to about a
thousandth of a radian. Keep the frequencies, the angles and their cos and sin in float64.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    inv_freq = 1.0 / theta ** (np.arange(0, d, 2).astype(np.float32) / d)
    angles = np.outer(np.asarray(positions).astype(np.float32), inv_freq)
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


def signed_halves(x, positions, theta, first, second):
    """The rotate-half convention with the sign of each half's sine term given (-1, +1 is right)."""
    angles = _angles(x, positions, theta)
    cos, sin = np.cos(angles), np.sin(angles)
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return np.concatenate([x1 * cos + first * x2 * sin, x2 * cos + second * x1 * sin], axis=-1)


@mistake("first-half-sign", hint=3, message="""\
Your first half is `x1 * cos + x2 * sin`: the sign of its sine term is flipped while the second
half's is right, so the pairs are not rotated but sheared (their lengths change). A
counter-clockwise rotation is `x1 * cos - x2 * sin` for the first member of each pair and
`x2 * cos + x1 * sin` for the second.""")
def rope(x, positions, theta=10000.0):
    return signed_halves(x, positions, theta, 1.0, 1.0)


@mistake("second-half-sign", hint=3, message="""\
Your second half is `x2 * cos - x1 * sin`: the sign of its sine term is flipped while the first
half's is right, so the pairs are not rotated but sheared (their lengths change). A
counter-clockwise rotation is `x1 * cos - x2 * sin` for the first member of each pair and
`x2 * cos + x1 * sin` for the second.""")
def rope(x, positions, theta=10000.0):
    return signed_halves(x, positions, theta, -1.0, -1.0)


@mistake("exponent-not-divided-by-d", hint=2, message="""\
Your frequencies are theta ** (-2 * i), without the division by d, so every pair after the first
turns at almost no angle at all (theta ** -2 is 1e-8). Pair i turns at theta ** (-2 * i / d):
`inv_freq = theta ** (-2 * np.arange(d // 2) / d)`.""")
def rope(x, positions, theta=10000.0):
    d = x.shape[-1]
    angles = np.asarray(positions, dtype=np.float64)[:, None] * theta ** (-2.0 * np.arange(d // 2))
    cos, sin = np.cos(angles), np.sin(angles)
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
