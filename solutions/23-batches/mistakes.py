"""Known mistakes for lesson 23 (batches of random windows, and a train/validation split)."""
import torch

from grader.lessons.authoring import mistake


@mistake("targets-not-shifted", hint=2, message="""\
Your targets are the inputs themselves (y equals x). The model would be trained to output the
token it is reading, which it can see: the loss falls towards zero and the model learns nothing
about what comes next. The targets are the same window moved one token on:
y = data[s + 1 : s + context + 1].""")
def get_batch(data, batch_size, context, rng):
    starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    x = torch.stack([data[s:s + context] for s in starts.tolist()])
    return x, x.clone()


@mistake("one-fewer-target", hint=2, message="""\
You cut windows of `context` tokens and split each into inputs w[:-1] and targets w[1:], so x
and y have only context - 1 columns. The model then never reads a full context in training, and
its last position (context - 1) is never trained at all: generation, which reads full windows,
predicts from an untrained position embedding. Take windows of context + 1 tokens:
x = data[s : s + context], y = data[s + 1 : s + context + 1].""")
def get_batch(data, batch_size, context, rng):
    starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    windows = torch.stack([data[s:s + context] for s in starts.tolist()])
    return windows[:, :-1], windows[:, 1:]


@mistake("window-runs-off-the-end", hint=2, message="""\
Your starts go up to len(data) - context, one too far: that window's targets would need the token
after the end of the text, so its target row comes out one token short (and torch.stack fails
whenever such a start is drawn). A window needs context + 1 tokens, so the last start is
len(data) - context - 1: torch.randint(len(data) - context, ...), whose bound is excluded.""")
def get_batch(data, batch_size, context, rng):
    starts = torch.randint(len(data) - context + 1, (batch_size,), generator=rng)
    x = torch.stack([data[s:s + context] for s in starts.tolist()])
    y = torch.stack([data[s + 1:s + 1 + context] for s in starts.tolist()])
    return x, y


@mistake("last-window-never-drawn", hint=2, message="""\
Your bound is len(data) - context - 1, but torch.randint already excludes its upper bound: the
last window that fits (start len(data) - context - 1) is never drawn, so the text's last token is
never a target, and a text with exactly context + 1 tokens has no start at all. Pass
len(data) - context: the starts then run from 0 to len(data) - context - 1.""")
def get_batch(data, batch_size, context, rng):
    starts = torch.randint(len(data) - context - 1, (batch_size,), generator=rng)
    x = torch.stack([data[s:s + context] for s in starts.tolist()])
    y = torch.stack([data[s + 1:s + 1 + context] for s in starts.tolist()])
    return x, y


@mistake("same-windows-every-time", hint=1, message="""\
Every call of your get_batch returns the same windows: it makes (or re-seeds) a generator inside,
so each call starts from the same random state. A model trained that way sees a handful of windows
over and over and learns them by heart. Draw from the `rng` you are given, which moves on with
every draw: torch.randint(..., generator=rng).""")
def get_batch(data, batch_size, context, rng):
    g = torch.Generator().manual_seed(0)
    starts = torch.randint(len(data) - context, (batch_size,), generator=g)
    x = torch.stack([data[s:s + context] for s in starts.tolist()])
    y = torch.stack([data[s + 1:s + 1 + context] for s in starts.tolist()])
    return x, y


@mistake("global-generator", hint=1, message="""\
You call torch.randint without generator=rng, so the starts come from torch's global generator
and `rng` is never used. The batches then depend on whatever else drew random numbers before
(dropout, an initialisation), and seeding or saving `rng` no longer repeats a run or resumes it
exactly. Pass generator=rng.""")
def get_batch(data, batch_size, context, rng):
    starts = torch.randint(len(data) - context, (batch_size,))
    x = torch.stack([data[s:s + context] for s in starts.tolist()])
    y = torch.stack([data[s + 1:s + 1 + context] for s in starts.tolist()])
    return x, y


@mistake("shifted-the-wrong-way", hint=2, message="""\
Your targets come before the inputs: y[b, t] is the token BEFORE x[b, t], so the model would be
trained to predict the past. The targets are the window moved one token forward:
x = data[s : s + context] and y = data[s + 1 : s + context + 1], so y[b, t] = x[b, t + 1].""")
def get_batch(data, batch_size, context, rng):
    starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    x = torch.stack([data[s + 1:s + 1 + context] for s in starts.tolist()])
    y = torch.stack([data[s:s + context] for s in starts.tolist()])
    return x, y


@mistake("one-start-per-batch", hint=1, message="""\
You draw a single start and repeat its window in every row, so a batch holds batch_size copies of
one window: the gradient is that of one window, however large the batch. Draw one start per row:
torch.randint(len(data) - context, (batch_size,), generator=rng).""")
def get_batch(data, batch_size, context, rng):
    s = int(torch.randint(len(data) - context, (1,), generator=rng))
    x = data[s:s + context].repeat(batch_size, 1)
    y = data[s + 1:s + 1 + context].repeat(batch_size, 1)
    return x, y


@mistake("separate-draws-for-targets", hint=2, message="""\
You draw the starts of the targets separately from those of the inputs (two torch.randint calls),
so y[b] comes from another place in the text than x[b] and has nothing to do with it. The targets
belong to the same window as the inputs: draw the starts once and cut x and y from each one.""")
def get_batch(data, batch_size, context, rng):
    x_starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    y_starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    x = torch.stack([data[s:s + context] for s in x_starts.tolist()])
    y = torch.stack([data[s + 1:s + 1 + context] for s in y_starts.tolist()])
    return x, y


@mistake("batch-transposed", hint=3, message="""\
Your x and y have shape (context, batch_size): you stacked the windows as columns
(torch.stack(..., dim=1)). The model reads (B, T) batches, one window per ROW; with the axes
swapped it would read each column of positions as a sequence. Stack along dim 0, the default.""")
def get_batch(data, batch_size, context, rng):
    starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    x = torch.stack([data[s:s + context] for s in starts.tolist()], dim=1)
    y = torch.stack([data[s + 1:s + 1 + context] for s in starts.tolist()], dim=1)
    return x, y


@mistake("split-rounded", hint=1, message="""\
You round the size of the training part to the nearest integer; the lesson (as nanoGPT) rounds
down, n = int(train_fraction * len(data)). With 30 tokens and 0.85, that is 25 training tokens,
not 26. Both are reasonable, but a split has to be the same wherever it is made, or a validation
loss measured here is not comparable with one measured there.""")
def split_data(data, train_fraction=0.9):
    n = round(train_fraction * len(data))
    return data[:n], data[n:]


@mistake("validation-first", hint=3, message="""\
Your validation part is the START of the text and the training part the rest. The lesson keeps
the first n = int(train_fraction * len(data)) tokens for training and the end for validation:
train is data[:n], validation data[n:].""")
def split_data(data, train_fraction=0.9):
    n = len(data) - int(train_fraction * len(data))
    return data[n:], data[:n]


@mistake("fraction-for-validation", hint=1, message="""\
You used train_fraction as the share of the VALIDATION part, so training got only the small part
of the text. train_fraction is the training share: n = int(train_fraction * len(data)) tokens
train, and the remaining len(data) - n validate.""")
def split_data(data, train_fraction=0.9):
    n = int((1 - train_fraction) * len(data))
    return data[:n], data[n:]
