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


def escaped(transform):
    """A functorch wrapper tensor smuggled out of the transform that made it."""
    seen = []
    transform(lambda x: seen.append(x) or x)(torch.zeros(3, 2))
    return seen[0]


@pytest.mark.parametrize("tensor, words", [
    (torch.zeros(2, dtype=torch.bfloat16), "dtype bfloat16"),
    (torch.zeros(2, dtype=torch.complex128), "dtype complex128"),
    (torch.zeros(2, device="meta"), "'meta' device"),
    (torch.zeros(2).to_sparse(), "sparse"),
    (torch.zeros(()).expand(10**6, 10**6), "more than 1,000,000 elements"),
    (torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]), "cannot be read"),
    (escaped(torch.func.vmap), r"cannot be read \(NotImplementedError\)"),
])
def test_tensors_the_format_does_not_carry_are_named(tensor, words):
    with pytest.raises(wire.WireError, match=words):
        wire.encode(tensor)


def test_a_view_past_the_end_of_its_storage_is_refused_unread():
    big = torch.zeros(300, 300, dtype=torch.float64)
    view = big[:]
    big.untyped_storage().resize_(0)          # the view's data is freed under it
    with pytest.raises(wire.WireError, match="past the end of its storage"):
        wire.encode(view)
    assert roundtrip(torch.arange(10.0)[3:].as_strided((2, 2), (1, 2))).array.tolist() == [[3, 5], [4, 6]]


def test_a_type_that_names_itself_at_length_is_named_briefly():
    class Verbose(torch.Tensor):
        pass
    Verbose.__qualname__ = "V" * 5_000_000
    with pytest.raises(wire.WireError) as refused:
        wire.encode(torch.zeros(2).as_subclass(Verbose))
    assert len(str(refused.value)) < 400


class Unhashable(type):
    def __hash__(cls):
        raise KeyboardInterrupt


@pytest.mark.parametrize("value, words", [
    (torch.zeros(2).as_subclass(type("Long", (torch.Tensor,), {"__qualname__": "L" * 2_000_000})),
     "unsupported type"),
    (Unhashable("Odd", (), {})(), "could not read (KeyboardInterrupt)"),
])
def test_the_child_reports_any_value_it_cannot_send_as_that_cases_error(value, words):
    import io
    from grader.runner.child import runner
    out = io.BytesIO()
    runner.send(out, {"kind": "case", "index": 0, "outputs": [value], "error": None,
                      "mutated": [], "stdout": ""})
    frame = wire.decode(out.getvalue())
    assert frame["outputs"] is None and frame["error"]["type"] == "UnsupportedReturn"
    assert words in frame["error"]["message"] and len(frame["error"]["message"]) <= 2_000
