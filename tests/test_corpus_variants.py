"""A corpus answer may hold only what its learner wrote differently from another answer
(`# varies: right_x.py` on its second line): the file graded is that answer with its definitions in
place of the other's."""
import ast

import pytest

from grader.lessons.corpus import CorpusError, answer_source

BASE = '''"""A right answer."""
import numpy as np

SCALE = 2.0


def helper(x):
    return x * SCALE


@staticmethod
def decorated(x):
    return x


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()
'''


def write(folder, name, text):
    path = folder / name
    path.write_text(text)
    return path


def test_a_variant_replaces_the_definitions_it_holds_and_adds_the_rest(tmp_path):
    write(tmp_path, "right_a.py", BASE)
    variant = write(tmp_path, "wrong_b.py", (
        "# mistake: no shift\n# varies: right_a.py\n\n"
        "@staticmethod\ndef decorated(x):\n    return -x\n\n\n"
        "def softmax(x):\n    e = np.exp(x)\n    return e / e.sum()\n\n\n"
        "def extra():\n    return 1\n"))
    whole = answer_source(variant)
    assert whole.startswith("# mistake: no shift\n")
    names = [getattr(n, "name", None) for n in ast.parse(whole).body]
    assert names == [None, None, None, "helper", "decorated", "softmax", "extra"]
    assert "np.exp(x - x.max())" not in whole and "e = np.exp(x)\n" in whole
    assert "return -x" in whole and "return x\n" not in whole.split("def decorated")[1].split("def softmax")[0]
    assert whole.count("@staticmethod") == 1 and "SCALE = 2.0" in whole


def test_a_plain_answer_is_itself(tmp_path):
    path = write(tmp_path, "right_a.py", BASE)
    assert answer_source(path) == BASE


@pytest.mark.parametrize("variant, why", [
    ("# m\n# varies: right_missing.py\ndef f():\n    pass\n", "not another answer"),
    ("# m\n# varies: wrong_self.py\ndef f():\n    pass\n", "not another answer"),
    ("# m\n# varies: right_a.py\nimport os\n", "only definitions"),
    ("# m\n# varies: wrong_chain.py\ndef f():\n    pass\n", "varies another"),
])
def test_a_variant_that_cannot_stand_for_a_whole_file_is_refused(tmp_path, variant, why):
    write(tmp_path, "right_a.py", BASE)
    write(tmp_path, "wrong_chain.py", "# m\n# varies: right_a.py\ndef f():\n    pass\n")
    path = write(tmp_path, "wrong_self.py", variant)
    with pytest.raises(CorpusError, match=why):
        answer_source(path)
