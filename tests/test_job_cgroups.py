"""A job's memory and processes bounded as a whole, by its worker's cgroup, which holds nothing but
the worker whenever a job begins: a memory bomb of several processes, each under the per-process
limit, is stopped and reported as the job's memory limit; a process bomb is bounded; nothing is left
behind. Needs a writable cgroup (root here)."""
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from conftest import GOOD_SOFTMAX, ROOT, grader
from grader.runner import cgroups, run
from grader.runner.workers import Pool

pytestmark = pytest.mark.xdist_group("cgroups")
GROUP, WHY = cgroups.open_group()
if GROUP:
    GROUP.close()
needs_cgroups = pytest.mark.skipif(GROUP is None, reason=f"no writable cgroup here: {WHY}")
LIMITS = run.Limits(case_seconds=20, import_seconds=10, job_seconds=60)


def job(pool, lesson, body, cases=2):
    """Run a correct softmax whose function first runs `body`, on the lesson's first cases."""
    source = "import os, sys, time\nimport numpy as np\n" + GOOD_SOFTMAX.replace(
        "def softmax(x, axis=-1):\n", "def softmax(x, axis=-1):\n" + textwrap.indent(
            textwrap.dedent(body), "    "))
    return pool.run(lambda worker: run.run_job(worker, source, lesson.cases[:cases], LIMITS))


def job_cgroups(pool):
    """The cgroups in the grader's folder now."""
    return [e.path for base in pool.cgroups.dirs for e in os.scandir(base) if e.is_dir()]


@pytest.fixture
def sandboxed():
    with Pool(1, sandboxed=True, preload=("numpy",)) as pool:
        folders = list(pool.cgroups.dirs) if pool.cgroups else []
        yield pool
        if pool.cgroups:        # only the worker's, holding nothing but the worker and the
            for worker in pool.workers:                                         # next job's child
                worker.ahead.result()
                assert worker.home.charged()[1] == worker.home_tasks + 1
            homes = {d for w in pool.workers if w.home for d in w.home.dirs}
            assert set(job_cgroups(pool)) == homes and len(homes) == len(pool.cgroups.dirs)
    assert not [f for f in folders if os.path.exists(f)]     # and so is the grader's folder


@needs_cgroups
def test_each_job_runs_in_a_cgroup_with_the_job_s_limits(softmax_lesson):
    if GROUP.version != 1:
        pytest.skip("the job reads cgroup v1's files")
    with Pool(1, preload=("numpy",)) as pool:     # unsandboxed, so the job can read its cgroup
        done = job(pool, softmax_lesson, """
            where = dict(l.strip().split(":", 2)[1:] for l in open("/proc/self/cgroup"))
            memory = open(f"/sys/fs/cgroup/memory{where['memory']}/memory.limit_in_bytes").read()
            tasks = open(f"/sys/fs/cgroup/pids{where['pids']}/pids.max").read()
            raise ValueError(f"{where['memory']} {int(memory)} {tasks.strip()}")
            """, cases=1)
        assert "cgroup v1" in pool.confinement(LIMITS)
        worker_tasks = pool.workers[0].home_tasks
    assert done.outcomes[0].status == "error", done.outcomes[0]
    path, memory, tasks = done.outcomes[0].error["message"].split()
    assert "/grader-" in path and "/worker-" in path
    assert int(memory) == (LIMITS.memory_mb + cgroups.ALLOWANCE_MB) << 20
    assert int(tasks) == worker_tasks + LIMITS.processes + 1


@needs_cgroups
def test_learner_code_runs_in_the_job_s_cgroup_from_its_first_line(softmax_lesson):
    """The file's first statement already runs inside the job's cgroup, however fast the child
    reads its request: nothing a learner writes runs before the job is confined."""
    source = ('import os\nWHERE = open("/proc/self/cgroup").read()\n'
              'def softmax(x, axis=-1):\n    raise ValueError(WHERE.replace("\\n", " "))\n')
    with Pool(1, preload=("numpy",)) as pool:     # unsandboxed, so the file can read its cgroup
        for _ in range(20):
            done = pool.run(lambda worker: run.run_job(worker, source, softmax_lesson.cases[:1],
                                                       LIMITS))
            assert done.outcomes[0].status == "error", done.outcomes[0]
            assert "/worker-" in done.outcomes[0].error["message"], done.outcomes[0].error


