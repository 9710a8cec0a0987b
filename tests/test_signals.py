"""Every process the grader starts does what it must on SIGINT and SIGTERM, whatever it inherited.

A command started in the background by a shell without job control (`make test > log &` in a
script, CI) starts with SIGINT ignored, and an ignored signal stays ignored in every program it
runs; Python then installs no KeyboardInterrupt handler either. So the grader's command sets both
signals itself, and so do its warm workers and each job's child."""
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time

import psutil
import pytest

from conftest import FAST, GOOD_SOFTMAX
from grader.runner import run
from grader.runner.workers import Pool

SPIN = GOOD_SOFTMAX.replace("def softmax(x, axis=-1):\n", "def softmax(x, axis=-1):\n"
                            "    open({marker!r}, 'w').close()\n    while True:\n        pass\n")
DISPOSITIONS = GOOD_SOFTMAX.replace("def softmax(x, axis=-1):\n", """def softmax(x, axis=-1):
    status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
    raise ValueError(status["SigIgn"].strip() + " " + status["SigCgt"].strip())
""")


def ignoring(*signals):
    """Start a child with `signals` ignored, as a shell starts a background job."""
    def ignore():
        for sig in signals:
            signal.signal(sig, signal.SIG_IGN)
    return ignore


@contextlib.contextmanager
def inherited(*signals):
    """Processes started inside inherit `signals` ignored from this one."""
    before = {sig: signal.signal(sig, signal.SIG_IGN) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def masks(ignored, caught):
    """The signals set in /proc's SigIgn and SigCgt hex masks."""
    def members(mask):
        return {signal.Signals(n + 1) for n in range(64) if int(mask, 16) >> n & 1
                and n + 1 in signal.valid_signals()}
    return members(ignored), members(caught)


def dispositions(pid):
    status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status") if ":" in line)
    return masks(status["SigIgn"].strip(), status["SigCgt"].strip())


def until(proc, said):
    """Read `proc`'s output until a line holds `said`."""
    for line in proc.stdout:
        if said in line:
            return
    raise AssertionError(f"the command ended without saying {said!r}")


@pytest.mark.parametrize("command, sig, code", [
    ("check", signal.SIGINT, 130), ("watch", signal.SIGINT, 0),
    ("watch", signal.SIGTERM, -signal.SIGTERM)], ids=["check-sigint", "watch-sigint",
                                                       "watch-sigterm"])
def test_a_command_started_in_the_background_still_stops_on_its_signal(workbook, tmp_path,
                                                                        command, sig, code):
    marker = tmp_path / "spinning"
    if command == "check":      # interrupted while the learner's code runs
        (workbook / "exercises" / "01-softmax" / "solution.py").write_text(
            SPIN.format(marker=str(marker)))
    proc = subprocess.Popen([sys.executable, "-m", "grader", command, "01"], cwd=workbook,
                            env={**os.environ, "WORKBOOK_ROOT": str(workbook), "COLUMNS": "200"},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=ignoring(signal.SIGINT, signal.SIGTERM))
    try:
        if command == "check":
            while not marker.exists() and proc.poll() is None:
                time.sleep(0.05)
        else:
            until(proc, "Checked at")
        proc.send_signal(sig)
        output, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code, output


@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "sandboxed"])
def test_workers_and_job_children_set_their_signals_whatever_they_inherit(softmax_lesson,
                                                                          sandboxed):
    """A warm worker ignores SIGINT (Ctrl-C is its parent's to handle) and dies on SIGTERM; so does
    a job's child, even when the grader that started them inherited both ignored."""
    if sandboxed and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")
    with inherited(signal.SIGINT, signal.SIGTERM):
        pool = Pool(1, sandboxed=sandboxed, preload=("numpy",))
    with pool:
        pool.wait_ready()
        worker, = pool.workers
        worker_ignores, worker_catches = dispositions(worker.host_pid())
        job = pool.run(lambda w: run.run_job(w, DISPOSITIONS, softmax_lesson.cases[:1], FAST))
    error = job.outcomes[0].error
    assert error is not None and error["type"] == "ValueError", job.outcomes[0]
    child_ignores, child_catches = masks(*error["message"].split())
    for ignores, catches in ((worker_ignores, worker_catches), (child_ignores, child_catches)):
        assert signal.SIGINT in ignores
        assert signal.SIGTERM not in ignores | catches       # its default: it ends the process
