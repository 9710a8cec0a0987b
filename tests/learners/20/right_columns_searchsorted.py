# right: while loop over a python list of columns, searchsorted for the inverse CDF, clamped to V-1
"""Lesson 20: generation with a context window, greedy or sampled, stopping at an end token."""
import torch


# ---------------------------------------------------------------------------------------------
# Given: a tiny deterministic language model to generate with. The grader sends its parameters
# as data (a function cannot travel to your code), and `generate_with_model` builds the model and
# calls your `generate`. Read them; your code goes further down.
# ---------------------------------------------------------------------------------------------

def make_logits_fn(params):
    """A tiny causal language model as a function `logits_fn(ids) -> logits`.

    params: a dict of float64 tensors, "wte" (V, D) token embeddings, "wpe" (P, D) position
    embeddings and "w_out" (D, V) output weights. The model reads at most P tokens at a time.

    logits_fn(ids): ids is an int64 tensor (B, T) with T <= P. Returns float64 logits (B, T, V):
    row t scores the token that follows position t, having seen positions 0..t only.
    """
    wte, wpe, w_out = params["wte"], params["wpe"], params["w_out"]
    n_positions = wpe.shape[0]

    def logits_fn(ids):
        t = ids.shape[-1]
        if t > n_positions:
            raise ValueError(f"this model reads at most {n_positions} tokens at a time; "
                             f"it was given {t}")
        x = wte[ids] + wpe[:t]
        # every position adds the mean of the positions it has read so far (0..t, causal)
        seen = torch.cumsum(x, dim=-2) / torch.arange(1, t + 1, dtype=x.dtype)[:, None]
        return torch.tanh(x + 2.0 * seen) @ w_out

    return logits_fn


def generate_with_model(params, ids, max_new_tokens, context, eos_id=None, temperature=0.0,
                        uniforms=None):
    """Your `generate` with the model `make_logits_fn(params)` (how the grader calls it)."""
    return generate(make_logits_fn(params), ids, max_new_tokens, context, eos_id=eos_id,
                    temperature=temperature, uniforms=uniforms)


# ---------------------------------------------------------------------------------------------
# Your turn.
# ---------------------------------------------------------------------------------------------

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
    cols = []
    B = ids.shape[0]
    done = torch.zeros(B, dtype=torch.bool)
    step = 0
    while step < max_new_tokens:
        seq = torch.cat([ids] + [c.unsqueeze(1) for c in cols], dim=1)
        last = logits_fn(seq[:, max(0, seq.shape[1] - context):])[:, -1]
        if temperature > 0:
            cdf = torch.cumsum(torch.softmax(last / temperature, dim=-1), dim=-1)
            u = torch.tensor([float(uniforms[step][b]) for b in range(B)], dtype=cdf.dtype)
            tok = torch.searchsorted(cdf, u.unsqueeze(1), right=True).squeeze(1)
            tok = tok.clamp(max=cdf.shape[-1] - 1)
        else:
            tok = last.max(dim=-1).indices
        if eos_id is not None:
            tok = tok.masked_fill(done, eos_id)
            done = done | tok.eq(eos_id)
        cols.append(tok.to(torch.int64))
        step += 1
        if eos_id is not None and done.all():
            break
    if not cols:
        return ids.clone()
    return torch.cat([ids, torch.stack(cols, dim=1)], dim=1)
