"""Hostile: ignores every catchable stop or termination signal at import, then loops forever inside
softmax (only SIGKILL can end it)."""
import signal

import numpy as np

for name in ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGALRM", "SIGUSR1", "SIGUSR2",
             "SIGXCPU", "SIGVTALRM", "SIGPROF", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGPIPE"):
    try:
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    except (AttributeError, OSError, ValueError):
        pass


def softmax(x, axis=-1):
    while True:
        pass
    return np.zeros_like(x)
