# right: one-hot matrix products instead of indexing, with the check first
"""Lesson 11: token plus learned position embeddings for a batch of ids, from any start position."""
import torch


def embed(ids, wte, wpe, start=0):
    """The input vectors of a GPT: each token's embedding plus the embedding of its position.

    ids: an int64 tensor of shape (B, T), token ids between 0 and V - 1.
    wte: a float64 tensor of shape (V, D), one row per token id (the token embedding table).
    wpe: a float64 tensor of shape (P, D), one row per position (the position embedding table).
    start: the position of the first token, 0 for a fresh sequence; a continuation starts later.
    Returns a float64 tensor of shape (B, T, D): out[b, t] = wte[ids[b, t]] + wpe[start + t].
    Raises ValueError when start + T is more than P (the positions do not fit in the table).
    """
    T = ids.shape[1]
    if start + T > wpe.shape[0]:
        raise ValueError(f"start + T = {start + T} is more than the {wpe.shape[0]} rows of wpe")
    oh = torch.nn.functional.one_hot(ids, num_classes=wte.shape[0]).to(torch.float64)
    pos = torch.nn.functional.one_hot(torch.arange(start, start + T), num_classes=wpe.shape[0]).to(torch.float64)
    return oh @ wte + pos @ wpe
