# mistake: the perplexity as 2 ** loss
# varies: right_straightforward.py

def evaluate(params, data, config):
    """The model's mean loss on eval_batches batches of `data`, and its perplexity.

    The batches come from get_batch with a generator made afresh, seeded with eval_seed (so every
    evaluation sees the same batches, and the training generator is not touched). No gradients are
    recorded (torch.no_grad()) and there is no dropout.
    Returns {"loss": the mean of the batches' losses, "perplexity": exp(loss)}, both floats.
    """
    g = torch.Generator().manual_seed(config["eval_seed"])
    total = 0.0
    with torch.no_grad():
        for _ in range(config["eval_batches"]):
            x, y = get_batch(data, config["batch_size"], config["context"], g)
            total += batch_loss(gpt2_logits(params, x, config["n_heads"]), y).item()
    mean = total / config["eval_batches"]
    return {"loss": mean, "perplexity": 2 ** mean}