@needs_cgroups
def test_a_memory_bomb_of_several_processes_is_stopped_as_the_job_s_memory_limit(
        sandboxed, softmax_lesson):
    """Six children of 400 MB each: each under the per-process limit, 2.4 GB together."""
    done = job(sandboxed, softmax_lesson, """
        r, w = os.pipe()
        for _ in range(6):
            if os.fork() == 0:
                hog = bytearray(400 << 20)
                for i in range(0, len(hog), 4096):
                    hog[i] = 1
                os.write(w, b"x")
                time.sleep(600)
        got = b""
        while len(got) < 6:
            got += os.read(r, 6)
        """)
    for outcome in done.outcomes:
        assert outcome.status == "crash"
        assert "went over its memory limit (1024 MiB)" in outcome.detail, outcome.detail
    after = job(sandboxed, softmax_lesson, "")        # the worker goes on as before
    assert [o.status for o in after.outcomes] == ["ok", "ok"]


@needs_cgroups
def test_a_process_bomb_is_bounded(sandboxed, softmax_lesson):
    """Its cgroup is removed afterwards (the fixture checks), so none of its processes is left."""
    done = job(sandboxed, softmax_lesson, f"""
        made = 0
        while made < 200:
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                time.sleep(600)
                os._exit(0)
            made += 1
        raise ValueError(f"made {{made}}")
        """, cases=1)
    message = done.outcomes[0].error["message"]
    assert message.startswith("made ") and 0 < int(message.split()[1]) <= LIMITS.processes


@needs_cgroups
def test_a_worker_whose_cgroup_still_holds_a_job_s_memory_moves_to_a_fresh_one(softmax_lesson,
                                                                             monkeypatch):
    """What a job leaves charged (pages it read, an IPC namespace freed a moment later) is never the
    next job's: the worker moves to a fresh cgroup, and the old one goes."""
    with Pool(1, preload=("numpy",)) as pool:
        job(pool, softmax_lesson, "", cases=1)
        worker = pool.workers[0]
        first = list(worker.home.dirs)
        charged = cgroups.Account.charged
        over = (cgroups.ALLOWANCE_MB + 1) * cgroups.MiB
        monkeypatch.setattr(cgroups.Account, "charged", lambda account: (
            charged(account)[0] + over * (account.dirs == first), charged(account)[1]))
        outcomes = [o.status for _ in range(2) for o in job(pool, softmax_lesson, "", 1).outcomes]
        assert outcomes == ["ok", "ok"]
        assert worker.home.dirs != first and not [d for d in first if os.path.exists(d)]


@needs_cgroups
def test_the_memory_killer_chooses_a_job_s_processes_and_spares_the_worker(softmax_lesson):
    """A job's processes are the killer's first choice; the worker is shielded as well where the
    grader holds CAP_SYS_RESOURCE (root, outside a container that drops it)."""
    with Pool(1, preload=("numpy",)) as pool:
        done = job(pool, softmax_lesson, """
            raise ValueError(open("/proc/self/oom_score_adj").read().strip())
            """, cases=1)
        worker = pool.workers[0]
        spared = cgroups.read(f"/proc/{worker.host_pid()}/oom_score_adj").strip()
    assert done.outcomes[0].status == "error", done.outcomes[0]
    assert done.outcomes[0].error["message"] == "1000"
    assert spared == ("-1000" if worker.shielded else "0")  # shielded where the grader may


