"""Read a percent-format script (`# %%` code cells, `# %% [markdown]` prose cells) as cells.

Lesson authors write a lesson's worked example and figures this way (`solutions/NN-slug/notebook.py`),
and the capstone is one such script; any editor that knows Jupytext's percent format shows the cells.
"""
import re

MARKER = re.compile(r"^# %%(.*)$")


def cells(text):
    """[(kind, source)] where kind is "markdown" or "code"; text before the first marker is dropped.

    A markdown cell's lines lose their leading "# " (or a lone "#"); a code cell keeps its text.
    Blank lines around a cell are trimmed and empty cells are skipped.
    """
    found, kind, lines = [], None, []

    def flush():
        if kind is None:
            return
        body = [re.sub(r"^# ?", "", l) for l in lines] if kind == "markdown" else lines
        source = "\n".join(body).strip("\n")
        if source.strip():
            found.append((kind, source))

    for line in text.splitlines():
        m = MARKER.match(line)
        if m:
            flush()
            kind, lines = ("markdown" if "[markdown]" in m.group(1) else "code"), []
        elif kind is not None:
            lines.append(line)
    flush()
    return found
