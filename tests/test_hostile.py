"""The hostile submissions suite: a class of honest learners mixed with attackers, graded in one
`grader grade` run through the real sandbox.

For every attack (tests/hostile/*.py, described in tests/hostile/attacks.toml): the score and the
reason it was given; the grader alive; every honest learner graded exactly as in a class with no
attacker; no process left behind. Attacks marked `breach` are also graded without the sandbox,
where they must succeed: proof that each one really reaches for something the sandbox hides.
Lesson 01's attackers use numpy; lesson 09's use torch itself (tensor subclasses, patched torch,
pickles, threads and processes, huge and storage-less tensors). One of them (proc_paths) looks for
the host's folders in every command line, environment and mount table it can read.
"""
import json
import os
import shutil
import socket
import sqlite3
import threading
import time
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT, grader

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("hostile")]   # one class, graded once
HOSTILE = Path(__file__).parent / "hostile"
ATTACKS = tomllib.loads((HOSTILE / "attacks.toml").read_text())
LESSON_FOLDERS = {"01": "01-softmax", "09": "09-torch-attention"}
PORT = "47391"            # the network attack's port; the test listens on a free one instead
# Attacks that run past the per-case time limit are graded in a class of their own, with a short
# limit (each costs three time-outs); every other answer gets a limit it never reaches however busy
# the machine, so how an attack fares never depends on how fast its honest work runs.
TIMED = sorted(name for name, attack in ATTACKS.items() if attack["expect"] == "timeout")
SHORT, LONG = "2", "30"
MISTAKE = "import numpy as np\n\ndef softmax(x, axis=-1):\n    e = np.exp(x)\n    return e / np.sum(e, axis=axis, keepdims=True)\n"
MASK_IGNORED = """import torch
import torch.nn.functional as F

def solve(Q, K, V, mask=None):
    q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (Q, K, V))
    return F.scaled_dot_product_attention(q, k, v).tolist()
"""
HONEST = {                      # learner: {lesson folder: source}
    "alice": {"01-softmax": (ROOT / "solutions/01-softmax/solution.py").read_text(),
              "09-torch-attention": (ROOT / "solutions/09-torch-attention/solution.py").read_text()},
    "bert": {"01-softmax": MISTAKE},
    "cleo": {"01-softmax": "import numpy as np\n\ndef softmax(x, axis=-1):\n    return x\n"},
    "dana": {"09-torch-attention": MASK_IGNORED},
}


def lesson_folder(attack):
    return LESSON_FOLDERS.get(attack["lesson"], attack["lesson"])


def make_class(folder, learners):
    for learner, files in learners.items():
        for lesson, source in files.items():
            (folder / learner / lesson).mkdir(parents=True)
            (folder / learner / lesson / "solution.py").write_text(source)
    return folder


def host_paths(folder):
    """Placeholders an attack's source holds, filled in: the host's own folders it must not see
    from inside the sandbox (the grader's home, the class's folders), and the Python
    installation's folders, which it may see (the mount table names them)."""
    from grader.runner import sandbox
    hidden = [str(ROOT), str(folder.parent), str(folder)]
    return {'["/host/paths"]': json.dumps(hidden), '["/python/roots"]': json.dumps(sandbox.python_roots())}


def attackers(names, port, folder):
    filled = {PORT: str(port), **host_paths(folder)}

    def source(name):
        text = (HOSTILE / f"{name}.py").read_text()
        for placeholder, value in filled.items():
            text = text.replace(placeholder, value)
        return text
    return {f"x-{name}": {lesson_folder(ATTACKS[name]): source(name)} for name in names}


def leftovers():
    """Orphaned processes a grading run could have left: sandboxed users, workers, bubblewrap."""
    found = set()
    for entry in os.listdir("/proc"):
        try:
            status = Path(f"/proc/{entry}/status").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        uid, ppid = int(fields["Uid"].split()[0]), int(fields["PPid"])
        if ppid == 1 and (uid >= 100_000 or b"grader.runner.child" in cmdline or b"bwrap" in cmdline):
            found.add(int(entry))
    return found


