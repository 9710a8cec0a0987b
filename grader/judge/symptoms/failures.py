"""Recognisable exceptions: what an error message and the shapes it names say about the code.

Each reader takes the error of one failing case (type, message, line) and returns (name, words)
or None; the symptom groups the failing cases by name and speaks for each group whose cases all
raised that kind of error.

A message is learner text (the learner's code may raise any exception with any words), so it is
read with the linear scans of `grader.judge.scan`, and what a reader says quotes only numbers and
shapes it parsed, written out again by the grader: never the message's own words.
"""
import numpy as np

from grader.judge.scan import Scanner, fields, search


def shapes_in(text):
    """The parenthesised groups of integers in `text`, e.g. "(2,3) (4,)" as [(2, 3), (4,)]."""
    found, at = [], text.find("(")
    while at >= 0:
        s = Scanner(text, at + 1)
        shape = s.ints(")")
        if shape is not None:
            found.append(shape)
        at = text.find("(", max(s.pos, at + 1))
    return found


def show(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def broadcast_words(a, b):
    """What two shapes that numpy could not line up suggest: a reduction that dropped its axis,
    a size taken from the wrong axis, or simply sizes that differ."""
    for small, big in ((a, b), (b, a)):
        if len(big) == len(small) + 1:
            for k in range(len(big)):
                if big[:k] + big[k + 1:] == small:
                    return (f"the array of shape {show(small)} is the other ({show(big)}) with axis "
                            f"{k - len(big)} removed: a reduction (`max`, `sum`, `mean`) dropped its "
                            "axis; pass `keepdims=True` (`keepdim=True` in torch) so the result still "
                            "lines up with the array it came from")
    n = min(len(a), len(b))
    for i in range(1, n + 1):
        x, y = a[-i], b[-i]
        if x == y or 1 in (x, y):
            continue
        for mine, other, theirs in ((x, b, y), (y, a, x)):
            where = [k - len(other) for k, s in enumerate(other) if s == mine and k != len(other) - i]
            if where:
                return (f"at axis {-i} a size {mine} met a size {theirs}, and {mine} is the size of "
                        f"axis {where[0]} of the array of shape {show(other)}: a size (or an "
                        f"array) was built from the wrong axis, e.g. `shape[0]` where the length at "
                        f"axis {-i} was meant; count axes from the end (`shape[-1]`, `shape[-2]`)")
        return (f"at axis {-i} a size {x} met a size {y}: check which axis each size comes from "
                "and that both arrays are laid out the same way")
    return "their sizes differ: check which axis each size comes from"


def numpy_broadcast(error):
    at = error.find("could not be broadcast together with shapes ")
    if at < 0:
        return None
    rest = error[at:].partition("\n")[0]
    found = [s for s in shapes_in(rest) if s]
    if len(found) < 2:
        return None
    a, b = found[0], found[1]
    return "broadcast", (f"numpy could not line up arrays of shapes {show(a)} and {show(b)} in an "
                         f"elementwise step: {broadcast_words(a, b)}.")


def torch_broadcast(error):
    m = fields(error, "The size of tensor a (", 0, ") must match the size of tensor b (", 0,
               ") at non-singleton dimension ", 0)
    if not m:
        return None
    a, b, dim = m
    return "broadcast", (f"two tensors met in an elementwise step (or the batch axes of a matrix "
                         f"product) with sizes {a} and {b} at dimension {dim}: a reduction that "
                         "dropped its dimension (pass `keepdim=True`), or a size taken from the wrong "
                         "axis, or two operands with different numbers of heads or batch items.")


def remapped(s):
    """Two "(original)->(remapped)" shapes: the originals, or None."""
    found = []
    for _ in range(2):
        s.blanks()
        shape = s.lit("(") and s.ints(")")
        if shape is None or shape is False or not s.lit("->("):
            return None
        end = s.text.find(")", s.pos, s.pos + 400)
        if end < 0:
            return None
        s.pos = end + 1
        found.append(shape)
    return found


def matmul_batch(error):
    m = search(error, "broadcast together with remapped shapes [original->remapped]:", remapped)
    if not m:
        return None
    a, b = m
    lead_a, lead_b = a[:-2], b[:-2]
    return "matmul-batch", (
        f"a matrix product (`@`, `matmul`) got operands of shapes {show(a)} and {show(b)}, whose "
        f"leading (batch and head) axes {show(lead_a)} and {show(lead_b)} do not line up: both "
        "sides must have the same batch and head axes (or size 1 there); check that each operand "
        "has the number of heads you expect (repeat or reshape the smaller one first) and that the "
        "axes are in the same order.")


def matmul_core(error):
    head = fields(error, "matmul: Input operand ", 0, " has a mismatch in its core dimension ", 0)
    m = head and sizes_differ(error[error.find("matmul: Input operand "):])
    if m:
        a, b = m
        return "matmul", (f"a matrix product met inner sizes {b} and {a} that differ (the last axis "
                          "of the left operand must equal the second-to-last of the right one): check "
                          "the order of the operands, which one needs a transpose, and that every "
                          "size comes from the right axis (this workbook computes `x @ W`, with W of "
                          "shape (in, out)).")
    m = fields(error, "mat1 and mat2 shapes cannot be multiplied (", 0, "x", 0, " and ", 0, "x", 0,
               ")")
    if m:
        r1, c1, r2, c2 = m
        hint = (" The right operand fits once transposed: it is stored the other way round "
                "(PyTorch's `nn.Linear` keeps (out, in); this workbook's W is (in, out))."
                if c1 == c2 else "")
        return "matmul", (f"a matrix product met shapes ({r1}x{c1}) and ({r2}x{c2}), whose inner "
                          f"sizes {c1} and {r2} differ.{hint}")
    if "shape cannot be multiplied" in error or "shapes cannot be multiplied" in error \
            or "size mismatch" in error:
        return "matmul", ("a matrix product met inner sizes that differ: check the order of the "
                          "operands and which ones need a transpose (this workbook computes "
                          "`x @ W`, with W of shape (in, out)).")
    return None


def sizes_differ(text):
    """(a, b) of the last "(size a is different from b)" in `text` (numpy names the operand's
    core dimension first), or None."""
    at = text.rfind("(size ")
    while at >= 0:
        m = fields(text[at:at + 80], "(size ", 0, " is different from ", 0, ")")
        if m:
            return m
        at = text.rfind("(size ", 0, at)
    return None


def concatenate(error):
    m = fields(error, "must match exactly, but along dimension ", 0, ", the array at index ", 0,
               " has size ", 0, " and the array at index ", 0, " has size ", 0)
    if m:
        dim, _, a, _, b = m
        return "concatenate", (
            f"np.concatenate was asked to join arrays that differ along axis {dim} (sizes {a} and "
            f"{b}) while joining them along another axis: arrays may differ only along the axis "
            f"they are joined on. Either the join belongs on axis {dim} (counting from the end, "
            "e.g. `axis=-2`, keeps it right with or without batch axes), or one of the pieces has "
            "the wrong shape: print the shapes you join.")
    m = fields(error, "Sizes of tensors must match except in dimension ", 0, ". Expected size ", 0,
               " but got size ", 0)
    if m:
        dim, a, b = m
        return "concatenate", (
            f"torch.cat was asked to join tensors along dimension {dim}, but they differ along "
            f"another dimension (sizes {a} and {b}): tensors may differ only along the dimension "
            "they are joined on. Either the join belongs on the axis that grows (counting from the "
            "end, e.g. `dim=-2`), or one of the pieces has the wrong shape (a reduction such as "
            "argmax over the wrong dimension, or a dimension dropped): print the shapes you join.")
    return None


def numpy_reshape(s):
    size = s.int()
    shape = size is not None and s.lit(" into shape (") and s.ints(")", signed=True)
    return None if shape is None or shape is False else (
        f"cannot reshape array of size {size} into shape {show(shape)}")


def torch_reshape(s):
    shape = s.ints("]", signed=True)
    size = shape is not None and s.lit("' is invalid for input of size ") and s.int()
    return None if size is None or size is False else (
        f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {size}")


def reshape(error):
    said = (search(error, "cannot reshape array of size ", numpy_reshape)
            or search(error, "shape '[", torch_reshape))
    if not said:
        return None
    return "reshape", ("a reshape asked for sizes whose product is not the array's size "
                       f"({said}): check the sizes you pass (the number of heads against the "
                       "head size, and which axes they come from) and use -1 for at most one size.")


def dtype_mix(error):
    if "same dtype" in error or any(f"expected scalar type {a} but found {b}" in error
                                    for a in ("Double", "Float") for b in ("Float", "Double")):
        return "dtype-mix", ("a float32 tensor met a float64 one. `torch.tensor` of Python floats and "
                             "`torch.ones`/`torch.zeros`/`torch.randn` without a dtype make float32 "
                             "tensors; create every tensor with `dtype=torch.float64` (or "
                             "`dtype=x.dtype`).")
    if any(words in error for words in ("scalar type Long", "found dtype Long",
                                        "can't be cast to the desired output type Long",
                                        "not implemented for 'Long'")):
        return "dtype-mix", ("an integer (long) tensor met floating-point values, or a function that "
                             "needs floats was given integers: `torch.tensor` of Python ints and "
                             "`torch.arange` of ints make long tensors; convert with `.double()` or "
                             "create them with `dtype=torch.float64`.")
    return None


def axis(error):
    m = fields(error, "axis ", -1, " is out of bounds for array of dimension ", 0)
    said = m and f"axis {m[0]} is out of bounds for array of dimension {m[1]}"
    if not m:
        m = fields(error, "Dimension out of range (expected to be in range of [", -1, ", ", -1,
                   "], but got ", -1, ")")
        said = m and (f"Dimension out of range (expected to be in range of [{m[0]}, {m[1]}], "
                      f"but got {m[2]})")
    if not m:
        return None
    return "axis", ("an axis was named that the input does not have "
                    f"({said}): count axes from the end (`axis=-1`, `-2`), so the code works "
                    "with and without leading batch axes.")


def index(error):
    m = (fields(error, "index ", -1, " is out of bounds for axis ", 0, " with size ", 0)
         or fields(error, "index ", -1, " is out of bounds for dimension ", 0, " with size ", 0))
    if not m:
        return None
    i, ax, size = m
    return "index", (f"an index ran past the end of an axis (index {i} on axis {ax}, which has size "
                     f"{size}): the array is indexed along another axis than the one the index "
                     "counts, or the index counts something else (a flat index from `argmax` "
                     "without an axis or dim, a position in a longer sequence, a row number "
                     "used as a column).")


def zero_dim(error):
    if fields(error, "array is 0-dimensional, but ", 0, " were indexed") or any(
            words in error for words in ("invalid index of a 0-dim tensor",
                                         "iteration over a 0-d array", "len() of unsized object")):
        return "zero-dim", ("a value with no axes (a single number, or `None` turned into an array) "
                            "was indexed or iterated as if it were an array: check optional "
                            "arguments left at their default (`None`) and values that a reduction "
                            "turned into a single number.")
    if "NoneType" in error:
        return "none", ("a value was `None` where an array was needed: an optional argument left at "
                        "its default `None` and used as if given, or a helper function that "
                        "forgot to `return` its result.")
    return None


NUMPY_STEPS = ("reduce", "accumulate", "scalar", "cast")   # besides numpy's own functions


def numpy_step(s):
    """The name after "encountered in" when it is one numpy uses (a function of its own, or a step
    such as reduce); the learner may write anything there, so nothing else is quoted."""
    name = s.word() or ""
    return name if name in NUMPY_STEPS or callable(vars(np).get(name)) else "one step"


def float_error(error):
    m = None
    for what in ("overflow", "invalid value", "divide by zero"):
        where = search(error, f"{what} encountered in ", numpy_step)
        if where:
            m = what, where
            break
    if not m:
        return None
    what, where = m
    why = {"overflow": f"{where} of a large number overflows (exp(710) is already inf)",
           "invalid value": f"a step made NaN (inf - inf, 0 * inf, 0 / 0) in {where}",
           "divide by zero": f"a division by zero (or a log of 0) happened in {where}"}[what]
    return "float-error", (f"numpy reported '{what} encountered in {where}' on cases that raise floating-point "
                           f"warnings as errors: {why}.{STABILITY}")


STABILITY = (" Compute that step so no intermediate overflows or divides by zero (subtract the "
             "maximum before an exp, pick the branch of a formula by sign, keep logs of small "
             "numbers as logs).")


READERS = (numpy_broadcast, torch_broadcast, matmul_batch, matmul_core, concatenate, reshape,
           dtype_mix, axis, index, zero_dim)


def read(error, float_errors):
    """(name, words) for one case's error, or None when it is not a recognisable kind."""
    text = error.get("message") or ""
    if error.get("type") == "FloatingPointError" and float_errors:
        return float_error(text)
    for reader in READERS:
        found = reader(text)
        if found:
            return found
    return None
