"""Warm workers: a fresh child per job, nothing shared between jobs, every process cleaned up,
and a worker that dies is replaced without losing the job."""
import os
import textwrap
import time
from pathlib import Path

from conftest import FAST, GOOD_SOFTMAX
from grader.judge.grade import grade_file
from grader.runner.workers import Pool


def grade(pool, softmax_lesson, tmp_path, prelude, name="solution.py"):
    """Grade a correct softmax whose file first runs `prelude`."""
    path = tmp_path / name
    path.write_text("import os, sys, time\nimport numpy as np\n" + textwrap.dedent(prelude)
                    + GOOD_SOFTMAX)
    return grade_file(softmax_lesson, path, pool, FAST)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_daemon_that_called_setsid_dies_with_its_job(pool, softmax_lesson, tmp_path):
    pidfile = tmp_path / "daemon.pid"
    result = grade(pool, softmax_lesson, tmp_path, f"""
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                open({str(pidfile)!r}, "w").write(str(os.getpid()))
                time.sleep(600)
            os._exit(0)
        time.sleep(0.2)
        """)
    assert result.passed
    pid = int(pidfile.read_text())
    assert not alive(pid)


def test_jobs_on_one_worker_share_no_state(softmax_lesson, tmp_path):
    with Pool(1, preload=("numpy",)) as single:
        grade(single, softmax_lesson, tmp_path, "np.leaked = True\nnp.exp = np.sqrt\n", "a.py")
        result = grade(single, softmax_lesson, tmp_path, """
            assert not hasattr(np, "leaked"), "a previous job's change is visible"
            """, "b.py")
    assert result.error is None and result.passed


def test_children_run_torch_on_one_thread(pool, softmax_lesson, tmp_path):
    result = grade(pool, softmax_lesson, tmp_path, """
        import torch
        assert torch.get_num_threads() == 1, f"{torch.get_num_threads()} threads"
        """)   # lesson 01 forbids torch (a broken rule), but every case runs and passes
    assert result.error is None and all(r.verdict.passed for r in result.cases)


def test_a_worker_killed_once_is_replaced_and_the_job_retried(softmax_lesson, tmp_path):
    marker = tmp_path / "killed-once"
    with Pool(1, preload=("numpy",)) as single:
        result = grade(single, softmax_lesson, tmp_path, f"""
            if not os.path.exists({str(marker)!r}):
                open({str(marker)!r}, "w").close()
                os.kill(os.getppid(), 9)
                time.sleep(5)
            """)
    assert marker.exists() and result.passed


def test_a_worker_killed_every_time_is_that_file_s_crash(softmax_lesson, tmp_path):
    with Pool(1, preload=("numpy",)) as single:
        result = grade(single, softmax_lesson, tmp_path, "os.kill(os.getppid(), 9)\ntime.sleep(5)\n")
        after = grade(single, softmax_lesson, tmp_path, "", "good.py")
    assert result.score == 0
    assert {r.verdict.message for r in result.cases} == {
        "crashed: the grading worker died twice while running this file"}
    assert after.passed


def test_a_worker_s_children_are_gone_after_each_job(softmax_lesson, tmp_path):
    with Pool(1, preload=("numpy",)) as single:
        worker, = single.workers
        grade(single, softmax_lesson, tmp_path, """
            for _ in range(3):
                if os.fork() == 0:
                    time.sleep(600)
            """)
        deadline = time.monotonic() + 120      # killed at once; reaped as soon as the load allows
        while children_of(worker.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert children_of(worker.proc.pid) == []


def children_of(pid):
    kids = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except (OSError, ValueError):
            continue
        if entry.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(entry))
    return kids


def test_no_descriptor_leaks_whatever_the_job_does(softmax_lesson, tmp_path):
    files = {"good": "", "kills-worker": "os.kill(os.getppid(), 9)\ntime.sleep(5)\n",
             "forges": "for fd in range(1024):\n    try:\n        os.write(fd, b'TWB1junk')\n"
                       "    except OSError:\n        pass\n",
             "crashes": "import ctypes\nctypes.string_at(0)\n"}
    with Pool(1, preload=("numpy",)) as single:
        grade(single, softmax_lesson, tmp_path, "", "warm-up.py")
        before = len(os.listdir("/proc/self/fd"))
        for name, prelude in files.items():
            grade(single, softmax_lesson, tmp_path, prelude, f"{name}.py")
        deadline = time.monotonic() + 120      # a feeder thread closes its pipe once the child is gone
        while len(os.listdir("/proc/self/fd")) > before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(os.listdir("/proc/self/fd")) == before
