# right: a plain loop over the rows, lists stacked at the end
"""Lesson 23: batches of random windows from a long text, and a train/validation split."""
import torch


# ---------------------------------------------------------------------------------------------
# Given: a few lines that draw several batches in a row, as a training loop does. The grader
# calls it (you cannot send a torch.Generator to a check); your code goes further down.
# ---------------------------------------------------------------------------------------------

def draw_batches(data, batch_size, context, seed, n):
    """`n` batches in a row from your `get_batch`, all drawn from one generator seeded with `seed`.

    It seeds torch's global generator too (with another seed), so that every run of it gives the
    same batches even from code that does not use `rng`.
    """
    torch.manual_seed(seed + 1000)
    rng = torch.Generator().manual_seed(seed)
    return [get_batch(data, batch_size, context, rng) for _ in range(n)]


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

def split_data(data, train_fraction=0.9):
    """Split a 1-D tensor of token ids in two, without shuffling: (train, validation).

    train is data[:n] and validation data[n:], with n = int(train_fraction * len(data)).
    """
    cut = int(len(data) * train_fraction)
    train = data[:cut]
    val = data[cut:]
    return train, val


def get_batch(data, batch_size, context, rng):
    """A batch of `batch_size` random windows of `context` tokens, and their targets.

    data: a 1-D int64 tensor with more than `context` tokens. rng: a torch.Generator.
    Draw the starts with exactly one call,
        starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    then row b of x is data[s : s + context] and row b of y is data[s + 1 : s + context + 1],
    where s = starts[b]. Returns (x, y), two int64 tensors of shape (batch_size, context).
    """
    starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    xs, ys = [], []
    for i in range(batch_size):
        s = int(starts[i])
        xs.append(data[s:s + context])
        ys.append(data[s + 1:s + context + 1])
    return torch.stack(xs), torch.stack(ys)
