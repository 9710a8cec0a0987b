# mistake: off-by-one check, start + T >= P raises for a sequence that exactly fills the table
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
    if start + T >= wpe.shape[0]:
        raise ValueError("sequence too long for the position table")
    pos = torch.arange(start, start + T)
    return wte[ids] + wpe[pos]
