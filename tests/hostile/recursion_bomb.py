"""Hostile: softmax calls itself forever (infinite recursion)."""


def softmax(x, axis=-1):
    return softmax(x, axis) + 0
