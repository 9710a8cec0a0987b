"""Notebooks: build each lesson's notebook, the answer and check cells a learner runs in it,
nbgrader export, and reading notebooks as submissions.

`%load_ext grader.notebooks` (the first code cell of every lesson notebook) gives the kernel the
`%%answer` cell magic and the `check` function.
"""


def load_ipython_extension(ipython):
    from . import kernel
    kernel.register(ipython)
