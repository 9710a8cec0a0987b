# indexed the uniforms as uniforms[b][s], row first
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
    rows = [list(map(int, r)) for r in ids]
    done = [False] * len(rows)
    if uniforms is not None:
        uniforms = torch.as_tensor(uniforms, dtype=torch.float64)
    new = []
    s = 0
    while s < max_new_tokens and not (eos_id is not None and all(done)):
        seq = torch.cat([ids] + new, dim=1) if new else ids
        last = logits_fn(seq[:, max(0, seq.shape[1] - context):])[:, -1]
        if temperature > 0:
            p = torch.softmax(last / temperature, dim=-1)
            c = p.cumsum(-1)
            picked = []
            for b in range(len(rows)):
                above = (c[b] > uniforms[b, s]).nonzero()
                picked.append(int(above[0]) if len(above) else c.shape[-1] - 1)
            tok = torch.tensor(picked, dtype=torch.int64)
        else:
            tok = last.argmax(dim=-1)
        if eos_id is not None:
            for b in range(len(rows)):
                if done[b]:
                    tok[b] = eos_id
                elif tok[b] == eos_id:
                    done[b] = True
        new.append(tok.view(-1, 1))
        s += 1
    return torch.cat([ids] + new, dim=1) if new else ids.clone()
