"""The safe wire format between the grader and a child: data, never code.

A message is a JSON header plus raw byte blobs. Values are JSON-like (None, bool, int, float, str,
list, tuple, str-keyed dict); numeric arrays travel as dtype + shape + bytes, and torch tensors as
arrays marked as tensors. Anything else (subclasses included) is refused. Sizes, depth, element
counts, string lengths, integers and array shapes are capped on both sides (the decoder trusts
nothing the encoder promised: the other side may not be this encoder), and nothing is ever
unpickled. Decoding is total: whatever the bytes, it returns a value or raises WireError.

Framing: b"TWB1", u32 header length, u64 blob length, header (UTF-8 JSON), blob bytes.
"""
import json
import math
import struct
import sys

import numpy as np

MAGIC = b"TWB1"
PREFIX = struct.Struct("<4sIQ")
MAX_HEADER = 8 << 20
MAX_BLOB = 256 << 20
MAX_DEPTH = 32
MAX_ITEMS = 1_000_000
FLOATS = frozenset({float})                        # the types a row sent untouched may hold
LEAVES = frozenset({float, bool, type(None)})      # ... and a row read untouched
NUMBERS = frozenset({float, int, bool})   # exactly these: immutable, each equal only to its kind
MAX_STR = 1 << 20
DTYPES = frozenset(
    ["float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]
)

SCALAR_TYPES = frozenset(np.dtype(d).type for d in DTYPES)


class WireError(ValueError):
    """A value that cannot travel, or a message that breaks the format."""


def shape_size(shape):
    """How many elements an array of `shape` could hold were none of its axes empty: an empty
    array with an axis of 10**30 is no more a value than a full one."""
    size = 1
    for n in shape:
        size *= max(n, 1)
        if size > MAX_ITEMS:
            return size
    return size


class Tensor:
    """A torch tensor as it arrives on the trusted side: its values as a numpy array."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __repr__(self):
        return f"Tensor({self.array!r})"


class _Encoder:
    def __init__(self):
        self.blobs = []
        self.size = 0
        self.items = 0

    def count(self, n=1):
        self.items += n
        if self.items > MAX_ITEMS:
            raise WireError(f"the value has more than {MAX_ITEMS:,} elements")

    def array(self, arr, tag):
        dtype = str(arr.dtype)
        if dtype not in DTYPES:
            raise WireError(f"arrays of dtype {dtype} are not supported")
        self.count(arr.size)
        if shape_size(arr.shape) > MAX_ITEMS:
            raise WireError(f"the value has a shape of more than {MAX_ITEMS:,} elements")
        data = np.ascontiguousarray(arr).tobytes()
        self.size += len(data)
        if self.size > MAX_BLOB:
            raise WireError("the value is too large to return")
        self.blobs.append(data)
        return {tag: [dtype, list(arr.shape), len(self.blobs) - 1]}

    def value(self, v, depth=0):
        if depth > MAX_DEPTH:
            raise WireError(f"the value is nested more than {MAX_DEPTH} levels deep")
        self.count()
        t = type(v)
        if v is None or t is bool or t is int:
            if t is int and abs(v) > 2**63:
                raise WireError("an integer is too large")
            return v
        if t is float:
            return v if math.isfinite(v) else {"$float": repr(v)}
        if t is str:
            if len(v) > MAX_STR:
                raise WireError("a string is too long")
            return v
        if t is list and depth < MAX_DEPTH and FLOATS.issuperset(map(type, v)) and all(
                map(math.isfinite, v)):          # a row of finite floats: nothing to tag
            self.count(len(v))
            return v
        if t is list or t is tuple:
            items = [self.value(x, depth + 1) for x in v]
            return items if t is list else {"$tuple": items}
        if t is dict:
            if not all(type(k) is str for k in v):
                raise WireError("dict keys must be strings")
            if any(len(k) > MAX_STR for k in v):
                raise WireError("a string is too long")
            return {"$dict": {k: self.value(x, depth + 1) for k, x in v.items()}}
        if t is np.ndarray:
            return self.array(v, "$array")
        if t in SCALAR_TYPES:
            return self.array(np.asarray(v), "$scalar")
        torch = sys.modules.get("torch")
        if torch is not None and (t is torch.Tensor or t is torch.nn.Parameter):
            return self.array(tensor_array(v, torch), "$tensor")
        raise WireError(f"unsupported type {describe_type(v)}")


def tensor_array(t, torch):
    """A tensor's values as a numpy array; a tensor the format does not carry is named plainly."""
    dtype = str(t.dtype).removeprefix("torch.")
    if t.layout != torch.strided:
        raise WireError(f"a sparse torch tensor ({t.layout}); return a dense one (.to_dense())")
    if t.device.type != "cpu":
        raise WireError(f"a torch tensor on the {t.device.type!r} device, which holds no values "
                        "to compare; compute on the CPU" if t.device.type == "meta" else
                        f"a torch tensor on the {t.device.type!r} device; return it on the CPU")
    if dtype not in DTYPES:
        raise WireError(f"a torch tensor of dtype {dtype}, which the grader does not compare; "
                        "the lessons compute in float64")
    try:
        past = t.numel() and (t.storage_offset() + 1 + sum(
            (n - 1) * s for n, s in zip(t.shape, t.stride()))) * t.element_size() > t.untyped_storage().nbytes()
        values = None if past else t.detach().resolve_conj().resolve_neg().numpy()
    except Exception as exc:   # a tensor torch itself cannot turn into numbers (nested, functorch's)
        raise WireError(f"a torch tensor whose values cannot be read ({type(exc).__name__})") from None
    if past:                   # reading it would read memory that is not the tensor's
        raise WireError("a torch tensor whose view reaches past the end of its storage")
    return values


def describe_type(v):
    """The value's type by name, in at most a few hundred characters (a class may name itself)."""
    t = type(v)
    module, name = str(t.__module__)[:100], str(t.__qualname__)[:200]
    return name if module == "builtins" else f"{module}.{name}"


def encode(value):
    """Encode one message; raises WireError for anything the format does not carry."""
    enc = _Encoder()
    tree = enc.value(value)
    offsets, pos = [], 0
    for b in enc.blobs:
        offsets.append([pos, len(b)])
        pos += len(b)
    body = json.dumps({"v": tree, "o": offsets}, allow_nan=False).encode()
    if len(body) > MAX_HEADER:
        raise WireError("the value is too large to return")
    blob = b"".join(enc.blobs)
    return PREFIX.pack(MAGIC, len(body), len(blob)) + body + blob


class _Decoder:
    def __init__(self, offsets, blob, tensors):
        self.offsets = offsets
        self.blob = blob
        self.tensors = tensors
        self.items = 0

    def array(self, spec):
        if not (isinstance(spec, list) and len(spec) == 3):
            raise WireError("malformed array")
        dtype, shape, index = spec
        if dtype not in DTYPES or not isinstance(shape, list) or type(index) is not int:
            raise WireError("malformed array")
        if (len(shape) > MAX_DEPTH or not all(type(n) is int and 0 <= n for n in shape)
                or shape_size(shape) > MAX_ITEMS):
            raise WireError("malformed array shape")
        if not 0 <= index < len(self.offsets):
            raise WireError("array refers to a missing blob")
        start, length = self.offsets[index]
        size = math.prod(shape)
        self.items += size
        if self.items > MAX_ITEMS or size * np.dtype(dtype).itemsize != length:
            raise WireError("array size does not match its data")
        data = self.blob[start:start + length]
        if len(data) != length:
            raise WireError("array data is truncated")
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()

    def value(self, v, depth=0):
        if depth > MAX_DEPTH:
            raise WireError("message nested too deeply")
        self.items += 1
        if self.items > MAX_ITEMS:
            raise WireError("message has too many elements")
        if v is None or type(v) in (bool, float):
            return v
        if type(v) is int:
            if not -2**63 <= v < 2**64:
                raise WireError("an integer is too large")
            return v
        if type(v) is str:
            return string(v)
        if type(v) is list:
            if depth < MAX_DEPTH and LEAVES.issuperset(map(type, v)):     # a row: no item to check
                self.items += len(v)
                if self.items > MAX_ITEMS:
                    raise WireError("message has too many elements")
                return v
            return [self.value(x, depth + 1) for x in v]
        if type(v) is dict and len(v) == 1:
            (tag, body), = v.items()
            if tag == "$float" and body in ("nan", "inf", "-inf"):
                return float(body)
            if tag == "$tuple" and type(body) is list:
                return tuple(self.value(x, depth + 1) for x in body)
            if tag == "$dict" and type(body) is dict:
                return {string(k): self.value(x, depth + 1) for k, x in body.items()}
            if tag == "$array":
                return self.array(body)
            if tag == "$scalar":
                return self.array(body)[()]
            if tag == "$tensor":
                return self.tensors(self.array(body))
        raise WireError("malformed value")


def string(v):
    if len(v) > MAX_STR:
        raise WireError("a string is too long")
    return v


def decode_body(body, blob, tensors=Tensor):
    """Decode a message body and blob. `tensors` turns an array marked as a tensor into a value."""
    try:
        msg = json.loads(body)
    except (ValueError, RecursionError) as e:
        raise WireError("message header is not valid JSON") from e
    if type(msg) is not dict or type(msg.get("o")) is not list or "v" not in msg:
        raise WireError("malformed message")
    offsets = msg["o"]
    if not all(type(p) is list and len(p) == 2 and all(type(n) is int and n >= 0 for n in p)
               for p in offsets):
        raise WireError("malformed blob offsets")
    try:
        return _Decoder(offsets, blob, tensors).value(msg["v"])
    except WireError:
        raise
    except RecursionError as e:
        raise WireError("message nested too deeply") from e
    except Exception as e:     # bytes the checks above let through and numpy still refuses
        raise WireError(f"malformed message ({type(e).__name__})") from e


def read_prefix(data):
    """Parse a frame prefix: (header length, blob length); raises WireError if it is not one."""
    if len(data) != PREFIX.size:
        raise WireError("truncated frame")
    magic, hlen, blen = PREFIX.unpack(data)
    if magic != MAGIC:
        raise WireError("not a result frame")
    if hlen > MAX_HEADER or blen > MAX_BLOB:
        raise WireError("frame too large")
    return hlen, blen


def decode(frame, tensors=Tensor):
    """Decode one whole frame held in memory."""
    hlen, blen = read_prefix(frame[:PREFIX.size])
    if len(frame) != PREFIX.size + hlen + blen:
        raise WireError("frame length does not match its prefix")
    return decode_body(frame[PREFIX.size:PREFIX.size + hlen], frame[PREFIX.size + hlen:], tensors)


def read_message(stream, tensors=Tensor):
    """Read one framed message from a binary stream; None at a clean end of stream."""
    prefix = stream.read(PREFIX.size)
    if not prefix:
        return None
    if len(prefix) != PREFIX.size:
        raise WireError("truncated frame")
    hlen, blen = read_prefix(prefix)
    body = stream.read(hlen)
    blob = stream.read(blen)
    if len(body) != hlen or len(blob) != blen:
        raise WireError("truncated frame")
    return decode_body(body, blob, tensors)
