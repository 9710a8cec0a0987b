# mistake: torch.randint without generator=rng
# varies: right_unfold.py

def get_batch(data, batch_size, context, rng):
    """A batch of `batch_size` random windows of `context` tokens, and their targets.

    data: a 1-D int64 tensor with more than `context` tokens. rng: a torch.Generator.
    Draw the starts with exactly one call,
        starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    then row b of x is data[s : s + context] and row b of y is data[s + 1 : s + context + 1],
    where s = starts[b]. Returns (x, y), two int64 tensors of shape (batch_size, context).
    """
    ix = torch.randint(len(data) - context, (batch_size,))
    x = torch.stack([data[i:i + context] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + context] for i in ix])
    return x, y
