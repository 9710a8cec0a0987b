"""Hidden cases for lesson 25 (a linear warmup, then a cosine decay to a minimum)."""
from grader.judge.compare import compare
from grader.lessons.authoring import Spec, call, case, edit, promise

PROMISES = (
    promise("step < warmup_steps: max_lr * (step + 1) / warmup_steps",
            cases=("example 2", "the end of the warmup", "warmup, decay and after", "a long warmup"),
            broken_by=("warmup-starts-at-zero", "nanogpt-warmup", "warmup-one-step-too-long",
                       "warmup-from-the-minimum", "whole-steps-of-warmup")),
    promise("ratio = (step - warmup_steps) / (max_steps - warmup_steps), min_lr + 0.5 * (1 + "
            "math.cos(math.pi * ratio)) * (max_lr - min_lr)",
            cases=("halfway down", "example 3", "no warmup", "example 4", "decay to zero"),
            broken_by=("cosine-in-degrees", "minimum-ignored", "minimum-added-to-the-peak",
                       "ratio-from-step-zero", "no-half", "linear-decay", "decay-ends-a-step-early")),
    promise("step > max_steps: min_lr", cases=("warmup, decay and after", "a long warmup"),
            broken_by=("decays-past-the-end",)),
    promise("as a Python float", cases=("a Python float", "example 3"),
            broken_by=(edit("return min_lr + coeff * (max_lr - min_lr)",
                            "return [min_lr + coeff * (max_lr - min_lr)]"),)),
    promise("warmup_steps may be 0 (no warmup) and min_lr may be 0 or equal to max_lr",
            cases=("no warmup", "example 4", "decay to zero", "a constant rate"),
            broken_by=(edit("if step < warmup_steps:", "if step <= warmup_steps:"),
                       "minimum-ignored")),
)

SPEC = Spec(
    promises=PROMISES,
    hint_topics=(("warmup", "step + 1", "max_lr", "three parts", "step > max_steps"),
                 ("ratio", "math.cos", "math.pi", "radians", "0.5 * (1", "max_lr - min_lr",
                  "min_lr"),
                 ("return", "coeff", "float", "warmup_steps", "max_steps")),
    functions=("lr_at", "schedule"),
)


def steps_check(got, expected, calls):
    """The reference's schedule; when it differs, the first step where it does, and in which part
    of the schedule that step lies."""
    problem = compare(expected[0], got[0], SPEC.rtol, SPEC.atol)
    if problem is None or not isinstance(got[0], list) or len(got[0]) != len(expected[0]):
        return problem
    _, max_lr, min_lr, warmup, max_steps = calls[0].args
    for step, (e, g) in enumerate(zip(expected[0], got[0])):
        if compare(e, g, SPEC.rtol, SPEC.atol):
            part = ("the warmup" if step < warmup else "the cosine decay" if step <= max_steps
                    else "the steps after max_steps")
            return (f"step {step}, in {part}: expected {e:.6g}, got {g!r} (warmup_steps "
                    f"{warmup}, max_steps {max_steps}, max_lr {max_lr}, min_lr {min_lr})")
    return problem


def table(name, n, max_lr, min_lr, warmup, max_steps, probe, hint):
    return case(name, call("schedule", n, max_lr, min_lr, warmup, max_steps), probe=probe,
                check=steps_check, hint=hint)


def cases(rng):
    lr = float(rng.uniform(3e-4, 9e-4))
    yield table("warmup, decay and after", 26, lr, lr / 10, 5, 20, hint=1,
                probe="26 steps with warmup_steps 5 and max_steps 20: the warmup, the cosine "
                      "decay, and 5 steps after it at min_lr")
    yield table("no warmup", 13, 1.5e-3, 2e-4, 0, 12, hint=2,
                probe="warmup_steps 0: the cosine ratio starts at step 0, from max_lr")
    yield table("a one-step warmup", 9, 0.01, 0.001, 1, 8, hint=1,
                probe="warmup_steps 1: step 0 already has max_lr, then the decay")
    yield table("decay to zero", 17, 3e-3, 0.0, 4, 16, hint=2,
                probe="min_lr 0: the cosine ends at exactly 0 at max_steps 16")
    yield table("a constant rate", 8, 2e-4, 2e-4, 2, 6, hint=2,
                probe="min_lr equal to max_lr: after the warmup the rate never changes")
    yield table("a long warmup", 40, 6e-4, 6e-5, 30, 36, hint=1,
                probe="warmup_steps 30 of max_steps 36: the warmup's slope is max_lr / 30")
    max_lr = float(rng.uniform(1e-3, 3e-3))
    at = (0, 99, 100, 101, 1050, 1999, 2000, 2001, 5000)
    yield case("a real run's schedule",
               *(call("lr_at", s, max_lr, max_lr / 10, 100, 2000) for s in at),
               probe="lr_at at steps 0, 99, 100, 101, 1050, 1999, 2000, 2001 and 5000 of a run "
                     "with warmup_steps 100 and max_steps 2000", hint=3)
    yield case("the end of the warmup", call("lr_at", 6, 0.02, 0.002, 7, 50),
               call("lr_at", 7, 0.02, 0.002, 7, 50),
               probe="the last warmup step (6, of warmup_steps 7) and the first decay step: both "
                     "have max_lr", hint=1)
    yield case("halfway down", call("lr_at", 30, 0.05, 0.01, 10, 50),
               probe="step 30 of a decay from step 10 to 50: ratio 0.5, so the mean of max_lr and "
                     "min_lr", hint=2)
    yield case("a Python float", call("lr_at", 3, 0.004, 0.0004, 2, 9),
               probe="one learning rate, returned as a Python float", hint=3)
