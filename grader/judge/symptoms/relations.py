"""How a learner's numbers relate to the expected ones: the evidence behind the value symptoms.

Every relation looks at one pair of numeric arrays (expected, got) that differ beyond the lesson's
tolerance, and says whether the learner's array is the expected one seen through one simple change
(a transpose, a reshape, a constant factor, a factor per row or per column, a clip, ...). A symptom
built on a relation speaks only when the relation holds on every differing array of every case
it covers.

Every reading of a case's values goes through `answers`: only a case where both the reference and
the learner answered has values to relate; any other pairing (an exception where a value was
expected or the other way round, a time-out, a crash, a case not run) has none.
"""
import itertools
import math

import numpy as np

from grader.judge import budget
from grader.judge.compare import as_array

FLOAT32_BAND = (1e-9, 2e-5, 1e-6)  # relative to the values' size: least, most, most unless
                                   # the values are float32 numbers themselves
EXACT = dict(rtol=1e-7, atol=1e-12)


def leaves(value, path=()):
    """(path, array or None) for every numeric leaf of an output: tuples and dicts are opened;
    a leaf that is not numbers (a string, None, a ragged list) gives None."""
    if isinstance(value, dict):
        for k in value:
            yield from leaves(value[k], path + (repr(k),))
    elif isinstance(value, tuple):
        for i, v in enumerate(value):
            yield from leaves(v, path + (i,))
    else:
        arr = as_array(value)
        if isinstance(arr, str) or arr.dtype.kind not in "iuf":
            yield path, None
        else:
            yield path, arr


def answers(result):
    """(expected outputs, got outputs) of a case where both sides answered, one output per call;
    None for every other pairing of outcomes."""
    e, g = result.expected, result.outcome
    if (e.status != "ok" or g.status != "ok" or not isinstance(e.outputs, list)
            or not isinstance(g.outputs, list) or len(e.outputs) != len(g.outputs)):
        return None
    return e.outputs, g.outputs


def pairs_of(result):
    """Every (expected, got, got's own dtype) numeric leaf pair of a case that ran, or None when
    the two outputs are not numbers of the same structure."""
    both = answers(result)
    if both is None:
        return None
    found = []
    for e, g in zip(*both):
        budget.check()
        el, gl = list(leaves(e)), list(leaves(g))
        if [p for p, _ in el] != [p for p, _ in gl]:
            return None
        for (_, ea), (_, ga) in zip(el, gl):
            if ea is None or ga is None:
                return None
            ea = ea.astype(np.int64) if ea.dtype.kind in "iu" else ea.astype(np.float64)
            found.append((ea, ga.astype(np.float64), ga.dtype))
    return found


def leaf_pairs(result):
    """{(call, path): (expected, got)} for the numeric leaves of a case that ran, or None."""
    both = answers(result)
    if both is None:
        return None
    found = {}
    for n, (e, g) in enumerate(zip(*both)):
        budget.check()
        el, gl = list(leaves(e)), list(leaves(g))
        if [p for p, _ in el] != [p for p, _ in gl]:
            return None
        for (path, ea), (_, ga) in zip(el, gl):
            if ea is not None and ga is not None:
                found[(n, path)] = (ea.astype(np.float64), ga.astype(np.float64))
    return found


def same(e, g, rtol, atol):
    with np.errstate(all="ignore"):
        return e.shape == g.shape and bool(np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True).all())


def differing(result, tol):
    """The leaf pairs of a case that differ beyond tolerance (None when not comparable)."""
    pairs = pairs_of(result)
    if pairs is None:
        return None
    return [(e, g, d) for e, g, d in pairs if not same(e, g, *tol)]


def holds(relation, results, tol):
    """Whether relation(e, g) holds on every differing leaf of every case (and some leaf differs)."""
    for r in results:
        pairs = differing(r, tol)
        if not pairs:
            return False
        for e, g, _ in pairs:
            budget.check()
            with np.errstate(all="ignore"):
                if not relation(e, g):
                    return False
    return True


def findings(find, results, tol):
    """find(e, g) on every differing leaf of every case, or None if it finds nothing on one."""
    out = []
    for r in results:
        pairs = differing(r, tol)
        if not pairs:
            return None
        for e, g, _ in pairs:
            budget.check()
            with np.errstate(all="ignore"):
                f = find(e, g)
            if f is None:
                return None
            out.append(f)
    return out


# ---- precision ----

def float32_sized(e, g):
    """Every difference within float32's reach of the values' size, and the values either
    float32 numbers themselves or off by no more than float32's rounding."""
    if e.shape != g.shape or not np.array_equal(np.isfinite(e), np.isfinite(g)):
        return False
    finite = np.isfinite(e)
    if not finite.any():
        return False
    scale = np.max(np.abs(e[finite]))
    diff = np.max(np.abs(g[finite] - e[finite]))
    single = np.array_equal(g[finite].astype(np.float32).astype(np.float64), g[finite])
    return scale > 0 and FLOAT32_BAND[0] * scale < diff <= (
        FLOAT32_BAND[1] if single else FLOAT32_BAND[2]) * scale


