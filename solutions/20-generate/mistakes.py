"""Known mistakes for lesson 20 (generation with a context window)."""
import torch

from grader.lessons.authoring import mistake


def choose(logits, step, temperature, uniforms):
    """The right choice of next token from last-position logits (B, V), shared by the variants."""
    if temperature == 0:
        return torch.argmax(logits, dim=-1)
    cdf = torch.cumsum(torch.softmax(logits / temperature, dim=-1), dim=-1)
    u = torch.as_tensor(uniforms[step], dtype=torch.float64)
    return (cdf <= u[:, None]).sum(dim=-1).clamp(max=logits.shape[-1] - 1)


def finish(ids, next_id, finished, eos_id):
    """The right end-token bookkeeping: pad finished rows, mark new ones, append."""
    if eos_id is not None:
        next_id = torch.where(finished, torch.tensor(eos_id), next_id)
        finished = finished | (next_id == eos_id)
    return torch.cat([ids, next_id[:, None]], dim=1), finished


def done(finished, eos_id):
    return eos_id is not None and bool(finished.all())


@mistake("no-crop", hint=1, message="""\
You give the model the whole sequence at every step. A model is built (and trained) for at most
`context` tokens: beyond that it either fails (its position table runs out) or reads tokens it was
never meant to see, and its prediction changes. Crop each row to its LAST `context` tokens before
calling the model: `ids[:, -context:]`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids)[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("crop-first-tokens", hint=1, message="""\
You keep the FIRST `context` tokens (`ids[:, :context]`), so once the sequence outgrows the window
the model keeps reading the same old prefix and never sees what it has just written. The window
slides: keep the most recent tokens, `ids[:, -context:]`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, :context])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("first-position-logits", hint=1, message="""\
You choose from the logits at position 0 (`logits[:, 0]`). Row t of the logits predicts the token
AFTER position t, having seen positions 0..t, so position 0 predicts the second token from the first
token alone. The next token of the sequence is predicted by the LAST position: `logits[:, -1, :]`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, 0, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("argmax-over-time", hint=2, message="""\
You take the argmax over axis 1 of the full logits (B, T, V), which is the TIME axis: you get the
position with the highest score, not a token. Take the last position first, `logits[:, -1, :]`
of shape (B, V), then the argmax over the vocabulary: `dim=-1`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        full = logits_fn(ids[:, -context:])
        if temperature == 0:
            next_id = full.argmax(dim=1)[:, -1]
        else:
            next_id = choose(full[:, -1, :], step, temperature, uniforms)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("argmax-without-dim", hint=2, message="""\
You call `argmax` without `dim`, which flattens the whole (B, V) table and returns one index, so
your code only works for a batch of one (with more rows it cannot even be reshaped to one token per
row). Ask for the argmax over the vocabulary of each row: `torch.argmax(logits, dim=-1)`, which
gives B tokens.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        if temperature == 0:
            next_id = torch.argmax(logits).reshape(ids.shape[0])
        else:
            next_id = choose(logits, step, temperature, uniforms)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("total-length", hint=1, message="""\
You treat `max_new_tokens` as the length of the whole sequence, prompt included (the way
`max_length` works in some libraries), so you generate only `max_new_tokens - T0` tokens, or none.
It counts the NEW tokens: run exactly `max_new_tokens` steps (fewer only when an end token stops
you).""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    step = 0
    while ids.shape[1] < max_new_tokens:
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        step += 1
        if done(finished, eos_id):
            break
    return ids


@mistake("one-step-short", hint=3, message="""\
You generate one token fewer than asked (a loop such as `range(1, max_new_tokens)`). Each step
appends exactly one token, so `max_new_tokens` steps give `max_new_tokens` new tokens: loop over
`range(max_new_tokens)`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens - 1):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("end-token-dropped", hint=3, message="""\
You stop when the model produces the end token but do not append it. The end token is part of the
output (it is how the caller knows the row ended on purpose rather than at the limit): append it
first, then stop (`break` after the `cat`).""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        next_id = choose(logits, step, temperature, uniforms)
        if eos_id is not None:
            next_id = torch.where(finished, torch.tensor(eos_id), next_id)
            if bool((finished | (next_id == eos_id)).all()):
                break
            finished = finished | (next_id == eos_id)
        ids = torch.cat([ids, next_id[:, None]], dim=1)
    return ids


@mistake("prompt-end-token-stops", hint=3, message="""\
You decide whether a row has finished by looking at its last token, so a prompt that happens to end
with the end token counts as finished before anything is generated. Only GENERATED end tokens finish
a row: keep a `finished` flag per row, all False at the start, and set it when the token you have
just chosen is `eos_id`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    for step in range(max_new_tokens):
        if eos_id is not None and bool((ids[:, -1] == eos_id).all()):
            break
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        next_id = choose(logits, step, temperature, uniforms)
        if eos_id is not None:
            next_id = torch.where(ids[:, -1] == eos_id, torch.tensor(eos_id), next_id)
        ids = torch.cat([ids, next_id[:, None]], dim=1)
    return ids


@mistake("pads-with-zero", hint=3, message="""\
You pad finished rows with 0 (a habit from padding batches of token ids), but 0 is an ordinary
token of this vocabulary. Here a finished row is padded with the end token itself, `eos_id`, as
Hugging Face's `generate` does when the pad token is the end token: `torch.where(finished, eos_id,
next_id)`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        next_id = choose(logits, step, temperature, uniforms)
        if eos_id is not None:
            next_id = torch.where(finished, torch.tensor(0), next_id)
            finished = finished | (next_id == eos_id)
        ids = torch.cat([ids, next_id[:, None]], dim=1)
        if done(finished, eos_id):
            break
    return ids


@mistake("stop-at-first-row", hint=3, message="""\
You stop the whole batch as soon as ONE row produces the end token, which cuts the other rows off
mid-sentence. A batch stops when EVERY row has finished (`finished.all()`); until then, rows that
are done are padded with the end token.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if eos_id is not None and bool(finished.any()):
            break
    return ids


@mistake("finished-rows-continue", hint=3, message="""\
A row that has produced the end token keeps generating model tokens after it. Once a row is
finished, everything appended to it must be the end token (padding) while the other rows finish:
keep a `finished` flag per row and use `torch.where(finished, eos_id, next_id)`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        next_id = choose(logits, step, temperature, uniforms)
        if eos_id is not None:
            finished = finished | (next_id == eos_id)
        ids = torch.cat([ids, next_id[:, None]], dim=1)
        if done(finished, eos_id):
            break
    return ids


@mistake("temperature-multiplied", hint=2, message="""\
You multiply the logits by the temperature instead of dividing. Temperature T rescales logits to
`logits / T`: a T below 1 sharpens the distribution (towards greedy), a T above 1 flattens it.
Multiplying does the opposite. Use `torch.softmax(logits / temperature, dim=-1)`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        if temperature == 0:
            next_id = torch.argmax(logits, dim=-1)
        else:
            cdf = torch.cumsum(torch.softmax(logits * temperature, dim=-1), dim=-1)
            u = torch.as_tensor(uniforms[step], dtype=torch.float64)
            next_id = (cdf <= u[:, None]).sum(dim=-1).clamp(max=logits.shape[-1] - 1)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("same-uniform-every-step", hint=3, message="""\
You use the first row of `uniforms` at every step. Each step needs a fresh random number, or the
"random" choice is the same draw over and over: at step s, row b uses `uniforms[s][b]`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        ids, finished = finish(ids, choose(logits, 0, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("always-greedy", hint=2, message="""\
You always take the argmax, whatever the temperature. Greedy choice is only for `temperature == 0`;
above 0 you sample: softmax of `logits / temperature`, its cumulative sum along the vocabulary, and
the first token whose cumulative probability exceeds the step's uniform number.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, 0, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("cdf-ignored", hint=2, message="""\
You compare the uniform number with the probabilities themselves rather than with their running
total. Inverse-CDF sampling walks along the CUMULATIVE sum, `torch.cumsum(probs, dim=-1)`, and takes
the first token where it exceeds u; each token then wins with exactly its own probability.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        if temperature == 0:
            next_id = torch.argmax(logits, dim=-1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            u = torch.as_tensor(uniforms[step], dtype=torch.float64)
            next_id = (probs <= u[:, None]).sum(dim=-1).clamp(max=logits.shape[-1] - 1)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("cdf-at-or-above-u", hint=2, message="""\
You take the first token whose cumulative probability is AT OR ABOVE u (`cdf >= u`, or counting the
entries `cdf < u`, or `searchsorted` with its default side). The lesson's rule is the first token
whose cumulative probability EXCEEDS u: token i owns [cdf[i-1], cdf[i]), so a u that equals cdf[i]
already belongs to the next token (and a token of probability 0 can never be drawn). Count the
entries `cdf <= u`: `(cdf <= u[:, None]).sum(dim=-1)`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        if temperature == 0:
            next_id = torch.argmax(logits, dim=-1)
        else:
            cdf = torch.cumsum(torch.softmax(logits / temperature, dim=-1), dim=-1)
            u = torch.as_tensor(uniforms[step], dtype=torch.float64)
            next_id = (cdf < u[:, None]).sum(dim=-1).clamp(max=logits.shape[-1] - 1)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("window-one-short", hint=1, message="""\
Your window holds one token fewer than `context` (`ids[:, -context + 1:]`, or `-(context - 1)`),
so the model never reads the oldest token it is allowed to. Keep the last `context` tokens:
`ids[:, -context:]`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -(context - 1):])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("window-one-long", hint=1, message="""\
Your window holds one token more than `context` (`ids[:, -context - 1:]`, or `-(context + 1)`), so
at the model's limit it is handed more tokens than it has positions for, and otherwise it reads a
token it should not. Keep the last `context` tokens: `ids[:, -context:]`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -(context + 1):])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("cropped-once", hint=1, message="""\
You crop only once, before the loop, and then keep growing that window, so after a few steps the
model reads more than `context` tokens (and fails at its limit). The window slides: crop at every
step, `logits_fn(ids[:, -context:])`, on the sequence as it is now.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    window = ids[:, -context:]
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(window)[:, -1, :]
        before = ids.shape[1]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        window = torch.cat([window, ids[:, before:]], dim=1)
        if done(finished, eos_id):
            break
    return ids


@mistake("stops-one-step-late", hint=3, message="""\
You test whether every row has finished at the top of the loop, before choosing the next token, so
after the last row writes its end token you run one more step and append a column of padding. Test
right after appending: `if finished.all(): break` at the end of the step.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            if step + 1 < max_new_tokens:
                ids, finished = finish(ids, torch.full_like(ids[:, -1], eos_id), finished, eos_id)
            break
    return ids


@mistake("softmax-over-batch", hint=2, message="""\
Your softmax runs over dim 0, the batch axis of the (B, V) logits, so each token's probabilities are
shared out among the rows instead of each row's among its tokens. Normalise over the vocabulary:
`torch.softmax(logits / temperature, dim=-1)`, and the cumulative sum along `dim=-1` too.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        if temperature == 0:
            next_id = torch.argmax(logits, dim=-1)
        else:
            cdf = torch.cumsum(torch.softmax(logits / temperature, dim=0), dim=-1)
            u = torch.as_tensor(uniforms[step], dtype=torch.float64)
            next_id = (cdf <= u[:, None]).sum(dim=-1).clamp(max=logits.shape[-1] - 1)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("eos-test-on-a-tensor", hint=3, message="""\
Your code stops on "Boolean value of Tensor with more than one value is ambiguous" when the batch has
several rows: `if next_id == eos_id:` asks Python for the truth of a whole tensor. Keep one flag per
row, `finished = finished | (next_id == eos_id)`, pad the finished rows with eos_id, and stop when
`finished.all()`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        next_id = choose(logits, step, temperature, uniforms)
        ids = torch.cat([ids, next_id[:, None]], dim=1)
        if eos_id is not None and next_id == eos_id:
            break
    return ids


@mistake("argmax-flat-index", hint=2, message="""\
You call `torch.argmax(logits)` without `dim`: it flattens the (B, V) table and returns ONE index,
a 0-d tensor, so `next_id[:, None]` fails ("too many indices for tensor of dimension 0"), and where
it is broadcast to every row instead, the flat index can exceed the vocabulary (an IndexError in the
model). Take the argmax of each row over the vocabulary: `torch.argmax(logits, dim=-1)`, shape (B,).""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        if temperature == 0:
            next_id = torch.argmax(logits)
        else:
            next_id = choose(logits, step, temperature, uniforms)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("no-fallback-to-the-last-token", hint=2, message="""\
When rounding leaves the last running total a hair below 1 and u falls at or above it, no total
exceeds u, and your count of the totals at or below u is V: a token that does not exist. Take the
last token then: clamp the count to V - 1, `.clamp(max=logits.shape[-1] - 1)`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        if temperature == 0:
            next_id = torch.argmax(logits, dim=-1)
        else:
            cdf = torch.cumsum(torch.softmax(logits / temperature, dim=-1), dim=-1)
            u = torch.as_tensor(uniforms[step], dtype=torch.float64)
            next_id = (cdf <= u[:, None]).sum(dim=-1)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("hides-the-model-error", hint=1, message="""\
Your code catches the model's ValueError and returns what it has so far. When `context` is larger
than the model can read, the model refuses the window it is given, and that error is the caller's to
see: the crop keeps the last `context` tokens, `ids[:, -context:]`, and whatever the model says
about that window passes through.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        try:
            logits = logits_fn(ids[:, -context:])[:, -1, :]
        except ValueError:
            break
        ids, finished = finish(ids, choose(logits, step, temperature, uniforms), finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("uniforms-in-float32", hint=3, message="""\
Your uniform numbers are float32: `torch.tensor(uniforms[step])` makes float32 from a list of
Python floats, and rounding moves u by up to 3e-8, enough to cross a running total and pick the
neighbouring token. Keep them float64: `torch.as_tensor(uniforms[step], dtype=torch.float64)`.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        if temperature == 0:
            next_id = torch.argmax(logits, dim=-1)
        else:
            cdf = torch.cumsum(torch.softmax(logits / temperature, dim=-1), dim=-1)
            u = torch.tensor(uniforms[step])
            next_id = (cdf <= u[:, None]).sum(dim=-1).clamp(max=logits.shape[-1] - 1)
        ids, finished = finish(ids, next_id, finished, eos_id)
        if done(finished, eos_id):
            break
    return ids


@mistake("temperature-ignored", hint=2, message="""\
You sample from `softmax(logits)` whatever the temperature, so every temperature above 0 samples as
if it were 1. Temperature divides the logits before the softmax: `torch.softmax(logits /
temperature, dim=-1)`; below 1 it sharpens the distribution, above 1 it flattens it.""")
def generate(logits_fn, ids, max_new_tokens, context, eos_id=None, temperature=0.0, uniforms=None):
    ids = torch.as_tensor(ids, dtype=torch.int64)
    finished = torch.zeros(ids.shape[0], dtype=torch.bool)
    for step in range(max_new_tokens):
        logits = logits_fn(ids[:, -context:])[:, -1, :]
        ids, finished = finish(ids, choose(logits, step, 1.0 if temperature else 0, uniforms),
                               finished, eos_id)
        if done(finished, eos_id):
            break
    return ids
