# mistake: the split rounds to the nearest token
# varies: right_loop.py

def split_data(data, train_fraction=0.9):
    """Split a 1-D tensor of token ids in two, without shuffling: (train, validation).

    train is data[:n] and validation data[n:], with n = int(train_fraction * len(data)).
    """
    n = round(len(data) * train_fraction)
    return data[:n], data[n:]


def get_batch(data, batch_size, context, rng):
    """A batch of `batch_size` random windows of `context` tokens, and their targets.

    data: a 1-D int64 tensor with more than `context` tokens. rng: a torch.Generator.
    Draw the starts with exactly one call,
        starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    then row b of x is data[s : s + context] and row b of y is data[s + 1 : s + context + 1],
    where s = starts[b]. Returns (x, y), two int64 tensors of shape (batch_size, context).
    """
    starts = torch.randint(len(data) - context, (batch_size,), generator=rng)
    return (torch.stack([data[s:s + context] for s in starts]),
            torch.stack([data[s + 1:s + context + 1] for s in starts]))
