"""Read a notebook as a submission: the code of its answer cells.

An answer cell is one a lesson notebook runs with `%%answer` (the magic line is dropped), or one
nbgrader marks as a solution cell. Problems come back as ValueError with a learner-facing reason.
"""
import json


MAX_NOTEBOOK = 16 << 20


def cell_source(cell, number, name):
    """A cell's source as text; ValueError when it is neither text nor a list of texts."""
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    if isinstance(source, str):
        return source
    raise ValueError(f"{name} is not a notebook the grader can read: cell {number}'s source is "
                     f"{type(source).__name__}, not text")


def is_answer(cell, source):
    meta = cell.get("metadata")
    meta = meta.get("nbgrader") if isinstance(meta, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    return source.lstrip().startswith("%%answer") or bool(meta.get("solution") and not meta.get("grade"))


def answer_source(path, data=None):
    """The Python source of the answer cells of the notebook at `path` (or in `data`, its bytes
    already read), in order; ValueError, with the reason, for anything that is not such a notebook."""
    if data is None:
        if path.stat().st_size > MAX_NOTEBOOK:
            raise ValueError(f"{path.name} is larger than {MAX_NOTEBOOK >> 20} MiB")
        data = path.read_bytes()
    if len(data) > MAX_NOTEBOOK:
        raise ValueError(f"{path.name} is larger than {MAX_NOTEBOOK >> 20} MiB")
    try:
        nb = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise ValueError(f"{path.name} is not a notebook: it is not valid JSON") from None
    except RecursionError:
        raise ValueError(f"{path.name} is not a notebook: its JSON is nested too deeply") from None
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise ValueError(f"{path.name} is not a notebook: it has no list of cells")
    parts = []
    for number, cell in enumerate(cells, 1):
        if cell.get("cell_type") != "code":
            continue
        source = cell_source(cell, number, path.name)
        if not is_answer(cell, source):
            continue
        if source.lstrip().startswith("%%answer"):
            source = source.lstrip().split("\n", 1)[1] if "\n" in source.lstrip() else ""
        parts.append(source)
    if not parts:
        raise ValueError(f"{path.name} has no answer cell (a cell starting with %%answer, or "
                         "nbgrader's solution cell): the notebook's code cannot be graded")
    return "\n\n".join(p.rstrip("\n") for p in parts) + "\n"


def notebook_file(folder, lesson):
    """The learner's notebook for `lesson` in `folder`: `NN-slug.ipynb`, or, for a learner's folder
    in nbgrader's `submitted/`, inside one of its assignment folders
    (`submitted/<learner>/<assignment>/NN-slug.ipynb`); None if there is none."""
    name = f"{lesson.id}.ipynb"
    if (folder / name).is_file():
        return folder / name
    if folder.resolve().parent.name != "submitted":
        return None
    return next((p for p in sorted(folder.glob(f"*/{name}")) if p.is_file()), None)


def learners_folder(root):
    """The folder that holds one folder per learner: an nbgrader course's `submitted/`, or `root`."""
    submitted = root / "submitted"
    return submitted if submitted.is_dir() and (root / "nbgrader_config.py").is_file() else root
