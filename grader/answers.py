"""A learner's answer as source text, from a Python file or from a notebook's answer cells.

A Python file is read as the interpreter reads it (`tokenize.open`: a UTF-8 byte-order mark, a PEP
263 coding line, CRLF line ends). A notebook's answer cells are those a lesson notebook runs with
`%%answer` (the magic line is dropped), or those nbgrader marks as solution cells. Both are bounded
in size; a problem comes back as ValueError with a learner-facing reason.
"""
import io
import json
import tokenize

MAX_SOURCE = 1 << 20
MAX_NOTEBOOK = 16 << 20


def cell_text(cell):
    """A cell's source as one string, whatever its JSON holds there."""
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(s for s in source if isinstance(s, str))
    return source if isinstance(source, str) else ""


def is_answer(cell):
    if not isinstance(cell, dict) or cell.get("cell_type") != "code":
        return False
    meta = cell.get("metadata")
    meta = meta.get("nbgrader") if isinstance(meta, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    return (cell_text(cell).lstrip().startswith("%%answer")
            or bool(meta.get("solution") and not meta.get("grade")))


def file_bytes(path, data, most):
    """`data`, or the file at `path`'s bytes, if no larger than `most` (else ValueError)."""
    size = path.stat().st_size if data is None else len(data)
    if size > most:
        raise ValueError(f"{path.name} is larger than {most >> 10:,} KiB")
    return path.read_bytes() if data is None else data


def notebook_cells(path, data=None):
    """The cells of the notebook at `path` (JSON objects); `data`: its bytes, already read."""
    try:
        nb = json.loads(file_bytes(path, data, MAX_NOTEBOOK))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ValueError(f"{path.name} is not a notebook: it is not valid JSON") from None
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise ValueError(f"{path.name} is not a notebook: it has no list of cells")
    return cells


def notebook_source(path, data=None):
    """The Python source of the answer cells of the notebook at `path`, in order."""
    parts = []
    for cell in filter(is_answer, notebook_cells(path, data)):
        source = cell_text(cell).lstrip()
        if source.startswith("%%answer"):
            source = source.split("\n", 1)[1] if "\n" in source else ""
        parts.append(source)
    if not parts:
        raise ValueError(f"{path.name} has no answer cell (a cell starting with %%answer, or "
                         "nbgrader's solution cell): the notebook's code cannot be graded")
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def python_source(path, data=None):
    """A Python file's text, decoded as the interpreter decodes it (its coding line or UTF-8, a
    byte-order mark dropped, line ends made newlines)."""
    data = file_bytes(path, data, MAX_SOURCE)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")
    except (UnicodeDecodeError, SyntaxError, LookupError):
        raise ValueError(f"{path.name} is not text in the encoding it declares (UTF-8 unless a "
                         "coding line says otherwise)") from None


def read_answer(path, data=None):
    """The source of the answer at `path` (a .py file, or a notebook's answer cells); `data`: the
    file's bytes, already read (`path` then only names it)."""
    source = (notebook_source if path.suffix.lower() == ".ipynb" else python_source)(path, data)
    if len(source) > MAX_SOURCE:
        raise ValueError(f"the answer cells of {path.name} hold more than "
                         f"{MAX_SOURCE // 1024} KiB of code")
    return source