def test_without_a_cgroup_the_per_process_limits_are_said_to_be_in_force(monkeypatch):
    monkeypatch.setattr(cgroups, "open_group", lambda: (None, "no cgroup for this test"))
    with Pool(1, preload=()) as pool:
        said = pool.confinement(LIMITS)
        done = pool.run(lambda worker: run.run_job(worker, GOOD_SOFTMAX, [], LIMITS))
    assert said.startswith("per-process limits only") and "no cgroup for this test" in said
    assert done.import_error is None


def test_doctor_says_how_jobs_are_bounded():
    done = grader(ROOT, "doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Sandbox: bubblewrap" in done.stdout and "works" in done.stdout
    expected = f"cgroup v{GROUP.version}" if GROUP else "per-process limits only"
    assert f"Job limits: {expected}" in done.stdout


@needs_cgroups
def test_folders_a_killed_grader_left_are_removed_by_the_next():
    gone = subprocess.Popen(["true"])
    gone.wait()                              # a pid no grader runs as now
    stale = [os.path.join(base, f"{cgroups.PREFIX}{gone.pid}-0badc0de")
             for base in cgroups.bases()[1]]
    try:
        for folder in stale:
            os.makedirs(os.path.join(folder, "job-1"))
        group, _ = cgroups.open_group()
        group.close()
        assert not [f for f in stale if os.path.exists(f)]
    finally:
        for folder in stale:
            cgroups.remove(folder, 0)


def test_cgroup_v2_the_nearest_cgroup_that_enables_memory_and_pids_holds_the_jobs(
        tmp_path, monkeypatch):
    """On a file tree laid out as cgroup v2's (this machine's may be v1): the grader's folder goes
    in the nearest cgroup from its own up that enables memory and pids below it, and a worker's
    cgroup writes v2's limits, is joined only when empty, and reads v2's count of kills."""
    v2 = tmp_path / "cgroup"
    scope = v2 / "user.slice" / "session-1.scope"
    scope.mkdir(parents=True)
    (v2 / "user.slice" / "cgroup.subtree_control").write_text("cpu memory pids\n")
    (scope / "cgroup.subtree_control").write_text("\n")    # it holds processes: none enabled
    monkeypatch.setattr(cgroups, "mounts", lambda: ({}, str(v2)))
    monkeypatch.setattr(cgroups, "own", lambda: {"": "/user.slice/session-1.scope"})
    version, bases = cgroups.bases()
    assert (version, bases) == (2, [str(v2 / "user.slice")])
    group = cgroups.Group(version, bases)
    assert Path(group.dirs[0], "cgroup.subtree_control").read_text() == "+memory +pids"
    account = group.account(1024, 9)
    folder = Path(account.dirs[0])
    (folder / "memory.events").write_text("oom 0\noom_kill 0\n")
    (folder / "memory.current").write_text("4096\n")      # what the kernel would never show
    (folder / "pids.current").write_text("0\n")
    with pytest.raises(cgroups.NotEmpty):
        account.attach(4242)
    assert not (folder / "cgroup.procs").exists()
    (folder / "memory.current").write_text("0\n")
    account.attach(4242)
    written = {f.name: f.read_text() for f in folder.iterdir()}
    assert written["memory.max"] == str(1024 << 20) and written["memory.swap.max"] == "0"
    assert written["memory.oom.group"] == "1" and written["pids.max"] == "9"
    assert written["cgroup.procs"] == "4242" and account.fd is None
    assert not account.out_of_memory()
    (folder / "memory.events").write_text("oom 1\noom_kill 1\n")
    assert account.out_of_memory()
    account.begin()                 # the next job: kills are counted from its start
    assert not account.out_of_memory()


def test_cgroup_v2_without_enabled_controllers_falls_back(tmp_path, monkeypatch):
    (tmp_path / "cgroup.subtree_control").write_text("cpu io\n")
    monkeypatch.setattr(cgroups, "mounts", lambda: ({}, str(tmp_path)))
    monkeypatch.setattr(cgroups, "own", lambda: {"": "/"})
    version, why = cgroups.bases()
    assert version is None and "memory and pids" in why
