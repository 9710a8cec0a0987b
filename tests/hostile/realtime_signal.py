"""Hostile (lesson 09): kills itself with a real-time signal (40), whose number has no name in
Python's signal.Signals, inside the function."""
import os


def solve(Q, K, V, mask=None):
    os.kill(os.getpid(), 40)
