"""Run a notebook's worked-example cells in this process and store their outputs, as Jupyter would.

Printed text becomes a stream output, a final expression its value, and every matplotlib figure a
cell leaves open a PNG image (written without a timestamp, so a rebuild gives the same bytes).
Running in-process keeps `make build` quick: no kernel to start per lesson.
"""
import ast
import base64
import contextlib
import io
import warnings

import nbformat
import numpy as np


class CellError(ValueError):
    """A worked-example cell raised: the author's error, reported by `grader build`."""


def figures_as_outputs(plt):
    outputs = []
    for number in plt.get_fignums():
        fig = plt.figure(number)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", metadata={"Software": None}, bbox_inches="tight")
        outputs.append(nbformat.v4.new_output(
            "display_data", data={"image/png": base64.b64encode(buffer.getvalue()).decode(),
                                  "text/plain": f"<Figure size {fig.get_figwidth() * fig.dpi:.0f}x"
                                                f"{fig.get_figheight() * fig.dpi:.0f} with "
                                                f"{len(fig.axes)} Axes>"}))
    plt.close("all")
    return outputs


def drawn(value):
    """Whether a cell's final value is a plotting call's return (Jupyter would print its repr)."""
    first = value[0] if isinstance(value, (list, tuple)) and value else value
    return type(first).__module__.startswith("matplotlib")


def run_cell(source, namespace, label):
    """Execute one cell's source in `namespace`; returns (stdout text, repr of its final expression)."""
    tree = ast.parse(source, filename=label)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(tree, label, "exec"), namespace)
        value = eval(compile(ast.Expression(last.value), label, "eval"), namespace) if last else None
    return printed.getvalue(), value


def execute(cells, label):
    """Give every code cell of `cells` (nbformat cells, in order) its outputs and execution count."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    namespace = {"__name__": "__main__"}
    count = 0
    with np.printoptions(), matplotlib.rc_context(matplotlib.rcParamsDefault), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")      # a cell shows what it means to show by printing it
        plt.close("all")
        for cell in cells:
            if cell.cell_type != "code":
                continue
            count += 1
            try:
                text, value = run_cell(cell.source, namespace, f"{label}, cell {count}")
            except Exception as e:
                plt.close("all")
                raise CellError(f"{label}: code cell {count} raised {type(e).__name__}: {e}") from None
            cell.execution_count = count
            cell.outputs = []
            if text:
                cell.outputs.append(nbformat.v4.new_output("stream", name="stdout", text=text))
            cell.outputs += figures_as_outputs(plt)
            if value is not None and not drawn(value):
                cell.outputs.append(nbformat.v4.new_output(
                    "execute_result", data={"text/plain": repr(value)}, execution_count=count))
    return cells