def small_error(e, g, most=1e-3):
    """Finite where the expected is, and off by at most `most` of the values' size."""
    if e.shape != g.shape or not np.array_equal(np.isfinite(e), np.isfinite(g)):
        return False
    finite = np.isfinite(e)
    scale = np.max(np.abs(e[finite]), initial=0)
    return scale > 0 and np.max(np.abs(g[finite] - e[finite])) <= most * scale


# ---- layout ----

def permuted(e, g):
    if e.ndim < 2 or e.ndim > 5:
        return False
    return any(budget.check() or g.shape == tuple(e.shape[i] for i in p)
               and np.allclose(g, e.transpose(p), **EXACT)
               for p in itertools.permutations(range(e.ndim)) if p != tuple(range(e.ndim)))


def squeezed(e, g):
    return (e.shape != g.shape and e.size == g.size and np.squeeze(e).shape == np.squeeze(g).shape
            and np.allclose(np.squeeze(g), np.squeeze(e), **EXACT))


def reshaped(e, g):
    """The expected values in the expected order, in another shape."""
    return e.shape != g.shape and e.size == g.size and np.allclose(g.ravel(), e.ravel(), **EXACT)


def distinct_values(e):
    finite = e[np.isfinite(e)]
    return finite.size >= 4 and np.unique(finite).size >= max(4, finite.size // 2)


def rearranged(e, g):
    """Exactly the expected numbers (as a collection), arranged differently: only meaningful when
    most expected values are distinct, so equal collections cannot happen by chance."""
    if e.size != g.size or not distinct_values(e) or not np.isfinite(g).all() or not np.isfinite(e).all():
        return False
    return np.allclose(np.sort(g.ravel()), np.sort(e.ravel()), **EXACT)


# ---- scale and shift ----

def factor(e, g):
    """The constant c with g = c * e, or None."""
    if e.shape != g.shape or not np.isfinite(e).all() or not np.isfinite(g).all():
        return None
    big = np.abs(e) > 1e-6 * np.max(np.abs(e), initial=0)
    if big.sum() < 2 and e.size > 1 or not big.any():
        return None
    c = float(np.median(g[big] / e[big]))
    if abs(c - 1) < 1e-6 or c == 0 or not np.allclose(g, c * e, **EXACT):
        return None
    return c


def offset(e, g):
    """The constant c with g = e + c, or None."""
    if e.shape != g.shape or e.size < 2 or not np.isfinite(e).all() or not np.isfinite(g).all():
        return None
    c = float(np.median(g - e))
    scale = max(np.max(np.abs(e)), 1e-12)
    if abs(c) <= 1e-6 * scale or not np.allclose(g, e + c, rtol=1e-7, atol=1e-9 * scale):
        return None
    return c


def name_of(c):
    """A constant in words when it is a recognisable one (2, 1/2, -1, sqrt(8), 1/sqrt(8)), else None."""
    for n in range(2, 9):
        for value, words in ((n, str(n)), (1 / n, f"1/{n}"), (-n, f"-{n}")):
            if math.isclose(c, value, rel_tol=1e-6):
                return words
    if math.isclose(c, -1, rel_tol=1e-6):
        return "-1"
    for value, words in ((1 / math.log(2), "1/ln(2) = 1.4427 (a logarithm in base 2 where the natural log belongs)"),
                         (math.log(2), "ln(2) = 0.693147 (a natural log where a base-2 log belongs)"),
                         (1 / math.log(10), "1/ln(10) = 0.434294 (a logarithm in base 10 where the natural log belongs)"),
                         (math.log(10), "ln(10) = 2.30259 (a natural log where a base-10 log belongs)")):
        if math.isclose(c, value, rel_tol=1e-6):
            return words
    for n in range(2, 4097):
        if round(math.sqrt(n)) ** 2 == n:
            continue
        for value, words in ((math.sqrt(n), f"sqrt({n})"), (1 / math.sqrt(n), f"1/sqrt({n})")):
            if math.isclose(c, value, rel_tol=1e-6):
                return words
    return None


def axis_factors(e, g, axis):
    """The factors c with g = c * e, one per index along `axis` of a 2-D view (rows: axis 0 of the
    (rows, last) view; columns: axis 1), each fitted on at least two large entries; or None."""
    if e.shape != g.shape or e.ndim < 1 or not np.isfinite(e).all() or not np.isfinite(g).all():
        return None
    e2, g2 = e.reshape(-1, e.shape[-1]), g.reshape(-1, g.shape[-1])
    if axis == 1:
        e2, g2 = e2.T, g2.T
    if e2.shape[0] < 2 or e2.shape[1] < 2:
        return None
    big = np.abs(e2) > 1e-6 * np.max(np.abs(e2), initial=0)
    fitted = big.sum(axis=1) >= 2          # rows of zeros say nothing (any factor keeps them 0)
    if fitted.sum() < 2 or ((big.sum(axis=1) == 1) & ~fitted).any():
        return None
    c = np.array([np.median(g2[i][big[i]] / e2[i][big[i]]) if fitted[i] else 0.0
                  for i in range(e2.shape[0])])
    if not np.allclose(g2, c[:, None] * e2, **EXACT):
        return None
    c = c[fitted]
    if (c == 0).any():       # a row set to zero: the zeroed entries say it better
        return None
    if np.ptp(c) <= 1e-6 * np.max(np.abs(c)):    # one constant: the plain factor says it better
        return None
    return c


def factor_kind(axis):
    """How g is e times factors, seen along `axis` of the (rows, last) view: "varies" (a factor of
    its own per row, or per column), "const" (one factor for the whole array), "neutral" (for
    columns: a single row, where any ratio is a factor per column), or None (not a factor)."""
    def find(e, g):
        if factor(e, g) is not None:
            return "const"
        if axis_factors(e, g, axis) is not None:
            return "varies"
        if (axis == 1 and e.shape == g.shape and e.ndim >= 1 and np.prod(e.shape[:-1]) == 1
                and np.isfinite(e).all() and np.isfinite(g).all() and not ((e == 0) & (g != 0)).any()):
            return "neutral"
        return None
    return find


def column_affine(e, g):
    """Per last-axis column j: g[..., j] = a_j * e[..., j] + b_j, fitted on at least three rows:
    the number of columns that show it (0 when every column is constant, which neither shows nor
    refutes it), or None when it does not hold."""
    if e.shape != g.shape or e.ndim < 2 or not np.isfinite(e).all() or not np.isfinite(g).all():
        return None
    e2, g2 = e.reshape(-1, e.shape[-1]), g.reshape(-1, g.shape[-1])
    if e2.shape[0] < 3:
        return None
    fitted = 0
    for j in range(e2.shape[1]):
        x, y = e2[:, j], g2[:, j]
        if np.ptp(x) <= 1e-9 * max(np.max(np.abs(x)), 1e-12):
            if np.ptp(y) > 1e-9 * max(np.max(np.abs(y)), 1e-12):   # constant there, not here
                return None
            continue
        a, b = np.polyfit(x, y, 1)
        if not np.allclose(y, a * x + b, rtol=1e-7, atol=1e-9 * max(np.max(np.abs(y)), 1)):
            return None
        fitted += 1
    return fitted


def logged(e, g):
    """g is the logarithm of e (where e is 0, g is -inf or below exp's range)."""
    positive = e > 0
    return (e.shape == g.shape and positive.any() and (e >= 0).all()
            and np.allclose(g[positive], np.log(e[positive]), **EXACT)
            and (g[~positive] < -700).all())     # log of a probability that underflowed to 0


def exped(e, g):
    return e.shape == g.shape and np.allclose(g, np.exp(e), **EXACT)


# ---- right except at some entries ----

def wrong_entries(e, g, tol):
    with np.errstate(all="ignore"):
        return ~np.isclose(g, e, rtol=tol[0], atol=tol[1], equal_nan=True)


def clipped(tol):
    """Wherever g differs, it sits at its own lowest or highest value, with the expected value
    beyond it: the answer was clipped (or its input was). Returns (low, high) or None."""
    def find(e, g):
        if e.shape != g.shape or e.size < 2 or not np.isfinite(g).all() or not np.isfinite(e).all():
            return None
        bad = wrong_entries(e, g, tol)
        lo, hi = np.min(g), np.max(g)
        if lo == hi:       # all at one level: neither shows nor refutes a clip, if on one side
            return "neutral" if (e < lo).all() or (e > hi).all() else None
        at_lo = bad & np.isclose(g, lo, rtol=1e-12, atol=0) & (e < lo)
        at_hi = bad & np.isclose(g, hi, rtol=1e-12, atol=0) & (e > hi)
        if not bad.any() or not (at_lo | at_hi)[bad].all() or bad.all():
            return None
        return (float(lo) if at_lo.any() else None, float(hi) if at_hi.any() else None)
    return find


def integral(e):
    """Whole numbers only (token ids, counts): 0 there is a value like any other."""
    return e.dtype.kind in "iu"


def wrong_only_where_zero(tol):
    """Right wherever the expected is not 0; wrong only at some entries that should be 0."""
    def rel(e, g):
        if e.shape != g.shape or integral(e):
            return False
        bad = wrong_entries(e, g, tol)
        return bad.any() and (e[bad] == 0).all() and (e != 0).any()
    return rel


def zero_where_wrong(tol):
    """Right everywhere except at entries where the answer is exactly 0 and should not be:
    "some" when some entries are right, "all" when the whole array is 0, else None."""
    def find(e, g):
        if e.shape != g.shape or integral(e):
            return None
        bad = wrong_entries(e, g, tol)
        if not bad.any() or not (g[bad] == 0).all():
            return None
        return "some" if (~bad).any() else "all"
    return find


def nonfinite_where_finite(e, g):
    """NaN or inf in the answer where the expected is finite."""
    return e.shape == g.shape and bool((~np.isfinite(g) & np.isfinite(e)).any())


def rows_right(e, g, tol):
    """For an array with a batch axis in front of (rows, columns): which items along it are right."""
    if e.shape != g.shape or e.ndim < 3 or e.shape[0] < 2:
        return None
    return [same(e[i], g[i], *tol) for i in range(e.shape[0])]
