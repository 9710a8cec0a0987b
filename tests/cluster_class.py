"""A small class of lesson 01 with two clusters of unexplained wrong answers: cat and dan give
uniform weights (written two ways), fin and fay the square root of the softmax (two ways); gil's
bug is his alone, hal made a known mistake, joy is right. `LATER` is a third way of writing the
uniform bug, for a learner who hands in after the first run."""
import shutil

from conftest import grader
from mixed_class import MISTAKE, put, reference

START = "import numpy as np\n\ndef softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
SHIFTED = "    e = np.exp(x - x.max(axis=axis, keepdims=True))\n"
UNIFORM = ("cat", "dan")
ROOTED = ("fin", "fay")
FILES = {
    "cat": START + "    return np.full(x.shape, 1.0 / x.shape[axis])\n",
    "dan": START + "    return np.ones_like(x) / x.shape[axis]\n",
    "fin": START + SHIFTED + "    return np.sqrt(e / e.sum(axis=axis, keepdims=True))\n",
    "fay": START + SHIFTED + "    p = e / np.sum(e, axis=axis, keepdims=True)\n    return np.sqrt(p)\n",
    "gil": START + SHIFTED.replace("\n", " + 0.5\n") + "    return e / e.sum(axis=axis, keepdims=True)\n",
    "hal": MISTAKE,
    "joy": reference("01-softmax"),
}
LATER = ("eli", START + "    n = x.shape[axis]\n    return np.zeros_like(x) + 1 / n\n")


def write_class(cls, files=FILES):
    for learner, text in files.items():
        put(cls / learner / "01-softmax.py", text)


def grade(root, cls, out, *more):
    done = grader(root, "grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox",
                  "--jobs", "1", *more)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def graded_once(root, tmp_path_factory):
    """FILES graded into a gradebook, for a module's tests to copy: (class folder, output)."""
    cls, out = tmp_path_factory.mktemp("cls") / "class", tmp_path_factory.mktemp("cls") / "out"
    write_class(cls)
    grade(root, cls, out)
    return cls, out


def copied(graded, tmp_path):
    """A test's own copy of a graded class and its output."""
    cls, out = tmp_path / "class", tmp_path / "out"
    shutil.copytree(graded[0], cls)
    shutil.copytree(graded[1], out)
    return cls, out
