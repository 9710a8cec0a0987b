# mistake: the evaluation done before the step, so at steps 0, eval_every, ...
# varies: right_straightforward.py

def train(run, train_data, val_data, config, steps, checkpoint_path=None):
    """Train `run` until run["step"] == steps (from wherever it is), evaluating as it goes.

    After every step that leaves run["step"] a multiple of eval_every, and after the last one:
    evaluate on both splits, record {"step": run["step"], "train_loss": ..., "val_loss": ...,
    "val_perplexity": ...}, and, given a checkpoint_path, save a checkpoint there.
    Returns {"steps": [train_step's records], "evals": [the evaluation records]}.
    """
    history = {"steps": [], "evals": []}
    while run["step"] < steps:
        if run["step"] % config["eval_every"] == 0:
            va = evaluate(run["params"], val_data, config)
            history["evals"].append({"step": run["step"], "train_loss": evaluate(run["params"], train_data, config)["loss"],
                                     "val_loss": va["loss"], "val_perplexity": va["perplexity"]})
            if checkpoint_path:
                save_checkpoint(run, checkpoint_path)
        history["steps"].append(train_step(run, train_data, config))
    return history
