"""Shared fixtures: a fresh copy of the workbook (stubs generated anew), and a CLI runner; and the
rules every test runs under: no test changes a fixture shared between tests, none depends on how
busy the machine is, and none on the signal dispositions the suite inherited."""
import inspect
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

# One thread per library, in this process and every process a test starts (commands, kernels,
# nbgrader, the capstone), as in the grader's children: two test workers share two cores, and on
# a busy machine threads that wait for each other spin on cores others need (on a loaded machine,
# the capstone's training took seven times longer with two threads than with one).
os.environ.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
# Every check a test runs is checked in its own process: no warm check server is started and left
# behind (tests/test_check_server.py starts its own, and ends them).
os.environ["WORKBOOK_CHECK_IDLE"] = "0"

import pytest
from hypothesis import HealthCheck, settings

import fingerprint
from grader.lessons import lesson, roadmap

from grader.checkserver import client as check_client, place as check_place
from grader.runner import run
from grader.runner.workers import Pool

ROOT = Path(__file__).resolve().parent.parent
FAST = run.Limits(case_seconds=2, import_seconds=10, job_seconds=40)
GOOD_SOFTMAX = """\
import numpy as np

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
"""


# Hypothesis's per-example deadline and its too-slow health check measure the machine, not the code.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


@pytest.fixture(scope="session")
def built_workbook(tmp_path_factory):
    """A workbook built once: the lesson sources, stubs generated from them, and the notebooks (up
    to date, so the build leaves them as they are). Tests get copies (`workbook`), never this."""
    root = tmp_path_factory.mktemp("built") / "workbook"
    shutil.copytree(ROOT / "solutions", root / "solutions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "notebooks", root / "notebooks")   # built from the same sources
    result = grader(root, "build")
    assert result.returncode == 0, result.stdout + result.stderr
    return root


@pytest.fixture(scope="module")
def lesson_sources(tmp_path_factory):
    """A workbook holding only the lessons' sources (no stubs, no notebooks): all class grading
    reads. Tests may read it, never change it."""
    root = tmp_path_factory.mktemp("sources") / "workbook"
    shutil.copytree(ROOT / "solutions", root / "solutions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture
def workbook(built_workbook, tmp_path):
    """A workbook of this test's own, with stubs generated afresh (a copy of one build: the build
    gives the same files every time)."""
    root = tmp_path / "workbook"
    shutil.copytree(built_workbook, root, symlinks=True)
    return root


def grader(root, *args, timeout=900):
    """Run the `grader` command as a learner would, on the workbook at `root`."""
    env = {**os.environ, "WORKBOOK_ROOT": str(root), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=root)


def typed(root, command, timeout=300):
    """Run `command` as a learner types it in the workbook at `root` (its own copy): a shell in the
    workbook's folder, with the project's Makefile and `.venv`. `make` is told the venv is set up
    (STAMP empty), so it runs the target's recipe as written and never installs anything."""
    root = Path(root)
    if not (root / "Makefile").exists():
        shutil.copyfile(ROOT / "Makefile", root / "Makefile")
    if not (root / ".venv").exists():
        (root / ".venv").symlink_to(ROOT / ".venv")
    env = {k: v for k, v in os.environ.items()     # a learner's shell is no make's child
           if k not in ("MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
    env.update({"WORKBOOK_ROOT": str(root), "COLUMNS": "200", "MAKEFLAGS": " -- STAMP="})
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=root)


def alive(pid):
    """True while process `pid` runs (a zombie is not running)."""
    try:
        os.kill(pid, 0)
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (ProcessLookupError, OSError):
        return False


def descendants(pid):
    """Every process below `pid`."""
    found, level = [], [pid]
    while level:
        kids = []
        for p in level:
            try:
                kids += map(int, Path(f"/proc/{p}/task/{p}/children").read_text().split())
            except OSError:
                pass
        found += kids
        level = kids
    return found


def wait_gone(pids, seconds=60):
    """Wait for the processes `pids` to end; those still running after `seconds`."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


@pytest.fixture
def servers():
    """Workbook roots whose warm check servers the test may start; each is stopped (killed if need be) at the
    end, its workers with it, and the test fails if any process was left behind."""
    roots = []
    yield roots
    left = []
    for root in roots:
        pid_file = Path(root) / check_place.FOLDER / check_place.PID
        pids = [int(pid_file.read_text())] if pid_file.exists() else []
        pids += [d for p in pids for d in descendants(p)]
        check_client.stop(root)
        for pid in wait_gone(pids, 10):
            os.kill(pid, 9)
            left.append(pid)
    assert not left, f"processes left running: {left}"


@pytest.fixture(scope="session")
def softmax_lesson():
    return lesson.load(roadmap.load(ROOT), "01")


@pytest.fixture(scope="session")
def pool():
    """One warm worker (numpy and torch imported once) for the tests that grade in-process."""
    with Pool() as warm:
        yield warm


@pytest.fixture
def run_grader():
    return grader


def pytest_configure(config):
    """Ctrl-C and SIGTERM act as usual in the suite's processes and in every process a test starts
    (kernels, nbgrader, Dask, the grader's commands), whatever the suite inherited: a suite started
    in the background (`make test > log &`) starts with SIGINT ignored, and an ignored signal stays
    ignored across fork and exec. tests/test_signals.py starts the grader with both ignored."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Under `--dist loadgroup` (`make test`), the tests of one xdist_group run on one worker, so
    the fixtures they share are made once. pytest-xdist marks them by a suffix of their node id,
    which pytest 9.2 silently drops (pytest-xdist issue 1386): then each worker would make those
    fixtures again, and tests meant to run one at a time would run side by side. Say so."""
    if getattr(config.option, "loadgroup", False):
        lost = [item.nodeid for item in items
                if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
        if lost:
            raise pytest.UsageError(f"pytest-xdist did not group {len(lost)} tests marked with "
                                    f"xdist_group (e.g. {lost[0]}): this pytest and pytest-xdist "
                                    "do not work together; install the versions requirements.txt pins")


# ---- no test changes a fixture shared between tests ----------------------------------------------

SHARED = {}     # every module- or session-scoped fixture of ours now set up: definition -> value
TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef, request):
    """Keep the shared fixtures the tests define (pytest's own, such as `tmp_path_factory`, whose
    folder holds every test's `tmp_path`, are not what a test shares)."""
    value = yield
    if fixturedef.scope != "function" and TESTS in Path(inspect.getfile(fixturedef.func)).parents:
        SHARED[fixturedef] = value
    return value


def pytest_fixture_post_finalizer(fixturedef, request):
    SHARED.pop(fixturedef, None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Fail a test that changed what a shared fixture holds (its files, arrays or data): every
    later test that uses the fixture would see the change. Such a test needs its own copy."""
    before = {d: fingerprint.fingerprint(v) for d, v in SHARED.items()}
    try:
        return (yield)
    finally:
        changed = []
        for definition, seen in before.items():
            if definition in SHARED:
                now = fingerprint.fingerprint(SHARED[definition])
                if now != seen:
                    places = fingerprint.changes(seen, now)
                    changed.append(f"`{definition.argname}` ({definition.scope} scope): " + ", ".join(
                        f"{place} {how}" for place, how in places[:8])
                        + (f" and {len(places) - 8} more" if len(places) > 8 else ""))
        if changed:
            pytest.fail("this test changed a fixture shared between tests, which every later test "
                        f"using it would see: {'; '.join(changed)}. Give the test its own copy.",
                        pytrace=False)
