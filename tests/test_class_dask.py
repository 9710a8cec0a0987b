"""`grader grade --executor dask://HOST:PORT` on a real dask.distributed cluster of two worker
processes: the same grades as local grading, a worker killed mid-run costs no submission, and a
scheduler that cannot be reached or a missing dask is said plainly. Nothing is left running."""
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from distributed import Client, LocalCluster

from conftest import ROOT, grader
from mixed_class import make_mixed_class
from test_class_executors import graded

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("dask")]   # one cluster for the module
CASE_SECONDS = "3"      # the class has an endless loop


@pytest.fixture(scope="module")
def stubs(built_workbook, tmp_path_factory):
    """A workbook with fresh stubs (for the class's untouched stub) and the mixed class."""
    root = tmp_path_factory.mktemp("dask") / "workbook"
    shutil.copytree(built_workbook, root, symlinks=True)
    return root, make_mixed_class(root.parent / "class", root)


@pytest.fixture(scope="module")
def local(stubs):
    """The class graded by the local warm workers, sandboxed, as `grader grade` does by default."""
    root, cls = stubs
    out = root.parent / "local"
    done = grader(root, *grade_args(cls, out))
    assert done.returncode == 0, done.stdout + done.stderr
    return graded(out)


@pytest.fixture(scope="module")
def cluster():
    """Two Dask worker processes of one thread each; at the end, they and every warm worker they
    started are gone."""
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as dask_cluster, \
            Client(dask_cluster, set_as_default=False) as client:
        yield dask_cluster, client
        started = descendants(client)
    gone, alive = psutil.wait_procs(started, timeout=60)
    assert not alive, alive


def descendants(client):
    """The Dask worker processes and every process they started."""
    found = []
    for pid in client.run(os.getpid).values():
        worker = psutil.Process(pid)
        found += [worker, *worker.children(recursive=True)]
    return found


def grade_args(cls, out, *extra):
    return ("grade", str(cls), "--lessons", "01,02", "--out", str(out), "--jobs", "2",
            "--case-seconds", CASE_SECONDS, *extra)


def url(dask_cluster):
    return dask_cluster.scheduler_address.replace("tcp://", "dask://")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_gone(pid, seconds=60):
    """Whether `pid` is still running after `seconds`."""
    try:
        psutil.Process(pid).wait(seconds)
    except psutil.NoSuchProcess:
        pass
    except psutil.TimeoutExpired:
        return True
    return False


def results(out):
    try:
        with sqlite3.connect(f"file:{out / 'gradebook.sqlite'}?mode=ro", uri=True) as db:
            return db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_dask_cluster_grades_the_class_as_local_grading_does(stubs, local, cluster, tmp_path):
    root, cls = stubs
    dask_cluster, client = cluster
    done = grader(root, *grade_args(cls, tmp_path / "out", "--executor", url(dask_cluster)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert graded(tmp_path / "out") == local
    mallory = local["mallory", "01-softmax"]
    assert any("ValueError" in (case[-1] or "") for case in mallory[1])   # a traceback, named alike
    # every warm worker ran sandboxed, on the Dask workers, not here
    warm = [p for p in descendants(client) if p.name() == "bwrap"]
    assert warm


def test_a_worker_killed_mid_run_loses_no_submission(stubs, local, cluster, tmp_path):
    root, cls = stubs
    dask_cluster, client = cluster
    out = tmp_path / "out"
    pids = client.run(os.getpid)
    run = subprocess.Popen([sys.executable, "-m", "grader",
                            *grade_args(cls, out, "--executor", url(dask_cluster))],
                           cwd=root, env={**os.environ, "WORKBOOK_ROOT": str(root)},
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    victim = None
    while victim is None and run.poll() is None:
        busy = [w for w, keys in client.processing().items() if keys and w in pids]
        if busy and results(out) >= 2:
            victim = busy[0]
        time.sleep(0.02)
    assert victim is not None, "the run ended before a worker could be killed"
    lost_jobs = client.processing()[victim]
    orphans = psutil.Process(pids[victim]).children(recursive=True)   # its warm workers
    os.kill(pids[victim], signal.SIGKILL)
    output, _ = run.communicate(timeout=600)
    assert run.returncode == 0, output
    assert lost_jobs and "Traceback" not in output
    assert graded(out) == local             # every submission graded, as without the kill
    gone, alive = psutil.wait_procs(orphans, timeout=60)
    assert not alive, alive                 # warm workers end with the worker that started them


def test_an_unreachable_scheduler_is_said_plainly_and_loses_nothing(stubs, tmp_path):
    root, cls = stubs
    out = tmp_path / "out"
    alice = tmp_path / "alice"          # her own copy: the change below is this test's alone
    shutil.copytree(cls / "alice", alice)
    first = grader(root, "grade", str(alice), "--learner", "alice", "--lessons", "01,02",
                   "--out", str(out))
    assert first.returncode == 0, first.stdout + first.stderr
    before = graded(out)
    shutil.copy(ROOT / "solutions" / "02-attention" / "solution.py",
                alice / "01-softmax" / "solution.py")     # a change to grade
    done = grader(root, "grade", str(alice), "--learner", "alice", "--lessons", "01,02",
                  "--out", str(out), "--executor", "dask://127.0.0.1:9")
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert "could not reach the Dask scheduler at tcp://127.0.0.1:9" in done.stdout
    assert graded(out) == before


def test_without_dask_the_executor_option_says_how_to_install_it(stubs, tmp_path):
    root, cls = stubs
    fake = tmp_path / "no-dask" / "distributed"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named distributed')\n")
    done = subprocess.run([sys.executable, "-m", "grader", *grade_args(
        cls, tmp_path / "out", "--executor", "dask://127.0.0.1:8786")], cwd=root,
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "WORKBOOK_ROOT": str(root), "PYTHONPATH": str(fake.parent)})
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert "needs dask.distributed, which is not installed" in done.stdout
    assert "make setup" in done.stdout and not (tmp_path / "out").exists()


def test_a_scheduler_lost_mid_run_stops_plainly_and_a_rerun_grades_the_rest(stubs, local,
                                                                            tmp_path):
    root, cls = stubs
    out = tmp_path / "out"
    port = free_port()
    address = f"127.0.0.1:{port}"
    dask = str(Path(sys.executable).parent / "dask")
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--dashboard-address", ":0"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
    worker = subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads", "1",
                               "--dashboard-address", ":0"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    alive = []
    try:
        run = subprocess.Popen([sys.executable, "-m", "grader",
                                *grade_args(cls, out, "--executor", f"dask://{address}")],
                               cwd=root, env={**os.environ, "WORKBOOK_ROOT": str(root)},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        while run.poll() is None and results(out) < 3:
            time.sleep(0.02)
        scheduler.kill()
        output, _ = run.communicate(timeout=300)
    finally:
        for proc in (scheduler, worker):
            tree = [proc.pid, *(p.pid for p in psutil.Process(proc.pid).children(recursive=True))]
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            alive += [pid for pid in tree if psutil.pid_exists(pid) and wait_gone(pid)]
    assert not alive, alive
    assert run.returncode == 2, output
    assert "lost the connection to the Dask scheduler" in output and "Traceback" not in output
    kept = results(out)
    assert f"The {kept} results of this run are in the gradebook" in output and kept < len(local)
    rest = grader(root, *grade_args(cls, out))
    assert rest.returncode == 0, rest.stdout + rest.stderr
    assert graded(out) == local and results(out) == len(local)     # nothing graded twice
