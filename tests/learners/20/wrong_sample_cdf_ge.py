# sampled the first token whose cumulative probability is >= u instead of > u
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
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        window = out[:, -context:]
        logits = logits_fn(window)[:, -1, :]
        if temperature == 0:
            next_tok = torch.argmax(logits, dim=-1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            cdf = torch.cumsum(probs, dim=-1)
            u = torch.as_tensor(uniforms[step], dtype=cdf.dtype)
            next_tok = (cdf < u[:, None]).sum(dim=-1)
            next_tok = next_tok.clamp(max=logits.shape[-1] - 1)
        if eos_id is not None:
            next_tok = torch.where(finished, torch.full_like(next_tok, eos_id), next_tok)
            finished = finished | (next_tok == eos_id)
        out = torch.cat([out, next_tok[:, None].to(out.dtype)], dim=1)
        if eos_id is not None and bool(finished.all()):
            break
    return out
