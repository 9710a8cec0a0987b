# mistake: crops to context - 1 tokens (window = out[:, -(context - 1):])
# varies: right_lists.py

def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    """Extend every row of `ids` by up to `max_new_tokens` tokens, one at a time.

    logits_fn: a function from an int64 tensor (B, T) to float64 logits (B, T, V).
    ids: an int64 tensor (B, T0), the prompts (T0 >= 1).
    context: the model sees only the last `context` tokens of each row at every step.
    eos_id: an end token, or None. A row that produces it is finished: the end token is kept,
        and the row is padded with eos_id from then on. Generation stops as soon as every row
        has finished, or after max_new_tokens steps.
    temperature: 0 means greedy (argmax). Above 0, sample from softmax(logits / temperature)
        by inverse CDF: at step s, row b takes the smallest token i whose cumulative probability
        exceeds uniforms[s][b] (the last token if none does).
    uniforms: numbers in [0, 1) of shape (max_new_tokens, B); only used when temperature > 0.
    Returns an int64 tensor (B, T0 + n): the prompts followed by the n tokens generated.
    """
    out = ids.clone()
    B = ids.shape[0]
    finished = torch.zeros(B, dtype=torch.bool)
    for step in range(max_new_tokens):
        window = out[:, -(context - 1):]
        logits = logits_fn(window)[:, -1, :]
        if temperature == 0:
            nxt = torch.argmax(logits, dim=-1)
        else:
            p = torch.softmax(logits / temperature, dim=-1)
            c = torch.cumsum(p, dim=-1)
            u = torch.as_tensor(uniforms, dtype=torch.float64)[step]
            over = c > u[:, None]
            nxt = torch.where(over.any(dim=-1), over.int().argmax(dim=-1), torch.full((B,), p.shape[-1] - 1))
        if eos_id is not None:
            nxt = torch.where(finished, torch.full_like(nxt, eos_id), nxt)
            finished = finished | (nxt == eos_id)
        out = torch.cat([out, nxt[:, None].to(out.dtype)], dim=1)
        if eos_id is not None and bool(finished.all()):
            break
    return out
