"""Read a notebook as a submission: the code of its answer cells.

An answer cell is one a lesson notebook runs with `%%answer` (the magic line is dropped), or one
nbgrader marks as a solution cell. Problems come back as ValueError with a learner-facing reason.
"""
import json


MAX_NOTEBOOK = 16 << 20


def is_answer(cell):
    if cell.get("cell_type") != "code":
        return False
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else source
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return source.lstrip().startswith("%%answer") or bool(meta.get("solution") and not meta.get("grade"))


def answer_source(path):
    """The Python source of the answer cells of the notebook at `path`, in order."""
    if path.stat().st_size > MAX_NOTEBOOK:
        raise ValueError(f"{path.name} is larger than {MAX_NOTEBOOK >> 20} MiB")
    try:
        nb = json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError):
        raise ValueError(f"{path.name} is not a notebook: it is not valid JSON") from None
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise ValueError(f"{path.name} is not a notebook: it has no list of cells")
    parts = []
    for cell in filter(is_answer, cells):
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
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
