"""The Gradescope bundle where bubblewrap cannot start, as in Gradescope's containers (Docker's default
seccomp profile denies it user namespaces): run_autograder grades with each job as an unprivileged
user that cannot read the autograder's folders and opens no network socket, says so to instructors
only, and setup.sh, run in a scratch root against a local package folder, installs the bundle (no
editable install) and checks the isolation with `grader doctor --fallback`."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from mixed_class import MISTAKE
from test_gradescope import HOSTILE, bundle, run_autograder, unpack, valid  # noqa: F401

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the fallback switches users: root only")

FAILING_BWRAP = """\
#!/bin/sh
echo "bwrap: No permissions to create new namespace, likely because the kernel does not allow \
non-privileged user namespaces." >&2
exit 1
"""
NETWORK = """\
import socket
import numpy as np

def softmax(x, axis=-1):
    socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()   # raises where there is no network
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
"""
RIGHT = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()


@pytest.fixture
def open_dir():
    """A folder anyone may enter (pytest's own temporary folders are root's alone, which would
    hide what the grader must hide itself)."""
    path = Path(tempfile.mkdtemp(prefix="gradescope-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def no_bwrap(tmp_path):
    """PATH with a bwrap that fails as it does in a container that denies user namespaces."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    (bin_ / "bwrap").write_text(FAILING_BWRAP)
    (bin_ / "bwrap").chmod(0o755)
    return f"{bin_}:{os.environ['PATH']}"


def isolation(data):
    [test] = [t for t in data["tests"] if t["name"].startswith("Grading isolation")]
    return test


@pytest.mark.parametrize("files, score", [
    ({"solution.py": RIGHT}, 1),
    ({"01-softmax.py": MISTAKE}, "partial"),
    ({"01-softmax/solution.py": HOSTILE}, 0),
    ({"solution.py": NETWORK}, 0),
], ids=["right", "wrong", "reads-source", "opens-socket"])
def test_without_bubblewrap_jobs_run_as_an_unprivileged_user(bundle, open_dir, no_bwrap, files,
                                                             score):
    data = run_autograder(bundle, open_dir, files, {**os.environ, "PATH": no_bwrap,
                                                    "AUTOGRADER_PYTHON": sys.executable})
    if score == "partial":
        assert 0 < data["score"] < 1
    else:
        assert data["score"] == score
    said = isolation(data)
    assert said["visibility"] == "hidden" and said["max_score"] == 0
    assert "unprivileged user" in said["output"]
    assert "unprivileged user" not in data["output"]       # the students' own text


def test_with_bubblewrap_the_sandbox_is_named(bundle, open_dir):
    data = run_autograder(bundle, open_dir, {"solution.py": RIGHT})
    assert data["score"] == 1
    assert isolation(data)["output"].startswith("Isolation: bubblewrap's sandbox")


def test_doctor_accepts_the_fallback_only_when_asked(no_bwrap):
    env = {**os.environ, "PATH": no_bwrap, "WORKBOOK_ROOT": str(ROOT)}
    plain = subprocess.run([sys.executable, "-m", "grader", "doctor"], env=env,
                           capture_output=True, text=True)
    assert plain.returncode == 1 and "bubblewrap cannot create a sandbox" in plain.stdout
    fallback = subprocess.run([sys.executable, "-m", "grader", "doctor", "--fallback"], env=env,
                              capture_output=True, text=True)
    assert fallback.returncode == 0, fallback.stdout + fallback.stderr
    assert "unprivileged user" in fallback.stdout


@pytest.fixture(scope="module")
def packages(tmp_path_factory, bundle):
    """A local package folder holding the bundle's requirements (wheels only), fetched once."""
    folder = tmp_path_factory.mktemp("packages")
    with zipfile.ZipFile(bundle) as zf:
        (folder / "requirements.txt").write_bytes(zf.read("requirements.txt"))
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--only-binary",
                           ":all:", "-d", str(folder), "-r", str(folder / "requirements.txt")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def shim(folder, name, text):
    (folder / name).write_text(text)
    (folder / name).chmod(0o755)


@pytest.mark.slow
def test_setup_installs_the_bundle_and_run_autograder_grades(bundle, open_dir, no_bwrap, packages):
    """setup.sh as Gradescope runs it on Ubuntu 22.04, in a scratch root: apt-get recorded, not
    run; the system's python3 is 3.10 (so python3.11 is installed and used); pip sees only the
    local package folder. (On 24.04 python3 is new enough: the same steps with python3.)"""
    bin_ = open_dir / "bin"
    bin_.mkdir()
    python = os.path.realpath(sys._base_executable)
    shim(bin_, "apt-get", f'#!/bin/sh\necho "$@" >> {open_dir}/apt.log\n')
    shim(bin_, "python3", "#!/bin/sh\nexit 1\n")      # a Python older than 3.11
    shim(bin_, "python3.11", f'#!/bin/sh\nexec {python} "$@"\n')
    root, venv = open_dir / "autograder", open_dir / "venv"
    unpack(bundle, root)
    env = {"PATH": f"{bin_}:{no_bwrap}", "HOME": str(open_dir), "AUTOGRADER_VENV": str(venv),
           "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(packages), "PIP_CONFIG_FILE": os.devnull,
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run(["bash", str(root / "source" / "setup.sh")], cwd=root / "source",
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "unprivileged user" in done.stdout        # grader doctor --fallback ran
    apt = (open_dir / "apt.log").read_text()
    assert "bubblewrap" in apt and "python3.11 python3.11-venv" in apt
    installed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list"],
                               capture_output=True, text=True, env=env).stdout.lower()
    assert "numpy" in installed and "transformer-workbook-grader" not in installed
    (root / "submission" / "solution.py").write_text(RIGHT)
    ran = subprocess.run([str(root / "source" / "run_autograder")], capture_output=True,
                         text=True, timeout=300, env={**env, "AUTOGRADER_ROOT": str(root)})
    assert ran.returncode == 0, ran.stdout + ran.stderr
    data = valid(json.loads((root / "results" / "results.json").read_text()))
    assert data["score"] == 1 and "unprivileged user" in isolation(data)["output"]
