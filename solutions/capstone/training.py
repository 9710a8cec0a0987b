"""Training in stages: the learner's `train` (lesson 27) called eval_every steps at a time, so a
progress bar can move and a time limit can be kept. A run resumed at any evaluation step gives the
same history as one that never stopped, so the stages change nothing in the numbers."""
import time


def train_in_stages(loop, run, train_data, val_data, config, steps, checkpoint=None,
                    deadline=None, reserve=0.0, progress=None):
    """Train `run` up to `steps`; returns (history, stopped_early).

    deadline: a time.monotonic() by which training must have stopped, leaving `reserve` seconds
    (for what comes after, such as sampling): no stage starts unless it is likely to end in time.
    """
    history, stage_seconds = {"steps": [], "evals": []}, 0.0
    while run["step"] < steps:
        if deadline is not None and time.monotonic() + stage_seconds + reserve > deadline:
            return history, True
        started = time.monotonic()
        part = loop.train(run, train_data, val_data, config,
                          min(steps, run["step"] + config["eval_every"]), checkpoint)
        for kind in history:
            history[kind] += part[kind]
        stage_seconds = time.monotonic() - started
        if progress is not None:
            progress.update(run["step"], history["steps"][-1]["loss"])
    return history, False
