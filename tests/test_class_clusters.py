"""The class report groups the wrong answers no known mistake or likely cause explains by what they
output on every case: a group is most likely one bug, worth a note in the lesson's mistakes."""
import re

from conftest import grader
from mixed_class import put, reference

START = "import numpy as np\n\ndef softmax(x, axis=-1):\n    x = np.asarray(x, dtype=float)\n"
SHIFTED = "    e = np.exp(x - x.max(axis=axis, keepdims=True))\n"
FILES = {   # one bug written three ways (uniform weights), two bugs alone, a known mistake twice
    "cat": START + "    return np.full(x.shape, 1.0 / x.shape[axis])\n",
    "dan": START + "    return np.ones_like(x) / x.shape[axis]\n",
    "eli": START + "    n = x.shape[axis]\n    return np.zeros_like(x) + 1 / n\n",
    "fin": START + SHIFTED + "    return np.sqrt(e / e.sum(axis=axis, keepdims=True))\n",
    "gil": START + SHIFTED.replace("\n", " + 0.5\n") + "    return e / e.sum(axis=axis, keepdims=True)\n",
    "hal": START + "    e = np.exp(x)\n    return e / e.sum(axis=axis, keepdims=True)\n",
    "ian": START + "    e = np.exp(x)\n    return e / np.sum(e, axis=axis, keepdims=True)\n",
    "joy": reference("01-softmax"),
}


def test_unexplained_wrong_answers_are_grouped_by_their_outputs(lesson_sources, tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    for learner, text in FILES.items():
        put(cls / learner / "01-softmax.py", text)
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01", "--out", str(out),
                  "--no-sandbox", "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert grader(lesson_sources, "report", "--gradebook", str(out)).returncode == 0
    page = (out / "report.html").read_text()
    rows = re.findall(r'<tr data-cluster="01-softmax" data-id="cluster:[0-9a-f]{8}"><td><code>'
                      r"cluster:[0-9a-f]{8}</code></td><td>(\d+)</td><td>(.*?)</td>"
                      r"<td><code>(.*?)</code></td><td>(.*?)</td></tr>", page)
    assert [(n, who) for n, who, _, _ in rows] == [("3", "cat, dan, eli")]
    assert rows[0][2].endswith("cat/01-softmax.py") and "got 0.333333" in rows[0][3]
    assert re.search(r'data-alone="01-softmax">2 more unexplained wrong answers', page)
    assert "no-max-shift" in page         # hal and ian: diagnosed, so in no group
