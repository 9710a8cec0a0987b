# mistake: the loaded run gets a new generator seeded with 0
# varies: right_straightforward.py

def load_checkpoint(path):
    """The run saved at `path`, ready to train on: parameters as leaf tensors that record
    gradients, the optimizer state, the step, a generator in the saved state. Also puts torch's
    global generator back in its saved state."""
    ck = torch.load(path)
    torch.set_rng_state(ck["global_rng"])
    return {"params": {k: v.requires_grad_() for k, v in ck["params"].items()},
            "opt": ck["opt"], "step": ck["step"], "rng": torch.Generator().manual_seed(0)}
