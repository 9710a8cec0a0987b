# mistake: takes logits of position 0 instead of the last position
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
    out = ids.clone()
    B = ids.shape[0]
    finished = torch.zeros(B, dtype=torch.bool)
    for step in range(max_new_tokens):
        window = out[:, -context:]
        logits = logits_fn(window)[:, 0, :]
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
