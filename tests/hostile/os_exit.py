"""Hostile: calls os._exit(0) inside softmax, ending the process without any cleanup."""
import os


def softmax(x, axis=-1):
    os._exit(0)
