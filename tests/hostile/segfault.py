"""Hostile: dereferences a null pointer through ctypes inside softmax (a segmentation fault)."""
import ctypes


def softmax(x, axis=-1):
    return ctypes.string_at(0)
