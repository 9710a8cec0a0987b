"""The suite's guard: a test that changes what a shared (module- or session-scoped) fixture holds
fails, naming the fixture and the place; a test that changes its own copy, or only reads, passes."""
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import fingerprint

HERE = Path(__file__).parent
INNER = '''
import shutil
import numpy as np
import pytest


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    folder = tmp_path_factory.mktemp("shared")
    (folder / "alice").mkdir()
    (folder / "alice" / "solution.py").write_text("def softmax(x):\\n    return x\\n")
    return folder, np.zeros(3)


def test_reads(shared):
    assert (shared[0] / "alice" / "solution.py").read_text()


def test_overwrites_a_shared_file(shared):
    shutil.copy(__file__, shared[0] / "alice" / "solution.py")


def test_changes_a_shared_array(shared):
    shared[1][0] = 1


def test_changes_its_own_copy(shared, tmp_path):
    shutil.copytree(shared[0], tmp_path / "copy")
    (tmp_path / "copy" / "alice" / "solution.py").write_text("changed")


def test_reads_again(shared):
    assert (shared[0] / "alice").is_dir()
'''


def test_a_test_that_changes_a_shared_fixture_fails_and_says_where(tmp_path):
    for name in ("conftest.py", "fingerprint.py"):
        shutil.copy(HERE / name, tmp_path / name)
    (tmp_path / "test_inner.py").write_text(INNER)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", str(tmp_path / "test_inner.py")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    said = done.stdout
    outcomes = {line.split("::")[-1].split(" ")[0]: line.split(" ")[0]
                for line in said.splitlines() if "test_inner.py::" in line}
    assert outcomes == {"test_reads": "PASSED", "test_overwrites_a_shared_file": "FAILED",
                        "test_changes_a_shared_array": "FAILED",
                        "test_changes_its_own_copy": "PASSED", "test_reads_again": "PASSED"}, said
    assert "changed a fixture shared between tests" in said
    assert "`shared` (module scope)" in said and "/alice/solution.py changed" in said


def test_a_fingerprint_sees_every_kind_of_change(tmp_path):
    (tmp_path / "a").write_text("x")
    value = {"folder": tmp_path, "array": np.arange(3), "items": [1, "two"]}
    before = fingerprint.fingerprint(value)
    assert fingerprint.fingerprint(value) == before          # reading changes nothing
    (tmp_path / "a").chmod(0o600)
    (tmp_path / "b").write_text("y")
    value["array"][1] = 7
    value["items"].append(3)
    places = dict(fingerprint.changes(before, fingerprint.fingerprint(value)))
    assert places[f"['folder']<{tmp_path}>/a"] == "changed"
    assert places[f"['folder']<{tmp_path}>/b"] == "added"
    assert places["['array']"] == "changed" and places["['items'][2]"] == "added"
