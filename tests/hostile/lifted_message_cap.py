"""Hostile: lifts the child's own caps on messages and printed text (they are the module globals of
the grader's child-side code, in this very process), then raises on every case a matrix-product
error with a 5,000-digit size (past Python's 4,300-digit limit of int()) and a 100,000-character
tail of blanks after "(1", which makes a backtracking pattern run for hours."""
import sys

for name, module in list(sys.modules.items()):
    if not name.startswith("grader"):       # other libraries: a numpy-only lesson refuses them
        continue
    for cap in ("MAX_MESSAGE", "MAX_CAPTURE", "MAX_STR"):
        if isinstance(getattr(module, cap, None), int):
            setattr(module, cap, 10**9)


def softmax(x, axis=-1):
    print("x" * 500_000)
    raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (" + "9" * 5000 + "x2 and 3x4) (1"
                       + " " * 100_000)
