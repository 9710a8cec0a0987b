"""A class of a dozen learners as a real class hands work in: every layout, mistakes, crashes, an
endless loop and a learner who tries to read the hidden cases back through their feedback."""
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MISTAKE = """\
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
"""
LEAKY = """\
import numpy as np

def softmax(x, axis=-1):
    print("my input is", repr(np.asarray(x).tolist()))
    if np.asarray(x).size % 2:
        raise ValueError("input was " + repr(np.asarray(x).tolist()))
    return x
"""
ENDLESS = "def softmax(x, axis=-1):\n    while True:\n        pass\n"
CRASH = "import os\n\ndef softmax(x, axis=-1):\n    os._exit(3)\n"


def reference(lesson):
    return (ROOT / "solutions" / lesson / "solution.py").read_text()


def put(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def make_mixed_class(cls, stubs):
    """Write the class under `cls`; `stubs` is a workbook folder with freshly generated exercises/."""
    soft, att = reference("01-softmax"), reference("02-attention")
    put(cls / "alice" / "01-softmax" / "solution.py", soft)
    put(cls / "alice" / "02-attention" / "solution.py", att)
    shutil.copytree(stubs / "exercises" / "01-softmax", cls / "bob" / "exercises" / "01-softmax")
    put(cls / "bob" / "exercises" / "02-attention" / "solution.py", att)
    put(cls / "carol" / "01-softmax.py", MISTAKE)
    (cls / "dave").mkdir(parents=True)
    (cls / "eve" / "01-softmax").mkdir(parents=True)
    (cls / "eve" / "01-softmax" / "solution.py").symlink_to(ROOT / "solutions" / "01-softmax"
                                                            / "solution.py")
    clone = cls / "frank" / "transformer-workbook"
    shutil.copytree(stubs / "exercises", clone / "exercises")
    put(clone / "exercises" / "01-softmax" / "solution.py", soft)
    shutil.copytree(ROOT / "solutions" / "01-softmax", clone / "solutions" / "01-softmax")
    put(clone / "Makefile", "check:\n")
    put(cls / "grace" / "01-softmax" / "Solution.py", MISTAKE)
    put(cls / "heidi" / "01_softmax.py", soft)
    put(cls / "ivan" / "solution.py", soft)
    put(cls / "judy" / "softmax.py", soft)
    put(cls / "judy" / "attention.py", att)
    put(cls / "mallory" / "01-softmax" / "solution.py", LEAKY)
    put(cls / "nick" / "01-softmax" / "solution.py", soft)
    put(cls / "nick" / "01-softmax.py", MISTAKE)
    (cls / "nick" / "02-attention.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    put(cls / "oscar" / "01-softmax" / "solution.py", ENDLESS)
    put(cls / "oscar" / "02-attention" / "solution.py", CRASH.replace("softmax", "attention"))
    return cls
