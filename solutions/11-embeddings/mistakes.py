"""Known mistakes for lesson 11 (token and position embeddings)."""
import math

import torch
import torch.nn.functional as F

from grader.lessons.authoring import mistake


def too_long(start, T, P):
    return ValueError(f"positions {start} to {start + T - 1} do not fit in a position table of {P} "
                      f"rows: start + T = {start + T} is more than {P}")


@mistake("positions-from-zero", hint=2, message="""\
Your position vectors always start at row 0 (`wpe[:T]` or `torch.arange(T)`), whatever `start`
says. That is right for a fresh sequence, but a continuation's tokens sit at positions `start`,
`start + 1`, ...: with rows from 0, every new token believes it is at the beginning of the text.
Use `torch.arange(start, start + T)`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[:T]


@mistake("length-from-batch", hint=1, message="""\
You take the sequence length from `len(ids)` (or `ids.shape[0]`), which is B, the number of
sequences in the batch, not T, the number of tokens in each. The positions then count the sequences:
with one sequence every token gets the vector of position `start`, and with several the shapes no
longer line up. Unpack both sizes: `B, T = ids.shape`.""")
def embed(ids, wte, wpe, start=0):
    T = len(ids)
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[torch.arange(start, start + T)]


@mistake("arange-stops-at-T", hint=2, message="""\
Your positions are `torch.arange(start, T)`: they stop at T - 1, so with `start > 0` there are only
T - start of them (or none), not T. The second argument of `arange` is where to stop, not how many
to make: the T positions from `start` are `torch.arange(start, start + T)`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[torch.arange(start, T)]


@mistake("wpe-indexed-by-ids", hint=2, message="""\
You look up the position table with the token ids (`wpe[ids]`). A token's id says which word it
is, not where it stands: the position table must be read at the positions `start + t`, one per time
step, whatever the tokens are. (With a vocabulary larger than the table, `wpe[ids]` also fails with
an IndexError.) Use `wpe[torch.arange(start, start + T)]`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[ids]


@mistake("concatenated", hint=1, message="""\
You concatenate the token and position vectors, which gives width 2D. GPT-2 adds them: both tables
have width D, and the model's input is their sum, of shape (B, T, D). The sum lets what a token is
and where it stands share the same D dimensions, which the layers after it expect.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    pos = wpe[torch.arange(start, start + T)].expand(B, T, wpe.shape[1])
    return torch.cat([wte[ids], pos], dim=-1)


@mistake("scaled-by-sqrt-d", hint=1, message="""\
You multiply the token vectors by sqrt(D), as the original Transformer paper ("Attention Is All You
Need") does with its embeddings. GPT-2, whose tables this lesson uses, does not scale them: its
input is simply `wte[ids] + wpe[positions]`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] * math.sqrt(wte.shape[1]) + wpe[torch.arange(start, start + T)]


@mistake("one-hot-float32", hint=3, message="""\
You look up the tokens by multiplying a one-hot matrix by the table, and make both float32 with
`.float()` so that the product runs. The sum with the float64 positions comes back as float64, but
the token vectors have already been rounded to about 7 significant digits, which shows when token
and position vectors nearly cancel. Indexing, `wte[ids]`, copies the rows exactly; if you keep the
one-hot product, convert with `.to(wte.dtype)`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    tok = F.one_hot(ids, num_classes=wte.shape[0]).float() @ wte.float()
    return tok + wpe[torch.arange(start, start + T)]


@mistake("one-hot-width", hint=3, message="""\
You build `F.one_hot(ids)` without `num_classes`, so PyTorch makes it only as wide as the largest id
in this batch, plus one. When the batch happens not to use the last tokens of the vocabulary, the
one-hot matrix is narrower than V and cannot multiply the (V, D) table. Pass
`num_classes=wte.shape[0]`, or simply index: `wte[ids]`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    tok = F.one_hot(ids).to(wte.dtype) @ wte
    return tok + wpe[torch.arange(start, start + T)]


@mistake("no-length-check", hint=2, message="""\
When the positions run past the end of the position table, your function lets the lookup fail,
and whoever calls it reads PyTorch's `IndexError: index ... is out of bounds for dimension 0`,
which does not say what went wrong. Check first: if `start + T > P`, raise a `ValueError` that names `start`, `T`
and the table size `P`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    return wte[ids] + wpe[torch.arange(start, start + T)]


@mistake("sliced-without-check", hint=2, message="""\
You take the position vectors with a slice, `wpe[start:start + T]`, and never check its length. A
slice past the end of a tensor does not fail: it quietly returns fewer rows, and the error comes
later, as a shape mismatch in the addition. Check `start + T > P` first and raise a `ValueError`
that says the positions do not fit.""")
def embed(ids, wte, wpe, start=0):
    return wte[ids] + wpe[start:start + ids.shape[1]]


@mistake("assert-not-raise", hint=2, message="""\
You check the length with `assert`, which raises `AssertionError`, and Python skips every `assert`
when it runs with `-O`, so the check can vanish. An argument that is out of range is a `ValueError`:
`if start + T > P: raise ValueError("...")`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    assert start + T <= wpe.shape[0], "sequence too long for the position table"
    return wte[ids] + wpe[torch.arange(start, start + T)]


@mistake("bound-off-by-one", hint=2, message="""\
You refuse a sequence that fills the position table exactly. The last token sits at position
`start + T - 1`, and the table's last row is `P - 1`, so `start + T == P` fits: raise only when
`start + T > P`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T >= wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[torch.arange(start, start + T)]


@mistake("bound-ignores-start", hint=2, message="""\
Your check compares only T with the table size. A continuation's tokens sit at positions `start` to
`start + T - 1`, so even a short continuation runs past the table when it starts late. Check
`start + T > P`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[torch.arange(start, start + T)]


@mistake("returns-list", hint=3, message="""\
Your values are right, but you return nested lists (`.tolist()`, the habit of lessons 09 and 10).
From this chapter on, the pieces of the model pass tensors to each other: the embeddings go
straight into the first block. Return the tensor itself.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return (wte[ids] + wpe[torch.arange(start, start + T)]).tolist()


@mistake("positions-from-end", hint=2, message="""\
You take the last T rows of the position table (`wpe[-T:]` or `wpe[P - T:]`). The rows of `wpe` are
positions 0, 1, ..., P - 1, and the tokens here sit at positions `start` to `start + T - 1`, wherever
that is in the table: read the rows `wpe[torch.arange(start, start + T)]`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[-T:]


@mistake("positions-from-one", hint=2, message="""\
Your positions are counted from 1 (`torch.arange(start + 1, start + T + 1)`), so every token gets the
vector of the position after its own. Positions, like the rows of `wpe`, are counted from 0: the
first token of a fresh sequence uses row 0, and in general the tokens use the rows
`torch.arange(start, start + T)`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[torch.arange(start + 1, start + T + 1)]


@mistake("bound-one-late", hint=2, message="""\
Your check lets through a sequence one position too long: you compare the last position,
`start + T - 1`, with P (or `start + T` with P + 1), but the table's last row is P - 1, so the lookup
of position P fails with PyTorch's IndexError. Positions `start` to `start + T - 1` fit only when
`start + T <= P`: raise the ValueError when `start + T > P`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T - 1 > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wte[ids] + wpe[torch.arange(start, start + T)]


@mistake("no-position-for-one-token", hint=2, message="""\
You add the position vectors only when there is more than one token (`if T > 1:`), so a single new
token, a decoding step, gets its token vector alone. Every token needs its position, one token included:
add `wpe[torch.arange(start, start + T)]` whatever T is, so the new token knows it sits at
position `start`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    tok = wte[ids]
    if T > 1:
        tok = tok + wpe[torch.arange(start, start + T)]
    return tok


@mistake("no-token-embeddings", hint=1, message="""\
You return the position vectors alone: the tokens' own vectors, `wte[ids]`, never reach the output,
so every sequence of the same length embeds the same. Look up and add both:
`wte[ids] + wpe[torch.arange(start, start + T)]`.""")
def embed(ids, wte, wpe, start=0):
    B, T = ids.shape
    if start + T > wpe.shape[0]:
        raise too_long(start, T, wpe.shape[0])
    return wpe[torch.arange(start, start + T)].expand(B, -1, -1).clone()
