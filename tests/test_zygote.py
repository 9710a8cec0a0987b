"""The zygote: a pool's workers are forked from one process that imported the libraries once; a dead
worker is replaced by a fork of it; what a dead worker's job leaves behind is killed; and workers
sharing a sandbox keep their jobs apart."""
import os
import shutil
import signal
import threading
import time

import pytest

from conftest import FAST, GOOD_SOFTMAX
from grader.runner import run
from grader.runner.workers import Pool, WorkerDied


def parent_of(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(f.read().split("PPid:")[1].split()[0])


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_pools_workers_and_their_replacements_are_forked_from_one_zygote(softmax_lesson):
    with Pool(2, preload=("numpy",)) as pool:
        pool.wait_ready()
        zygote, = pool.zygotes
        assert [parent_of(w.host_pid()) for w in pool.workers] == [zygote.proc.pid] * 2
        first = pool.workers[0]
        first.kill()                # the next job gets it, finds it dead, and is retried
        job = pool.run(lambda w: run.run_job(w, GOOD_SOFTMAX, softmax_lesson.cases[:1], FAST))
        assert job.outcomes[0].status == "ok"
        assert first not in pool.workers and len(pool.workers) == 2
        assert pool.zygotes == [zygote]
        assert {parent_of(w.host_pid()) for w in pool.workers} == {zygote.proc.pid}


def test_what_a_dead_workers_job_leaves_behind_is_killed(softmax_lesson, tmp_path):
    """The job's child and a daemon it started (setsid) come back to the zygote when their worker
    is killed, and the zygote kills them."""
    source = f"""import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open({str(tmp_path / "daemon")!r}, "w").write(str(os.getpid()))
        time.sleep(600)
    os._exit(0)
open({str(tmp_path / "child")!r}, "w").write(str(os.getpid()))
time.sleep(600)
""" + GOOD_SOFTMAX
    with Pool(1, preload=("numpy",)) as pool:
        worker, = pool.workers
        failed = []

        def job():
            try:
                run.run_job(worker, source, softmax_lesson.cases[:1], run.Limits(case_seconds=60))
            except WorkerDied as exc:
                failed.append(exc)
        thread = threading.Thread(target=job)
        thread.start()
        files = [tmp_path / "daemon", tmp_path / "child"]
        deadline = time.monotonic() + 30
        while not all(f.exists() and f.read_text() for f in files) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [int(f.read_text()) for f in files]
        assert all(map(alive, left))
        worker.kill()
        thread.join(10)
        deadline = time.monotonic() + 10
        while any(map(alive, left)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert failed and not any(map(alive, left)), [p for p in left if alive(p)]


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_workers_sharing_a_sandbox_give_their_jobs_a_network_and_a_user_of_their_own(
        softmax_lesson):
    source = ("import os\ndef softmax(x, axis=-1):\n"
              "    raise ValueError(os.readlink('/proc/self/ns/net') + ' ' + str(os.getuid()))\n")
    with Pool(2, sandboxed=True, preload=("numpy",)) as pool:
        said = [pool.run(lambda w: run.run_job(w, source, softmax_lesson.cases[:1], FAST))
                .outcomes[0].error["message"].split() for _ in range(2)]
        workers = len(pool.zygotes)
    (net_a, uid_a), (net_b, uid_b) = said
    assert net_a != net_b, said
    if os.geteuid() == 0:               # one sandbox for both, a user of its own for each
        assert workers == 1 and uid_a != uid_b, said
    else:                               # a sandbox, and so a user namespace, for each
        assert workers == 2, said


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_a_closed_sandboxed_pool_ends_all_of_its_sandbox_even_a_zygote_that_stopped(softmax_lesson):
    """Closing a pool kills its sandbox's init, and with it every process there: not only those
    that end once their channel closes (a zygote stopped by a signal never reads that)."""
    with Pool(2, sandboxed=True, preload=("numpy",)) as pool:
        pool.run(lambda w: run.run_job(w, GOOD_SOFTMAX, softmax_lesson.cases[:1], FAST))
        zygote = pool.zygotes[0]
        sandbox = descendants(zygote.proc.pid)
        assert len(sandbox) >= 4, sandbox       # its init, the zygote, two workers
        os.kill(zygote.host, signal.SIGSTOP)
    deadline = time.monotonic() + 10
    while any(map(alive, sandbox)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in sandbox if alive(p)]
    for pid in left:                            # not to leave them behind if this fails
        os.kill(pid, signal.SIGKILL)
    assert not left


def descendants(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        kids = [int(k) for k in f.read().split()]
    return kids + [d for kid in kids for d in descendants(kid)]
