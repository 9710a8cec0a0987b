"""An instructor who is not root: class grading and the learner's sandboxed check run as an ordinary
user (bubblewrap in an unprivileged user namespace), and the most dangerous attacks of the hostile
suite are stopped there too. Where the sandbox cannot run, the message names the fix.

A user is made for these tests, with a copy of what it needs (hard links where possible: the
files are shared, never changed) in a folder it can read: an interpreter it may run, the
installed packages, the grader and the workbook. Needs root (to make the user)."""
import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ROOT
from leftovers import RIGHT_AFTER, learners
from test_hostile import (ATTACKS, HONEST, LONG, attackers, lesson_folder, listener,  # noqa: F401
                          make_class, reason)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("instructor")]
USER = "grader-t"          # and the test's pid
DANGEROUS = ["fork_storm", "memory_bomb", "network", "read_reference", "signal_parent",
             "ptrace_parent", "setsid_background"]       # none of them meant to time out
ISOLATED = """\
import os
import numpy as np

STATUS = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
CAPABILITIES = [int(STATUS[k], 16) for k in ("CapEff", "CapPrm", "CapInh", "CapAmb")]
ALONE = os.getpid() == 1 and os.getppid() == 0 and not any(CAPABILITIES)


def softmax(x, axis=-1):
    if not ALONE:
        return np.zeros_like(x)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
"""
FAILING_BWRAP = """#!/bin/sh
echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2
exit 1
"""


@dataclass
class Instructor:
    user: str
    uid: int
    base: Path
    python: str
    checkout: Path
    workbook: Path

    def run(self, *args, path="/usr/local/bin:/usr/bin:/bin"):
        """`grader ARGS` as this user, in a bare environment."""
        env = ["env", "-i", f"PATH={path}", f"HOME={self.base / 'home'}", "LANG=C.UTF-8",
               f"WORKBOOK_ROOT={self.workbook}", f"PYTHONPATH={self.checkout}", "COLUMNS=200"]
        return subprocess.run(["runuser", "-u", self.user, "--", *env, self.python, "-m", "grader",
                               *args], capture_output=True, text=True, timeout=900, cwd=self.base)

    def lasting_processes(self):
        """This user's processes still there after a while (a sandbox ends in a moment, longer on
        a busy machine; the wait ends as soon as none is left); their command lines."""
        deadline = time.monotonic() + 120
        while (left := self.processes()) and time.monotonic() < deadline:
            time.sleep(0.2)
        return {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in left
                if os.path.exists(f"/proc/{pid}")}

    def processes(self):
        found = []
        for entry in os.listdir("/proc"):
            try:
                if entry.isdigit() and os.stat(f"/proc/{entry}").st_uid == self.uid:
                    found.append(int(entry))
            except OSError:
                pass
        return found


def runs(user, argv):
    return subprocess.run(["runuser", "-u", user, "--", *argv], capture_output=True,
                          cwd="/").returncode == 0


