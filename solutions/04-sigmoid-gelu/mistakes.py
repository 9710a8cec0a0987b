"""Known mistakes for lesson 04 (a sigmoid that never overflows, and GELU in its tanh form)."""
import math

import numpy as np

from grader.lessons.authoring import mistake


@mistake("exp-ratio", hint=1, message="""\
You compute the sigmoid as exp(z) / (1 + exp(z)). It equals the sigmoid on paper, but `np.exp(z)`
overflows to `inf` once z passes about 709, and `inf / inf` is NaN. Use the form
1/2 (1 + tanh(z / 2)): tanh saturates at -1 and 1, so no intermediate value can ever overflow.""")
def sigmoid(z):
    e = np.exp(z)
    return e / (1.0 + e)


@mistake("reciprocal-overflow", hint=1, message="""\
You compute 1 / (1 + exp(-z)). That is the definition, and for large positive z it is fine, but for
z below about -709, `np.exp(-z)` overflows to `inf`. The answer 1 / inf = 0 happens to be right, but
the overflow itself is an error here, as it is in any code that checks for it. Use
1/2 (1 + tanh(z / 2)), which never computes a number larger than 1.""")
def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


@mistake("tanh-without-half", hint=2, message="""\
You compute 1/2 (1 + tanh(z)): the argument of tanh must be z / 2. The identity is
sigma(z) = 1/2 (1 + tanh(z / 2)), because tanh(x) = 2 sigma(2x) - 1. Without the half, your curve is
twice as steep as the sigmoid: right at z = 0, wrong everywhere else.""")
def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(z))


@mistake("abs-without-branch", hint=1, message="""\
You compute 1 / (1 + exp(-|z|)) to keep the exponential from overflowing, but that is sigma(|z|), so
every negative z gets the answer of its positive twin (above 1/2). The absolute value only works with
a second branch: for z < 0, sigma(z) = exp(z) / (1 + exp(z)). Simpler still, use
1/2 (1 + tanh(z / 2)), which is stable for every z with no branch at all.""")
def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.abs(z)))


@mistake("where-both-branches", hint=1, message="""\
Your two-branch sigmoid still computes `np.exp` of a huge number. Either you choose between
1 / (1 + exp(-z)) and exp(z) / (1 + exp(z)) with `np.where`, which receives both branches already
computed for every entry, so the overflow happens before it chooses; or the branches are the wrong
way round, each one given the sign it overflows on (1 / (1 + exp(-z)) is the safe one for z >= 0,
exp(z) / (1 + exp(z)) for z < 0). Build both from `e = np.exp(-np.abs(z))`, which is at most 1, or
use 1/2 (1 + tanh(z / 2)), which needs no branch at all and never overflows.""")
def sigmoid(z):
    return np.where(z >= 0, 1.0 / (1.0 + np.exp(-z)), np.exp(z) / (1.0 + np.exp(z)))


erf = np.vectorize(math.erf, otypes=[float])


@mistake("erf-gelu", hint=2, message="""\
You compute the exact GELU, 1/2 z (1 + erf(z / sqrt(2))), but this lesson asks for the tanh form,
1/2 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3))), the approximation GPT-2 uses (PyTorch's
`approximate="tanh"`). The two differ by up to about 5e-4, enough to change a model's outputs when its
weights were trained with the other one. Use the tanh formula exactly as given.""")
def gelu(z):
    return 0.5 * z * (1.0 + erf(z / np.sqrt(2.0)))


@mistake("squared-not-cubed", hint=2, message="""\
Your inner polynomial uses 0.044715 z^2 where the formula has 0.044715 z^3. With the square the
correction no longer has the sign of z, so negative inputs are bent the wrong way. The argument of
tanh is sqrt(2/pi) (z + 0.044715 z**3).""")
def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 2)))


@mistake("sqrt-two-over-pi", hint=2, message="""\
Your constant is sqrt(2) / pi (about 0.450) instead of sqrt(2 / pi) (about 0.798): the square root
must cover the whole fraction. Write it as `np.sqrt(2 / np.pi)`; with the smaller constant the tanh
rises too slowly and the gate opens late.""")
def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0) / np.pi * (z + 0.044715 * z ** 3)))


