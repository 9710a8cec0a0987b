"""Recognisable exceptions: what an error message and the shapes it names say about the code.

Each reader takes the error of one failing case (type, message, line) and returns (name, words)
or None; the symptom groups the failing cases by name and speaks for each group whose cases all
raised that kind of error.
"""
import re

SHAPE = re.compile(r"\(([\d,\s]*)\)")


def shapes_in(text):
    return [tuple(int(n) for n in s.replace(",", " ").split()) for s in SHAPE.findall(text)]


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
    m = re.search(r"could not be broadcast together with shapes (.*)", error)
    if not m:
        return None
    found = [s for s in shapes_in(m.group(1)) if s]
    if len(found) < 2:
        return None
    a, b = found[0], found[1]
    return "broadcast", (f"numpy could not line up arrays of shapes {show(a)} and {show(b)} in an "
                         f"elementwise step: {broadcast_words(a, b)}.")


def torch_broadcast(error):
    m = re.search(r"The size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) at "
                  r"non-singleton dimension (\d+)", error)
    if not m:
        return None
    a, b, dim = m.groups()
    return "broadcast", (f"two tensors met in an elementwise step (or the batch axes of a matrix "
                         f"product) with sizes {a} and {b} at dimension {dim}: a reduction that "
                         "dropped its dimension (pass `keepdim=True`), or a size taken from the wrong "
                         "axis, or two operands with different numbers of heads or batch items.")


def matmul_batch(error):
    m = re.search(r"broadcast together with remapped shapes \[original->remapped\]: "
                  r"\(([\d,]*)\)->\([^)]*\)\s*\(([\d,]*)\)->", error)
    if not m:
        return None
    a, b = (tuple(int(n) for n in s.split(",") if n) for s in m.groups())
    lead_a, lead_b = a[:-2], b[:-2]
    return "matmul-batch", (
        f"a matrix product (`@`, `matmul`) got operands of shapes {show(a)} and {show(b)}, whose "
        f"leading (batch and head) axes {show(lead_a)} and {show(lead_b)} do not line up: both "
        "sides must have the same batch and head axes (or size 1 there); check that each operand "
        "has the number of heads you expect (repeat or reshape the smaller one first) and that the "
        "axes are in the same order.")


def matmul_core(error):
    m = re.search(r"matmul: Input operand \d+ has a mismatch in its core dimension \d+.*"
                  r"\(size (\d+) is different from (\d+)\)", error)
    if m:
        a, b = m.groups()
        return "matmul", (f"a matrix product met inner sizes {b} and {a} that differ (the last axis "
                          "of the left operand must equal the second-to-last of the right one): check "
                          "the order of the operands, which one needs a transpose, and that every "
                          "size comes from the right axis (this workbook computes `x @ W`, with W of "
                          "shape (in, out)).")
    m = re.search(r"mat1 and mat2 shapes cannot be multiplied \((\d+)x(\d+) and (\d+)x(\d+)\)", error)
    if m:
        r1, c1, r2, c2 = map(int, m.groups())
        hint = (" The right operand fits once transposed: it is stored the other way round "
                "(PyTorch's `nn.Linear` keeps (out, in); this workbook's W is (in, out))."
                if c1 == c2 else "")
        return "matmul", (f"a matrix product met shapes ({r1}x{c1}) and ({r2}x{c2}), whose inner "
                          f"sizes {c1} and {r2} differ.{hint}")
    if re.search(r"shapes? cannot be multiplied|size mismatch", error):
        return "matmul", ("a matrix product met inner sizes that differ: check the order of the "
                          "operands and which ones need a transpose (this workbook computes "
                          "`x @ W`, with W of shape (in, out)).")
    return None


