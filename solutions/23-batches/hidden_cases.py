"""Hidden cases for lesson 23 (batches of random windows, and a train/validation split)."""
import numpy as np
import torch

from grader.judge.compare import compare
from grader.lessons.authoring import Spec, call, case, promise
from grader.runner.child.wire import Tensor

PROMISES = (
    promise("Return (train, validation): data[:n] and data[n:] with n = int(train_fraction * "
            "len(data)), in order, without shuffling.",
            cases=("a 90/10 split", "n is rounded down", "another fraction", "everything for training",
                   "example 2", "example 3"),
            broken_by=("split-rounded", "validation-first", "fraction-for-validation")),
    promise("Draw the starts with exactly one call, torch.randint(len(data) - context, "
            "(batch_size,), generator=rng)",
            cases=("three batches in a row", "windows at the very end", "exactly one window fits",
                   "example 1"),
            broken_by=("last-window-never-drawn", "window-runs-off-the-end", "one-start-per-batch",
                       "separate-draws-for-targets")),
    promise("Row b of x is data[s : s + context] and row b of y is data[s + 1 : s + context + 1], "
            "where s = starts[b].",
            cases=("windows you can read", "one row", "context of one token", "example 1"),
            broken_by=("targets-not-shifted", "one-fewer-target", "shifted-the-wrong-way")),
    promise("Return (x, y), two int64 tensors of shape (batch_size, context).",
            cases=("a long text and a large batch", "one row"),
            broken_by=("batch-transposed", "one-fewer-target")),
    promise("Draw only from rng: no other generator, no re-seeding, no torch.manual_seed.",
            cases=("three batches in a row", "example 1"),
            broken_by=("global-generator", "same-windows-every-time")),
)

SPEC = Spec(
    promises=PROMISES,
    hint_topics=(("data[:n]", "int(train_fraction * len(data))", "randint", "generator=rng", "split"),
                 ("context + 1", "window", "target", "y[b, t]", "x[b, t + 1]", "len(data) - context"),
                 ("torch.stack", "starts", "return x, y", "split_data", "data[n:]")),
    functions=("split_data", "get_batch", "draw_batches"),
)


def tokens(rng, n, v=50):
    """n random token ids from a vocabulary of v, as a 1-D int64 tensor."""
    return torch.from_numpy(rng.integers(0, v, size=n).astype(np.int64))


def values(v):
    return np.asarray(v.array if isinstance(v, Tensor) else v)


def why_not_windows(batches, data, context):
    """What is wrong with `batches` as windows of `data` with targets shifted by one, or None."""
    data = values(data)
    for i, (x, y) in enumerate(batches):
        x, y = values(x), values(y)
        which = f"batch {i + 1}" if len(batches) > 1 else "your batch"
        if x.ndim != 2 or x.shape[1] != context:
            return f"{which}: x has shape {x.shape}; it should be (batch_size, {context})"
        if y.shape != x.shape:
            return (f"{which}: x has shape {x.shape} but y has shape {y.shape}: every input position "
                    "gets a target, so both are (batch_size, context); take windows of context + 1 "
                    "tokens")
        if np.array_equal(x, y):
            return (f"{which}: y equals x: the targets are not shifted, so the model would learn to "
                    "copy the token it already sees")
        if not np.array_equal(y[:, :-1], x[:, 1:]):
            return (f"{which}: y[b, t] is not x[b, t + 1]: the targets must be the inputs moved one "
                    "token to the left, plus the token after the window")
        windows = np.concatenate([x, y[:, -1:]], axis=1)
        strided = np.lib.stride_tricks.sliding_window_view(data, context + 1)
        if not all((strided == w).all(axis=1).any() for w in windows):
            return f"{which}: some rows are not windows of consecutive tokens of data"
    if len(batches) > 1 and all(np.array_equal(values(batches[0][0]), values(b[0])) for b in batches):
        return ("every batch holds the same windows: draw the starts from `rng`, which moves on with "
                "each draw (never re-seed it, never make a new generator inside get_batch)")
    return None


def batches_check(got, expected, calls):
    """The reference's batches exactly; when they differ, what is wrong with them as batches."""
    problem = compare(expected[0], got[0], 0, 0)
    if problem is None:
        return None
    data, _, context = calls[0].args[:3]
    shape = why_not_windows(got[0], data, context)
    return shape or (f"{problem}: the windows are right in shape and shift, but not the ones the "
                     "lesson draws: one call of torch.randint(len(data) - context, (batch_size,), "
                     "generator=rng), row b starting at starts[b]")


def batches(rng, name, n_data, batch_size, context, n, probe, hint=2, v=50, **options):
    data = tokens(rng, n_data, v)
    seed = int(rng.integers(0, 2**31))
    return case(name, call("draw_batches", data, batch_size, context, seed, n), probe=probe,
                check=batches_check, hint=hint, **options)


def cases(rng):
    # --- get_batch ---
    yield batches(rng, "three batches in a row", 60, 4, 6, 3,
                  "three batches of 4 windows of 6 tokens from 60 random tokens, one generator")
    yield batches(rng, "one row", 25, 1, 7, 2, "batch_size 1: one window of 7 tokens and its targets, from 25 tokens")
    yield batches(rng, "exactly one window fits", 9, 5, 8, 2,
                  "9 tokens and a context of 8: the only start is 0, so every row is the whole "
                  "text's first 8 tokens and its targets are tokens 1 to 8")
    yield batches(rng, "windows at the very end", 12, 24, 9, 2,
                  "12 tokens, context 9, 24 rows: the last possible start, 2, is drawn often, and "
                  "its targets end on the text's last token")
    yield batches(rng, "context of one token", 30, 6, 1, 3,
                  "context 1: each input is one token and its target the next one")
    yield batches(rng, "a long text and a large batch", 2000, 32, 16, 2,
                  "32 windows of 16 tokens from 2000 tokens of a vocabulary of 300", v=300)
    data = torch.arange(40, dtype=torch.int64) * 3 + 5       # tokens that name their position
    yield case("windows you can read", call("draw_batches", data, 3, 5, int(rng.integers(0, 2**31)), 2),
               probe="data[i] = 3 i + 5, so each row shows where its window starts; 2 batches of 3 "
                     "windows of 5", check=batches_check, hint=2)

    # --- split_data ---
    data = tokens(rng, 1000)
    yield case("a 90/10 split", call("split_data", data), probe="split 1000 tokens at the default 0.9", hint=1)
    data = tokens(rng, 30)
    yield case("n is rounded down", call("split_data", data, 0.85),
               probe="split 30 tokens at 0.85: 25.5 is rounded down to 25 training tokens", hint=1)
    data = tokens(rng, 27)
    yield case("another fraction", call("split_data", data, 0.7),
               probe="split 27 tokens at 0.7: 18.9 becomes 18 training tokens, 9 for validation", hint=1)
    data = tokens(rng, 16)
    yield case("everything for training", call("split_data", data, 1.0),
               probe="train_fraction 1.0: all 16 tokens train, the validation split is empty",
               hint=1)
