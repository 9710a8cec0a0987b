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


# ---- generated frames: whatever bytes a child sends, the parent decodes them or refuses them ----

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.runner import run
from grader.runner.child import runner
from grader.runner.outcome import grader_kind

FRAMES = settings(max_examples=200, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
sizes = (st.integers(-3, 5) | st.sampled_from([10**30, 2**63, 2**64, -2**63 - 1, 10**6, 10**12])
         | st.integers(-10**40, 10**40))
array_specs = st.tuples(st.sampled_from(sorted(wire.DTYPES) + ["object", 3]),
                        st.lists(sizes, max_size=4) | sizes, sizes).map(list)
tags = st.sampled_from(["$array", "$scalar", "$tensor", "$tuple", "$dict", "$float", "$evil"])
json_values = st.recursive(
    st.none() | st.booleans() | sizes | st.floats() | st.text(max_size=4) | array_specs,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tags | st.text(max_size=2), inner,
                                                                max_size=2),
    max_leaves=12)


@st.composite
def forged_arrays(draw):
    """(header, blob) of an array whose data matches its dtype and shape wherever it can: sizes
    of any magnitude, empty axes beside impossible ones."""
    dtype = draw(st.sampled_from(sorted(wire.DTYPES)))
    shape = draw(st.lists(st.sampled_from([0, 0, 1, 2, 3, 10**30, 2**63, 2**64, 10**6]), max_size=5))
    size = math.prod(shape) * np.dtype(dtype).itemsize
    blob = bytes(size) if size <= 64 else draw(st.binary(max_size=16))
    tag = draw(st.sampled_from(["$array", "$scalar", "$tensor"]))
    value = draw(st.sampled_from([lambda v: v, lambda v: [v], lambda v: {"$tuple": [1, v]},
                                  lambda v: {"$dict": {"a": v}}]))({tag: [dtype, shape, 0]})
    return {"v": value, "o": [[0, len(blob)]]}, blob


@FRAMES
@given(json_values, st.lists(st.lists(sizes, max_size=3), max_size=3) | json_values,
       st.binary(max_size=64), forged_arrays())
def test_any_frame_is_decoded_or_refused_as_a_wire_error(value, offsets, blob, forged):
    """Any header and blob a child could forge: a value, or WireError (never numpy's own
    ValueError, an OverflowError or a MemoryError reaching the grader)."""
    for header, data in (({"v": value, "o": offsets}, blob), forged):
        try:
            wire.decode(frame(json.dumps(header).encode(), data))
        except wire.WireError:
            pass


@pytest.mark.parametrize("spec", [["float64", [0, 10**30], 0], ["int8", [10**30, 0, 10**30], 0],
                                  ["float64", [2**63, 0], 0], ["bool", [0] * 40, 0]])
def test_an_empty_array_of_an_impossible_shape_is_refused(spec):
    data = frame(json.dumps({"v": {"$array": spec}, "o": [[0, 0]]}).encode())
    with pytest.raises(wire.WireError, match="shape|malformed"):
        wire.decode(data)


@pytest.mark.parametrize("value", ["x" * (wire.MAX_STR + 1), {"$dict": {"k" * (wire.MAX_STR + 1): 1}},
                                   10**30, -2**64])
def test_the_decoder_keeps_the_caps_the_encoder_promises(value):
    with pytest.raises(wire.WireError, match="too long|too large"):
        wire.decode(frame(json.dumps({"v": value, "o": []}).encode()))


def test_what_the_encoder_refuses_it_refuses_before_sending():
    """A child's own values get the same limits, so a legal child never breaks the channel."""
    with pytest.raises(wire.WireError, match="more than"):
        wire.encode(np.zeros((0, wire.MAX_ITEMS + 1)))
    with pytest.raises(wire.WireError, match="too long"):
        wire.encode({"k" * (wire.MAX_STR + 1): 1})


# ---- what the parent keeps of a frame: every string cut to its own size ----

texts = st.text(max_size=6) | st.integers(0, 200_000).map(lambda n: "~" * n)
errors = st.fixed_dictionaries(
    {"type": st.sampled_from(["ValueError", "MissingFunction", "UnsupportedReturn", "ImportCrash"])
             | texts,
     "message": texts},
    optional={"line": sizes, "trace": st.lists(texts, max_size=12) | texts, "grader": st.booleans(),
              "function": st.sampled_from(["softmax", "os.system", "~" * 5000])})
case_frames = st.fixed_dictionaries(
    {"kind": st.just("case"), "index": st.just(0), "error": st.none() | errors, "stdout": texts,
     "outputs": st.none() | st.lists(st.integers(), min_size=1, max_size=1),
     "mutated": st.lists(texts, max_size=80)},
    optional={"stdout_lines": sizes, "stdout_chars": sizes})


@FRAMES
@given(case_frames)
def test_whatever_a_child_reports_is_kept_cut_to_the_parents_own_sizes(frame_):
    """The child's caps can be lifted from inside the learner's process, and a frame can be
    written by hand: the parent cuts every string itself, and the grader's own kinds of error
    carry only words the parent writes."""
    try:
        outcome = run.case_outcome(run.expect(frame_, "case", 0), ["softmax"])
    except wire.WireError:
        return
    assert len(outcome.stdout) <= runner.MAX_CAPTURE
    error = outcome.error
    assert error is None or len(error["message"]) <= runner.MAX_MESSAGE + 3
    assert outcome.stdout_chars >= len(outcome.stdout) and outcome.stdout_lines >= 0
    assert len(outcome.mutated) <= run.MAX_MUTATED
    assert all(len(m) <= run.MAX_TYPE + 3 for m in outcome.mutated)
    if error is None:
        return
    assert len(error["type"]) <= run.MAX_TYPE + 3
    assert len(error["trace"]) <= run.MAX_TRACE
    assert all(len(t) <= run.MAX_TRACE_LINE + 3 for t in error["trace"])
    assert error["line"] is None or 0 < error["line"] <= run.MAX_LINE_NUMBER
    if grader_kind(error) == "MissingFunction":
        assert error["message"] == "no function named `softmax`"
    sent = frame_["error"]
    if not (sent.get("grader") is True):
        assert grader_kind(error) is None       # a class named like a grader kind is the code's