def interpreter(user):
    """An interpreter of this Python version the user may run: this one's, or the system's."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (os.path.realpath(sys._base_executable), f"/usr/bin/{version}"):
        if os.path.exists(candidate) and runs(user, [candidate, "-c", "pass"]):
            return candidate
    pytest.skip(f"user {user} may run no {version} interpreter")


def link_copy(source, target):
    """A copy of `source` whose files are hard links (the same files, never changed here)."""
    done = subprocess.run(["cp", "-al", str(source), str(target)], capture_output=True)
    if done.returncode != 0:      # another file system: a real copy
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target, symlinks=True)


def virtual_env(user, venv):
    """A virtual environment at `venv` with this one's packages, on an interpreter `user` may
    run; the grader itself comes from a copy of the checkout (PYTHONPATH)."""
    site = Path(sysconfig.get_paths()["purelib"])
    (venv / "bin").mkdir(parents=True)
    (venv / site.relative_to(sys.prefix)).parent.mkdir(parents=True)
    link_copy(site, venv / site.relative_to(sys.prefix))
    for finder in (venv / site.relative_to(sys.prefix)).glob("__editable__*"):
        finder.unlink()               # points at the checkout, which this user may not read
    python = interpreter(user)
    (venv / "bin" / "python").symlink_to(python)
    (venv / "pyvenv.cfg").write_text(f"home = {os.path.dirname(python)}\n"
                                     "include-system-site-packages = false\n")
    return str(venv / "bin" / "python")


def remove_stale_users():
    """Users an earlier run that was killed left behind (the pid in their name is gone)."""
    for entry in pwd.getpwall():
        if entry.pw_name.startswith(USER) and entry.pw_name[len(USER):].isdigit() \
                and not os.path.exists(f"/proc/{entry.pw_name[len(USER):]}"):
            subprocess.run(["userdel", entry.pw_name], capture_output=True)


@pytest.fixture(scope="module")
def instructor():
    if os.geteuid() != 0:
        pytest.skip("making an ordinary user to grade as needs root")
    for tool in ("useradd", "userdel", "runuser", "bwrap"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    remove_stale_users()
    user = f"{USER}{os.getpid()}"
    subprocess.run(["useradd", "--system", "--no-create-home", "--user-group",
                    "--shell", "/usr/sbin/nologin", user], check=True, capture_output=True)
    base = Path(tempfile.mkdtemp(prefix="instructor-", dir="/tmp"))
    # the installed packages, apart from what the tests use (no test changes them)
    packages = Path(tempfile.mkdtemp(prefix="instructor-packages-", dir="/tmp"))
    who = None
    try:
        for folder in (base, packages):
            os.chmod(folder, 0o755)
        pw = pwd.getpwnam(user)
        shutil.copytree(ROOT / "grader", base / "checkout" / "grader",
                        ignore=shutil.ignore_patterns("__pycache__"))
        workbook = base / "workbook"
        shutil.copytree(ROOT / "solutions", workbook / "solutions",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (base / "home").mkdir()
        for folder in (workbook, base / "home"):
            for path in (folder, *folder.rglob("*")):
                os.chown(path, pw.pw_uid, pw.pw_gid, follow_symlinks=False)
        who = Instructor(user, pw.pw_uid, base, virtual_env(user, packages / "venv"),
                         base / "checkout", workbook)
        yield who
    finally:
        left = who.lasting_processes() if who else {}
        for pid in left:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        subprocess.run(["userdel", user], capture_output=True)
        for folder in (base, packages):
            shutil.rmtree(folder, ignore_errors=True)
    assert not left, f"processes left behind by {user}: {left}"


def owned_folder(who, folder):
    folder.mkdir()
    os.chown(folder, who.uid, -1)
    return folder


@pytest.fixture
def own(instructor):
    """A folder of this test's own for the instructor to work in (no test changes the shared
    one)."""
    folder = Path(tempfile.mkdtemp(prefix="instructor-test-", dir="/tmp"))
    os.chown(folder, instructor.uid, -1)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def graded(out):
    db = sqlite3.connect(out / "gradebook.sqlite")
    found = {}
    for rid, learner, lesson, score, error in db.execute(
            "SELECT r.id, s.learner, s.lesson, r.score, r.error FROM results r "
            "JOIN submissions s ON s.id = r.submission"):
        cases = db.execute("SELECT name, status, passed, message FROM case_results "
                           "WHERE result = ? ORDER BY position", (rid,)).fetchall()
        found[learner, lesson] = {"score": score, "error": error or "", "cases": cases}
    db.close()
    return found


@pytest.fixture(scope="module")
def class_graded(instructor, listener):
    """Honest learners and the most dangerous attackers, graded by the ordinary user."""
    folder = make_class(instructor.base / "class",
                        {**HONEST, "isolated": {"01-softmax": ISOLATED},
                         **attackers(DANGEROUS, listener, instructor.base / "class")})
    out = owned_folder(instructor, instructor.base / "out")
    done = instructor.run("grade", str(folder), "--lessons", "01,09", "--out", str(out),
                          "--jobs", "2", "--case-seconds", LONG)
    assert done.returncode == 0, done.stdout + done.stderr
    return graded(out), instructor.lasting_processes()


def test_an_ordinary_user_grades_a_class_in_the_sandbox(class_graded):
    found, _ = class_graded
    assert found["alice", "01-softmax"]["score"] == 1.0
    assert found["alice", "09-torch-attention"]["score"] == 1.0
    assert 0 < found["bert", "01-softmax"]["score"] < 1
    assert found["cleo", "01-softmax"]["score"] == 0
    assert found["dana", "09-torch-attention"]["score"] < 1


def test_an_ordinary_user_s_jobs_run_alone_without_capabilities(class_graded):
    """pid 1 of a PID namespace of its own (its parent, the worker, is outside), no capability."""
    found, _ = class_graded
    assert found["isolated", "01-softmax"]["score"] == 1.0, found["isolated", "01-softmax"]


@pytest.mark.parametrize("name", DANGEROUS)
def test_the_most_dangerous_attacks_are_stopped_for_an_ordinary_user(class_graded, name):
    found, _ = class_graded
    row = found[f"x-{name}", lesson_folder(ATTACKS[name])]
    assert reason(row) == ATTACKS[name]["expect"], (row["error"], row["cases"][:3])


def test_grading_as_an_ordinary_user_leaves_no_process(class_graded):
    _, left = class_graded
    assert not left


def test_nothing_a_job_leaves_behind_outlives_it_for_an_ordinary_user(instructor, own):
    """Without cgroups too: learners who leave kernel objects, files and processes behind on
    their warm worker (`--jobs 1`), then right answers, and one that turns wrong if it sees any
    of it: every one of them scores 1.0 (see tests/leftovers.py)."""
    folder = make_class(own / "leftovers", learners())
    out = owned_folder(instructor, own / "leftovers-out")
    done = instructor.run("grade", str(folder), "--lessons", "01", "--out", str(out),
                          "--jobs", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    found = graded(out)
    assert {name: found[name, "01-softmax"]["score"] for name in RIGHT_AFTER} == \
        {name: 1.0 for name in RIGHT_AFTER}
    wrong = {k: (v["error"], v["cases"][:1]) for k, v in found.items() if v["score"] < 1}
    assert not wrong


def test_a_learner_s_sandboxed_check_works_for_an_ordinary_user(instructor):
    done = instructor.run("check", "01", "--file",
                          str(instructor.workbook / "solutions/01-softmax/solution.py"), "--sandbox")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "passed" in done.stdout.lower()


def test_doctor_tells_an_ordinary_user_what_is_in_force(instructor):
    done = instructor.run("doctor")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "run by an ordinary user" in done.stdout
    assert "Job limits: per-process limits only" in done.stdout


def test_a_sandbox_that_cannot_start_names_the_fix(instructor, own):
    fake = owned_folder(instructor, own / "fake-bin")
    (fake / "bwrap").write_text(FAILING_BWRAP)
    os.chmod(fake / "bwrap", 0o755)
    folder = make_class(own / "small-class", {"alice": HONEST["alice"]})
    out = own / "never-written"
    done = instructor.run("grade", str(folder), "--lessons", "01", "--out", str(out),
                          path=f"{fake}:/usr/bin:/bin")
    said = done.stdout + done.stderr
    assert done.returncode == 2, said
    assert "Traceback" not in said and not out.exists()
    assert "bubblewrap cannot create a sandbox here" in said and "--no-sandbox" in said
    assert "non-privileged user namespaces" in said           # what bubblewrap said
    assert "user namespaces" in said.split("). ", 1)[1]        # and what to do about it


@pytest.mark.parametrize("setting,value,fix", [
    ("kernel/unprivileged_userns_clone", "0", "sysctl -w kernel.unprivileged_userns_clone=1"),
    ("user/max_user_namespaces", "0", "sysctl -w user.max_user_namespaces=15000"),
    ("kernel/apparmor_restrict_unprivileged_userns", "1",
     "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"),
    (None, None, "ask the machine's administrator"),
])
def test_the_fix_names_the_setting_that_forbids_user_namespaces(tmp_path, monkeypatch, setting,
                                                                value, fix):
    from grader.runner import sandbox
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    (tmp_path / "kernel").mkdir()
    (tmp_path / "user").mkdir()
    (tmp_path / "user/max_user_namespaces").write_text("15000\n")
    if setting:
        (tmp_path / setting).write_text(value + "\n")
    assert fix in sandbox.userns_fix(str(tmp_path))