def lasting_leftovers(before):
    """Leftovers still there after a while (teardown of a sandbox takes a moment, longer on a busy
    machine; the wait ends as soon as none is left)."""
    deadline = time.monotonic() + 120
    while (left := leftovers() - before) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def grade(workbook, folder, out, *extra, case_seconds=LONG):
    done = grader(workbook, "grade", str(folder), "--lessons", "01,09", "--out", str(out),
                  "--jobs", "2", "--case-seconds", case_seconds, *extra, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Graded" in done.stdout
    db = sqlite3.connect(out / "gradebook.sqlite")
    graded = {}
    for rid, learner, lesson, score, error in db.execute(
            "SELECT r.id, s.learner, s.lesson, r.score, r.error FROM results r "
            "JOIN submissions s ON s.id = r.submission"):
        cases = db.execute("SELECT name, status, passed, message FROM case_results "
                           "WHERE result = ? ORDER BY position", (rid,)).fetchall()
        graded[learner, lesson] = {"score": score, "error": error or "", "cases": cases}
    return graded


@pytest.fixture(scope="module")
def listener():
    """A server on the host's loopback that hands out help to whoever reaches it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.sendall(b"the answer is the stable softmax\n")
            conn.close()
    threading.Thread(target=serve, daemon=True).start()
    yield server.getsockname()[1]
    server.close()


@pytest.fixture(scope="module")
def workbook(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile") / "workbook"
    shutil.copytree(ROOT / "solutions", root / "solutions",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def mixed(workbook, listener, tmp_path_factory):
    """The honest learners and every attacker but the timed ones in one class, graded in the
    sandbox; the timed attackers in a class of their own."""
    base = tmp_path_factory.mktemp("mixed")
    before = leftovers()
    others = sorted(set(ATTACKS) - set(TIMED))
    folder = make_class(base / "class", {**HONEST, **attackers(others, listener, base / "class")})
    timed = make_class(base / "timed", attackers(TIMED, listener, base / "timed"))
    graded = {**grade(workbook, folder, base / "out"),
              **grade(workbook, timed, base / "timed-out", case_seconds=SHORT)}
    return graded, lasting_leftovers(before), (base / "out", base / "timed-out")


@pytest.fixture(scope="module")
def honest_only(workbook, tmp_path_factory):
    base = tmp_path_factory.mktemp("honest")
    return grade(workbook, make_class(base / "class", HONEST), base / "out")


def reason(row):
    """The expectation word that describes how a graded attacker fared."""
    statuses = {status for _, status, _, _ in row["cases"]}
    messages = " ".join(m for *_, m in row["cases"])
    if row["score"] == 1.0:
        return "passes"
    if "importing it took longer than" in row["error"]:
        return "import-timeout"
    if row["error"].startswith("your file could not be imported"):
        return "import-error"
    if "interfered with the grader's result channel" in row["error"]:
        return "channel"
    if "crash" in statuses:
        return "crash"
    if "timeout" in statuses:
        return "timeout"
    if "tried to exit" in messages:
        return "exit"
    if "unsupported" in messages.lower() and statuses == {"error"}:
        return "unsupported"
    if statuses == {"error"}:
        return "error"
    if statuses == {"ok"}:
        return "wrong"
    return f"unclear: {statuses} {messages[:300]}"


def test_there_are_enough_attacks():
    assert len(ATTACKS) >= 25
    assert sum(a["lesson"] == "09-torch-attention" for a in ATTACKS.values()) >= 20   # torch's own
    assert {p.stem for p in HOSTILE.glob("*.py")} == set(ATTACKS)


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_each_attack_is_stopped_with_a_clear_reason(mixed, name):
    graded, *_ = mixed
    attack = ATTACKS[name]
    row = graded[f"x-{name}", lesson_folder(attack)]
    assert reason(row) == attack["expect"], (attack["attack"], row["error"], row["cases"][:3])
    assert row["score"] == (1.0 if attack["expect"] == "passes" else 0.0)
    if row["score"] == 0:
        assert row["error"] or all(message for *_, message in row["cases"])


def test_honest_learners_are_graded_exactly_as_without_attackers(mixed, honest_only):
    graded, *_ = mixed
    assert {k: v for k, v in graded.items() if k[0] in HONEST} == honest_only
    assert honest_only["alice", "01-softmax"]["score"] == 1.0
    assert honest_only["alice", "09-torch-attention"]["score"] == 1.0
    assert 0 < honest_only["bert", "01-softmax"]["score"] < 1


def test_nothing_an_attacker_said_on_a_hidden_case_reaches_any_feedback(mixed):
    """The attackers that put the hidden inputs in their messages, exception class names and last
    words mark them HIDDEN-INPUT-LEAK: no feedback page, results.json or grades.csv holds it."""
    *_, outs = mixed
    files = [p for out in outs for p in out.rglob("*")
             if p.suffix in (".md", ".html", ".json", ".csv")]
    assert files and [p.name for p in files if "HIDDEN-INPUT-LEAK" in p.read_text()] == []


def test_no_process_is_left_behind(mixed):
    _, left, _ = mixed
    assert not left, [Path(f"/proc/{p}/cmdline").read_bytes() for p in left if Path(f"/proc/{p}").exists()]


def test_breaches_succeed_without_the_sandbox(workbook, listener, tmp_path):
    """Each attack that reaches for something the sandbox hides really gets it when unsandboxed:
    every case gives the reference's answer (the lesson's rules may still refuse the file: an
    import of the grader, or code run from a string, breaks a numpy lesson's)."""
    breaches = [name for name, a in ATTACKS.items() if a["breach"]]
    folder = make_class(tmp_path / "class", {"alice": HONEST["alice"],
                                             **attackers(breaches + ["proc_paths"], listener,
                                                         tmp_path / "class")})
    graded = grade(workbook, folder, tmp_path / "out", "--no-sandbox")
    reached = {name: all(passed for _, _, passed, _ in
                         graded[f"x-{name}", lesson_folder(ATTACKS[name])]["cases"])
               for name in breaches}
    assert reached == {name: True for name in breaches}
    seen = graded["x-proc_paths", "09-torch-attention"]["cases"][0][3]
    assert "host paths visible" in seen and str(ROOT) in seen    # the probe can see, where not hidden
