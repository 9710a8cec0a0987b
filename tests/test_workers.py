"""Warm workers: a fresh child per job, nothing shared between jobs, every process cleaned up, a
worker that dies is replaced without losing the job, and a child gets hidden inputs only once its
public cases are answered."""
import hashlib
import io
import os
import textwrap
import threading
import time

from conftest import FAST, GOOD_SOFTMAX
from grader.judge.grade import grade_file, run_learner
from grader.runner import run
from grader.runner.workers import Pool, WorkerDied


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
    deadline = time.monotonic() + 5      # the worker ends the job while its answers are judged
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
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


def test_children_collect_their_own_garbage_and_never_visit_the_worker_s(pool, softmax_lesson,
                                                                        tmp_path):
    """What the worker made before forking is frozen (no child's collection writes to its pages);
    the collector is on for what the learner's code makes."""
    result = grade(pool, softmax_lesson, tmp_path, """
        import gc
        assert gc.isenabled() and gc.get_freeze_count() > 10_000, gc.get_freeze_count()
        """)
    assert result.error is None and all(r.verdict.passed for r in result.cases), result.error


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
    pids = tmp_path / "pids"
    with Pool(1, preload=("numpy",)) as single:
        grade(single, softmax_lesson, tmp_path, f"""
            for _ in range(3):
                if os.fork() == 0:
                    with open({str(pids)!r}, "a") as f:
                        f.write(f"{{os.getpid()}}\\n")
                    time.sleep(600)
            """)
        made = [int(p) for p in pids.read_text().split()]
        deadline = time.monotonic() + 120     # ended while it is judged; reaped as the load allows
        while any(map(alive, made)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(made) == 3 and not any(map(alive, made))


def test_no_descriptor_leaks_whatever_the_job_does(softmax_lesson, tmp_path):
    files = {"good": "", "kills-worker": "os.kill(os.getppid(), 9)\ntime.sleep(5)\n",
             "forges": "for fd in range(1024):\n    try:\n        os.write(fd, b'TWB1junk')\n"
                       "    except OSError:\n        pass\n",
             "crashes": "import ctypes\nctypes.string_at(0)\n"}
    def descriptors(pool):
        """Open in this process, once the next job's child is made (it holds a few of them)."""
        for worker in pool.workers:
            if worker.ahead:
                worker.ahead.exception()
        return len(os.listdir("/proc/self/fd"))

    with Pool(1, preload=("numpy",)) as single:
        grade(single, softmax_lesson, tmp_path, "", "warm-up.py")
        before = descriptors(single)
        for name, prelude in files.items():
            grade(single, softmax_lesson, tmp_path, prelude, f"{name}.py")
        deadline = time.monotonic() + 120      # a feeder thread closes its pipe once the child is gone
        while descriptors(single) > before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert descriptors(single) == before


def test_one_child_runs_public_cases_before_it_holds_any_hidden_input(pool, softmax_lesson):
    """The public cases, then the hidden ones, run in one child; while a public case runs (what it
    prints is shown) no hidden input is anywhere in the child's memory, and its raw output is
    closed before the hidden inputs come (the probe does find each hidden input in its own case)."""
    public = {hashlib.sha256(c.calls[0].args[0].tobytes()).hexdigest()
              for c in softmax_lesson.cases if c.public}
    hidden = {hashlib.sha256(c.calls[0].args[0].tobytes()).hexdigest()
              for c in softmax_lesson.cases if not c.public} - public
    source = textwrap.dedent(f"""\
        import gc, hashlib, os
        import numpy as np
        HIDDEN = {sorted(hidden)!r}

        def arrays():       # arrays are not tracked by the collector; what holds them is
            for o in gc.get_objects():
                for item in o.values() if type(o) is dict else o if type(o) is list else ():
                    if type(item) is np.ndarray:
                        yield item

        def softmax(x, axis=-1):
            seen = sum(hashlib.sha256(a.tobytes()).hexdigest() in HIDDEN for a in arrays())
            raw = "null" if os.fstat(1).st_rdev == os.stat(os.devnull).st_rdev else "open"
            print(os.getpid(), seen, raw)
            e = np.exp(x - np.max(x, axis=axis, keepdims=True))
            return e / np.sum(e, axis=axis, keepdims=True)
        """)
    job = run_learner(pool, source, softmax_lesson.cases, FAST)
    said = [(case.public, *o.stdout.split()) for case, o in zip(softmax_lesson.cases, job.outcomes)]
    assert len({pid for _, pid, _, _ in said}) == 1, said
    assert all(seen == "0" and raw == "open" for shown, _, seen, raw in said if shown), said
    assert all(seen != "0" and raw == "null" for shown, _, seen, raw in said if not shown), said


def test_a_job_handed_to_a_closed_pool_fails_rather_than_waiting_for_a_worker():
    """A class run that stops (a full disk, Ctrl-C) closes its pool while a job thread may still be
    asking for a worker: that job must fail, or the process never exits."""
    pool = Pool(1, preload=())
    pool.close()
    outcome = []

    def job():
        try:
            outcome.append(pool.run(lambda worker: "ran"))
        except WorkerDied as exc:
            outcome.append(exc)
    thread = threading.Thread(target=job, daemon=True)
    thread.start()
    thread.join(120)         # an upper bound for a failed test, not a measure: it ends at once
    assert not thread.is_alive(), "the job is still waiting for a worker"
    assert isinstance(outcome[0], WorkerDied) and "closed" in str(outcome[0])


def test_the_worker_s_made_up_job_runs_every_call_and_leaves_nothing_behind():
    """Before it forks, a worker answers a made-up job as a child would, so no child does anything
    for the first time: every call it makes must run (a broken one would warm nothing), and
    nothing of it may stay where a learner's module would find it."""
    import linecache
    import sys
    import torch   # noqa: F401  (the made-up job then calls torch too, as a torch worker's does)
    from grader.runner.child import warm, wire
    kept = sys.stdout, sys.stderr, set(sys.modules)
    frames, stream = [], __import__("io").BytesIO(warm.answer_made_up_job())
    while (frame := wire.read_message(stream)) is not None:
        frames.append(frame)
    assert [f["kind"] for f in frames] == ["imported", "case", "case", "case"]
    errors = [f["error"] and f["error"]["type"] for f in frames[1:]]
    assert errors == [None, "ValueError", None], [f["error"] for f in frames[1:]]
    assert (sys.stdout, sys.stderr, set(sys.modules) - kept[2]) == (kept[0], kept[1], set())
    assert warm.NAME not in linecache.cache


def test_a_closed_pool_or_a_killed_worker_leaves_no_job_folder(softmax_lesson, tmp_path,
                                                                monkeypatch):
    """Without the sandbox each job's child works in a folder of the temporary folder; a pool's
    end (with a child made ahead) or a worker killed mid-job left it there."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    (tmp_path / "job-1-0a1b2c3d").mkdir()          # another worker's: left alone
    with Pool(2, preload=("numpy",)) as pool:
        for _ in range(3):
            job = pool.run(lambda w: run_learner_once(w, softmax_lesson))
            assert job.outcomes[0].status == "ok"
        pool.workers[0].kill()
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(
            f"job-{pool.workers[0].pid}-")) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job-1-0a1b2c3d"]


def run_learner_once(worker, lesson):
    return run.run_job(worker, GOOD_SOFTMAX, lesson.cases[:1], FAST)