@mistake("gate-only", hint=2, message="""\
You return the gate 1/2 (1 + tanh(...)), a number between 0 and 1, without multiplying it by z.
GELU is z times that gate: the gate decides how much of z passes through, so large positive z comes
out nearly unchanged and large negative z comes out near 0. Multiply by z: 0.5 * z * (1 + tanh(...)).""")
def gelu(z):
    return 0.5 * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)))


@mistake("gelu-overflowing-sigmoid", hint=2, message="""\
You write GELU as z times a sigmoid, which is right (1/2 (1 + tanh(x)) is sigmoid(2x)), but the
sigmoid inside is 1 / (1 + exp(-x)). For z below about -30, the cube makes x huge and negative and
`np.exp(-x)` overflows. Either use the tanh formula directly, or call the stable sigmoid from
earlier in this lesson.""")
def gelu(z):
    x = 2.0 * np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)
    return z / (1.0 + np.exp(-x))


@mistake("half-not-distributed", hint=2, message="""\
You write the sigmoid as `0.5 * 1 + np.tanh(z / 2)` (or `0.5 + np.tanh(z / 2)`): the 1/2 multiplies
only the 1, not the tanh, so your values run from -0.5 to 1.5 instead of 0 to 1. The 1/2 multiplies
the whole bracket: `0.5 * (1 + np.tanh(z / 2))`.""")
def sigmoid(z):
    return 0.5 * 1.0 + np.tanh(0.5 * z)


@mistake("sqrt-two-pi", hint=2, message="""\
Your constant is sqrt(2 pi) (about 2.507) instead of sqrt(2 / pi) (about 0.798): 2 is divided by pi,
not multiplied. With the larger constant the tanh saturates far too early. Write
`np.sqrt(2 / np.pi)`.""")
def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 * np.pi) * (z + 0.044715 * z ** 3)))


@mistake("no-cubic-term", hint=2, message="""\
Your inner term has no 0.044715 z^3 correction: you compute tanh(sqrt(2/pi) z). That cubic term is
what makes the tanh curve follow the exact GELU; without it the gate is off by up to a few percent
near |z| = 2. The argument of tanh is sqrt(2/pi) (z + 0.044715 z**3), with the power 3.""")
def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * z))


@mistake("scale-only-z", hint=3, message="""\
You multiply only z by sqrt(2/pi), not the whole inner sum: `np.sqrt(2 / np.pi) * z + 0.044715 * z**3`.
Multiplication binds tighter than +, so the cubic term escapes the scale. Put the sum in
parentheses: `inner = np.sqrt(2 / np.pi) * (z + 0.044715 * z ** 3)`.""")
def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * z + 0.044715 * z ** 3))


@mistake("gate-parentheses", hint=3, message="""\
You write `0.5 * z * 1 + np.tanh(inner)` without parentheses around `1 + np.tanh(inner)`, so you
compute z / 2 plus tanh(inner) instead of z / 2 times (1 + tanh(inner)). Multiplication binds
tighter than +: write `0.5 * z * (1 + np.tanh(inner))`.""")
def gelu(z):
    inner = np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ** 3)
    return 0.5 * z * 1.0 + np.tanh(inner)


@mistake("sigmoid-gelu", hint=2, message="""\
You compute GELU as z * sigmoid(1.702 z), the quick sigmoid approximation. This lesson asks for the
tanh form, 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3))), which GPT-2 uses; the two differ by up to
about 0.02. Use the tanh formula exactly as given.""")
def gelu(z):
    return z * (0.5 * (1.0 + np.tanh(0.5 * 1.702 * z)))


@mistake("caret-power", hint=2, message="""\
You write the cube as `z ^ 3`. In Python `^` is not a power but a bitwise exclusive or, which numpy
refuses for floats (a TypeError). The power operator is `**`: `z ** 3` (or `np.power(z, 3)`); the
power is 3.""")
def gelu(z):
    return 0.5 * z * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (z + 0.044715 * z ^ 3)))
