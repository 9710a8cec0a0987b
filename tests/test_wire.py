"""The wire format carries data only, refuses what it does not know, and survives hostile bytes."""
import pickle

import numpy as np
import pytest
import torch

from grader.runner.child import wire


def roundtrip(value):
    return wire.decode(wire.encode(value))


def test_plain_values_roundtrip():
    value = [1, 2.5, None, True, "text", (1, [2, 3]), {"a": [1.0, float("inf")]}]
    assert roundtrip(value) == value


def test_nan_survives():
    assert np.isnan(roundtrip(float("nan")))


def test_arrays_keep_dtype_shape_and_values():
    arr = np.random.default_rng(0).normal(size=(2, 3, 4))
    back = roundtrip(arr)
    assert type(back) is np.ndarray and back.dtype == np.float64 and back.shape == (2, 3, 4)
    np.testing.assert_array_equal(back, arr)
    assert roundtrip(np.arange(6, dtype=np.int32).reshape(2, 3)).dtype == np.int32


def test_tensors_arrive_marked_as_tensors():
    back = roundtrip(torch.arange(6, dtype=torch.float64).reshape(3, 2))
    assert isinstance(back, wire.Tensor)
    np.testing.assert_array_equal(back.array, np.arange(6.0).reshape(3, 2))


def test_numpy_scalars_stay_numpy_scalars():
    back = roundtrip(np.float64(1.5))
    assert type(back) is np.float64 and back == 1.5


class AlwaysEqual:
    def __eq__(self, other):
        return True


class SneakyFloat(float):
    pass


class SneakyArray(np.ndarray):
    pass


@pytest.mark.parametrize("value, words", [
    (AlwaysEqual(), "unsupported type"),
    (SneakyFloat(1.0), "unsupported type"),
    (np.zeros(3).view(SneakyArray), "unsupported type"),
    (np.array([1 + 2j]), "dtype complex128"),
    (np.array([object()]), "dtype object"),
    ({1: 2}, "keys must be strings"),
    (10**30, "too large"),
])
def test_unknown_types_are_refused(value, words):
    with pytest.raises(wire.WireError, match=words):
        wire.encode(value)


def test_depth_and_size_are_capped():
    deep = []
    for _ in range(wire.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(wire.WireError, match="nested"):
        wire.encode(deep)
    with pytest.raises(wire.WireError, match="elements"):
        wire.encode([0] * (wire.MAX_ITEMS + 1))


def frame(body, blob=b""):
    return wire.PREFIX.pack(wire.MAGIC, len(body), len(blob)) + body + blob


@pytest.mark.parametrize("data, words", [
    (pickle.dumps([1, 2]), "not a result frame|truncated"),
    (frame(b"{not json"), "not valid JSON"),
    (frame(b'{"v": {"$array": ["float64", [2, 2], 0]}, "o": [[0, 8]]}', b"x" * 8), "does not match"),
    (frame(b'{"v": {"$array": ["object", [1], 0]}, "o": [[0, 8]]}', b"x" * 8), "malformed array"),
    (frame(b'{"v": {"$array": ["float64", [1], 3]}, "o": []}'), "missing blob"),
    (frame(b'{"v": {"$evil": 1}, "o": []}'), "malformed value"),
    (frame(b'{"v": ' + b"[" * 5000 + b"]" * 5000 + b', "o": []}'), "nested|not valid JSON"),
    (frame(b'{"v": 1, "o": []}')[:-3], "length does not match"),
])
def test_hostile_frames_are_refused(data, words):
    with pytest.raises(wire.WireError, match=words):
        wire.decode(data)


def test_decoder_never_unpickles():
    evil = frame(b'{"v": {"$array": ["float64", [1], 0]}, "o": [[0, 8]]}', (pickle.dumps(1) * 2)[:8])
    assert wire.decode(evil).shape == (1,)  # bytes are only ever numbers
