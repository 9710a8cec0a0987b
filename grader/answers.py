"""A learner's answer as source text, from a Python file or from a notebook's answer cells.

A Python file is read as the interpreter reads it (`tokenize.open`: a UTF-8 byte-order mark, a PEP
263 coding line, CRLF line ends). A notebook's answer cells are those a lesson notebook runs with
`%%answer` (the magic line is dropped), or those nbgrader marks as solution cells. Both are bounded
in size; a problem comes back as ValueError with a learner-facing reason.
"""
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


def notebook_cells(path):
    """The cells of the notebook at `path` (JSON objects)."""
    if path.stat().st_size > MAX_NOTEBOOK:
        raise ValueError(f"{path.name} is larger than {MAX_NOTEBOOK >> 20} MiB")
    try:
        nb = json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ValueError(f"{path.name} is not a notebook: it is not valid JSON") from None
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise ValueError(f"{path.name} is not a notebook: it has no list of cells")
    return cells


def notebook_source(path):
    """The Python source of the answer cells of the notebook at `path`, in order."""
    parts = []
    for cell in filter(is_answer, notebook_cells(path)):
        source = cell_text(cell).lstrip()
        if source.startswith("%%answer"):
            source = source.split("\n", 1)[1] if "\n" in source else ""
        parts.append(source)
    if not parts:
        raise ValueError(f"{path.name} has no answer cell (a cell starting with %%answer, or "
                         "nbgrader's solution cell): the notebook's code cannot be graded")
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def python_source(path):
    """A Python file's text, decoded as the interpreter decodes it."""
    if path.stat().st_size > MAX_SOURCE:
        raise ValueError(f"{path.name} is larger than {MAX_SOURCE // 1024} KiB")
    try:
        with tokenize.open(path) as f:
            return f.read()
    except (UnicodeDecodeError, SyntaxError, LookupError):
        raise ValueError(f"{path.name} is not text in the encoding it declares (UTF-8 unless a "
                         "coding line says otherwise)") from None


def read_answer(path):
    """The source of the answer at `path` (a .py file, or a notebook's answer cells)."""
    source = notebook_source(path) if path.suffix == ".ipynb" else python_source(path)
    if len(source) > MAX_SOURCE:
        raise ValueError(f"the answer cells of {path.name} hold more than "
                         f"{MAX_SOURCE // 1024} KiB of code")
    return source
