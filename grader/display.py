"""Values as learners read them: floats to 6 significant digits, as in the lesson examples."""
import numpy as np

from grader.runner.child.wire import Tensor

EDGE = 3


def number(x):
    """A float rounded to 6 significant digits, without a sign on zero."""
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    text = f"{float(x):.6g}"
    return "0" if text == "-0" else text


def nested(items, summarize):
    if summarize and len(items) > 2 * EDGE + 1:
        return "[" + ", ".join(items[:EDGE] + ["..."] + items[-EDGE:]) + "]"
    return "[" + ", ".join(items) + "]"


def array_text(arr, summarize):
    if arr.ndim == 0:
        return number(arr[()])
    return nested([array_text(a, summarize) for a in arr], summarize)


def show(value, summarize=False):
    """The text of a value: arrays as array([...]), tensors as tensor([...]), floats to 6 s.f.

    With summarize, long dimensions show their first and last few entries around "...".
    """
    if isinstance(value, Tensor):
        return f"tensor({array_text(value.array, summarize)})"
    if type(value).__module__.startswith("torch") and hasattr(value, "detach"):
        return f"tensor({array_text(value.detach().numpy(), summarize)})"
    if isinstance(value, np.ndarray):
        return f"array({array_text(value, summarize)})"
    if isinstance(value, (float, int, np.number, np.bool_)):
        return number(value)
    if isinstance(value, list):
        return nested([show(v, summarize) for v in value], summarize)
    if isinstance(value, tuple):
        return "(" + ", ".join(show(v, summarize) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {show(v, summarize)}" for k, v in value.items()) + "}"
    return repr(value)


def shape_of(value):
    arr = value.array if isinstance(value, Tensor) else value
    return getattr(arr, "shape", None)


def plural(count, word, words=None):
    """'1 learner', '2 learners'."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth")


def ordinal(index):
    """The word for the place of item `index` counted from 0: "first" for 0 (never "value 1",
    which a reader of Python takes for the second)."""
    return ORDINALS[index] if 0 <= index < len(ORDINALS) else f"number {index} (counting from 0)"