def concatenate(error):
    m = re.search(r"must match exactly, but along dimension (\d+), the array at index (\d+) has size "
                  r"(\d+) and the array at index (\d+) has size (\d+)", error)
    if m:
        dim, _, a, _, b = m.groups()
        return "concatenate", (
            f"np.concatenate was asked to join arrays that differ along axis {dim} (sizes {a} and "
            f"{b}) while joining them along another axis: arrays may differ only along the axis "
            f"they are joined on. Either the join belongs on axis {dim} (counting from the end, "
            "e.g. `axis=-2`, keeps it right with or without batch axes), or one of the pieces has "
            "the wrong shape: print the shapes you join.")
    m = re.search(r"Sizes of tensors must match except in dimension (\d+)\. Expected size (\d+) but "
                  r"got size (\d+)", error)
    if m:
        dim, a, b = m.groups()
        return "concatenate", (
            f"torch.cat was asked to join tensors along dimension {dim}, but they differ along "
            f"another dimension (sizes {a} and {b}): tensors may differ only along the dimension "
            "they are joined on. Either the join belongs on the axis that grows (counting from the "
            "end, e.g. `dim=-2`), or one of the pieces has the wrong shape (a reduction such as "
            "argmax over the wrong dimension, or a dimension dropped): print the shapes you join.")
    return None


def reshape(error):
    m = (re.search(r"cannot reshape array of size (\d+) into shape (\([^)]*\))", error)
         or re.search(r"shape '(\[[^\]]*\])' is invalid for input of size (\d+)", error))
    if not m:
        return None
    return "reshape", ("a reshape asked for sizes whose product is not the array's size "
                       f"({m.group(0)}): check the sizes you pass (the number of heads against the "
                       "head size, and which axes they come from) and use -1 for at most one size.")


def dtype_mix(error):
    if re.search(r"expected scalar type (Double|Float) but found (Float|Double)|must have the same "
                 r"dtype|expected m1 and m2 to have the same dtype|same dtype", error):
        return "dtype-mix", ("a float32 tensor met a float64 one. `torch.tensor` of Python floats and "
                             "`torch.ones`/`torch.zeros`/`torch.randn` without a dtype make float32 "
                             "tensors; create every tensor with `dtype=torch.float64` (or "
                             "`dtype=x.dtype`).")
    if re.search(r"scalar type Long|found dtype Long|can't be cast to the desired output type Long|"
                 r"not implemented for 'Long'", error):
        return "dtype-mix", ("an integer (long) tensor met floating-point values, or a function that "
                             "needs floats was given integers: `torch.tensor` of Python ints and "
                             "`torch.arange` of ints make long tensors; convert with `.double()` or "
                             "create them with `dtype=torch.float64`.")
    return None


def axis(error):
    m = re.search(r"axis (-?\d+) is out of bounds for array of dimension (\d+)|Dimension out of "
                  r"range \(expected to be in range of \[(-?\d+), (-?\d+)\], but got (-?\d+)\)", error)
    if not m:
        return None
    return "axis", ("an axis was named that the input does not have "
                    f"({m.group(0)}): count axes from the end (`axis=-1`, `-2`), so the code works "
                    "with and without leading batch axes.")


def index(error):
    m = re.search(r"index (-?\d+) is out of bounds for (?:axis|dimension) (\d+) with size (\d+)", error)
    if not m:
        return None
    i, ax, size = m.groups()
    return "index", (f"an index ran past the end of an axis (index {i} on axis {ax}, which has size "
                     f"{size}): the array is indexed along another axis than the one the index "
                     "counts, or the index counts something else (a flat index from `argmax` "
                     "without an axis or dim, a position in a longer sequence, a row number "
                     "used as a column).")


def zero_dim(error):
    if re.search(r"array is 0-dimensional, but \d+ were indexed|invalid index of a 0-dim tensor|"
                 r"iteration over a 0-d array|len\(\) of unsized object", error):
        return "zero-dim", ("a value with no axes (a single number, or `None` turned into an array) "
                            "was indexed or iterated as if it were an array: check optional "
                            "arguments left at their default (`None`) and values that a reduction "
                            "turned into a single number.")
    if re.search(r"'NoneType' object|NoneType", error):
        return "none", ("a value was `None` where an array was needed: an optional argument left at "
                        "its default `None` and used as if given, or a helper function that "
                        "forgot to `return` its result.")
    return None


def float_error(error):
    m = re.search(r"(overflow|invalid value|divide by zero) encountered in (\w+)", error)
    if not m:
        return None
    what, where = m.groups()
    why = {"overflow": f"{where} of a large number overflows (exp(710) is already inf)",
           "invalid value": f"a step made NaN (inf - inf, 0 * inf, 0 / 0) in {where}",
           "divide by zero": f"a division by zero (or a log of 0) happened in {where}"}[what]
    return "float-error", (f"numpy reported '{m.group(0)}' on cases that raise floating-point "
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
