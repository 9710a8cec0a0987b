# mistake: only the parameters and the step saved; fresh optimizer on load
# varies: right_straightforward.py

def save_checkpoint(run, path):
    """Save everything needed to resume `run` exactly to the file `path` (with torch.save): the
    parameters' values, the optimizer state, the step, run["rng"]'s state and the state of
    torch's global generator (dropout draws from it)."""
    torch.save({"params": {k: v.detach() for k, v in run["params"].items()}, "step": run["step"],
                "rng": run["rng"].get_state(), "global_rng": torch.get_rng_state()}, path)


def load_checkpoint(path):
    """The run saved at `path`, ready to train on: parameters as leaf tensors that record
    gradients, the optimizer state, the step, a generator in the saved state. Also puts torch's
    global generator back in its saved state."""
    ck = torch.load(path)
    torch.set_rng_state(ck["global_rng"])
    g = torch.Generator()
    g.set_state(ck["rng"])
    params = {k: v.requires_grad_() for k, v in ck["params"].items()}
    return {"params": params, "opt": adamw_init(params), "step": ck["step"], "rng": g}
