"""Hostile: calls sys.exit(0) inside softmax."""
import sys


def softmax(x, axis=-1):
    sys.exit(0)
