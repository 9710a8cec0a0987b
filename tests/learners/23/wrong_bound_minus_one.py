# mistake: an extra - 1 in the bound, so the last window is never drawn
# varies: right_unfold.py

def get_batch(data, batch_size, context, rng):
    """A batch of `batch_size` random windows of `context` tokens, and their targets.

    data: a 1-D int64 tensor with more than `context` tokens. rng: a torch.Generator.
    Draw the starts with exactly one call,
        starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    then row b of x is data[s : s + context] and row b of y is data[s + 1 : s + context + 1],
    where s = starts[b]. Returns (x, y), two int64 tensors of shape (batch_size, context).
    """
    high = len(data) - context - 1
    starts = torch.randint(high, (batch_size,), generator=rng)
    x = torch.stack([data[s:s + context] for s in starts])
    y = torch.stack([data[s + 1:s + 1 + context] for s in starts])
    return x, y
