"""`grader cluster LESSON --promote K --name NAME [--message TEXT]` writes cluster K's answer into
a copy of the lesson's mistakes.py as an entry that `grader verify` accepts once its message is in
(at once with --message), and the cluster's note goes with the new mistake after a regrade; bad
input is refused with the file and the gradebook untouched; SIGKILL at any moment loses nothing."""
import csv
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

import pytest

from cluster_class import FILES, ROOTED, UNIFORM, copied, grade, graded_once, write_class
from conftest import grader

MESSAGE = ("Your softmax gives every entry the same weight, 1/n, whatever the logits: it never "
           "reads x. Exponentiate the shifted logits and divide by their sum along `axis`.")
NOTE = "Every row must depend on its own logits"


@pytest.fixture(scope="module")
def graded(lesson_sources, tmp_path_factory):
    """cluster_class's class graded into a gradebook; tests copy it."""
    return graded_once(lesson_sources, tmp_path_factory)


def sources_copy(lesson_sources, tmp_path):
    root = tmp_path / "workbook"
    shutil.copytree(lesson_sources, root)
    return root


def mistakes_of(root):
    return root / "solutions" / "01-softmax" / "mistakes.py"


def book(out):
    """What the gradebook holds: every result, the current ones and the notes."""
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return [db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in ("results", "case_results", "current", "mistake_notes")]


def test_a_promoted_cluster_is_a_mistake_verify_accepts_once_its_message_is_in(workbook, graded,
                                                                              tmp_path):
    cls, out = copied(graded, tmp_path)
    path = mistakes_of(workbook)
    before = path.read_text()
    assert grader(workbook, "comment", "--mistake", f"01:cluster:{cluster_ids(workbook, out)[0]}",
                  NOTE, "--out", str(out)).returncode == 0
    done = grader(workbook, "cluster", "01", "--promote", "1", "--name", "uniform-weights",
                  "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "from cluster:" in done.stdout and "cat's file" in done.stdout
    text = path.read_text()
    assert text.startswith(before.rstrip("\n")) and "return np.full(x.shape" in text
    checked = grader(workbook, "verify", "01")
    assert checked.returncode == 1 and "mistake 'uniform-weights' has no message" in checked.stdout
    path.write_text(text.replace("message=None)", f'message="""{MESSAGE}""")'))
    checked = grader(workbook, "verify", "01")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    grade(workbook, cls, out)
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        notes = {r["learner"]: r["instructor notes"] for r in csv.DictReader(f)}
    assert {l for l, n in notes.items() if f"on uniform-weights: {NOTE}" in n} == set(UNIFORM)


def test_with_a_message_the_promoted_mistake_verifies_at_once(workbook, graded, tmp_path):
    _, out = copied(graded, tmp_path)
    second = cluster_ids(workbook, out)[1]
    done = grader(workbook, "cluster", "01", "--promote", second, "--name", "rooted-softmax",
                  "--message", "You return the square root of the softmax. " * 3, "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{sorted(ROOTED)[0]}'s file" in done.stdout
    checked = grader(workbook, "verify", "01")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def cluster_ids(root, out):
    done = grader(root, "cluster", "01", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    return [w.removeprefix("cluster:") for w in done.stdout.split() if w.startswith("cluster:")][:2]


@pytest.mark.parametrize("args, words", [
    (["01", "--promote", "9", "--name", "x"], "has no cluster '9'; its clusters: 1 cluster:"),
    (["01", "--promote", "cluster:0000abcd", "--name", "x"], "has no cluster 'cluster:0000abcd'"),
    (["01", "--promote", "1", "--name", "no-max-shift"], "named 'no-max-shift' already"),
    (["01", "--promote", "1", "--name", "two words"], "a mistake's id is letters, digits"),
    (["01", "--promote", "1", "--name", "x", "--message", "  "], "--message is empty"),
    (["01", "--promote", "1"], "--promote K needs --name NAME"),
    (["01", "--name", "x"], "--name and --message go with --promote K"),
    (["02", "--promote", "1", "--name", "x"], "lesson 02-attention was never graded"),
    (["nope", "--promote", "1", "--name", "x"], "There is no lesson named 'nope'"),
    (["01", "--promote", "1", "--name", "x", "--out", "{nowhere}"], "there is no gradebook in"),
])
def test_a_bad_promotion_is_refused_leaving_the_file_and_the_gradebook_as_they_were(
        lesson_sources, graded, tmp_path, args, words):
    root, (_, out) = sources_copy(lesson_sources, tmp_path), copied(graded, tmp_path)
    files, held = sorted(os.listdir(mistakes_of(root).parent)), mistakes_of(root).read_bytes()
    before = book(out)
    args = [a.format(nowhere=tmp_path / "nowhere") for a in args]
    done = grader(root, "cluster", *args, *([] if "--out" in args else ["--out", str(out)]))
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert words in done.stdout + done.stderr, done.stdout + done.stderr
    assert mistakes_of(root).read_bytes() == held
    assert sorted(os.listdir(mistakes_of(root).parent)) == files
    assert book(out) == before


def test_a_file_changed_since_grading_is_passed_over_for_one_still_as_graded(lesson_sources,
                                                                            tmp_path):
    root, cls, out = sources_copy(lesson_sources, tmp_path), tmp_path / "class", tmp_path / "out"
    write_class(cls, {learner: FILES[learner] for learner in UNIFORM})
    grade(root, cls, out)
    held = mistakes_of(root).read_bytes()
    first, second = (cls / learner / "01-softmax.py" for learner in UNIFORM)
    first.write_text(first.read_text() + "# changed\n")
    done = grader(root, "cluster", "01", "--promote", "1", "--name", "x", "--out", str(out))
    assert done.returncode == 0 and f"{UNIFORM[1]}'s file" in done.stdout, done.stdout
    assert "np.ones_like(x)" in mistakes_of(root).read_text()
    mistakes_of(root).write_bytes(held)
    second.unlink()
    done = grader(root, "cluster", "01", "--promote", "1", "--name", "x", "--out", str(out))
    assert done.returncode == 2 and "is still the one that was graded" in done.stdout
    assert mistakes_of(root).read_bytes() == held


def started(root, *args):
    env = {**os.environ, "WORKBOOK_ROOT": str(root)}
    return subprocess.Popen([sys.executable, "-m", "grader", *args], env=env, cwd=root,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_sigkill_during_a_promotion_or_a_cluster_note_loses_nothing(lesson_sources, graded,
                                                                    tmp_path):
    """Whenever the kill lands, mistakes.py is the old file or the whole new one, and the gradebook
    holds every result it held, with the note recorded whole or not at all."""
    whole_root, (_, whole_out) = sources_copy(lesson_sources, tmp_path / "whole"), \
        copied(graded, tmp_path / "whole")
    cid = cluster_ids(whole_root, whole_out)[0]
    old = mistakes_of(whole_root).read_text()
    promote = ["cluster", "01", "--promote", "1", "--name", "uniform", "--message", MESSAGE]
    comment = ["comment", "--mistake", f"01:cluster:{cid}", NOTE]
    assert grader(whole_root, *comment, "--out", str(whole_out)).returncode == 0
    assert grader(whole_root, *promote, "--out", str(whole_out)).returncode == 0
    new, noted = mistakes_of(whole_root).read_text(), book(whole_out)[3]
    for n, delay in enumerate((0.1, 0.5, 0.9)):
        root, (_, out) = sources_copy(lesson_sources, tmp_path / str(n)), \
            copied(graded, tmp_path / str(n))
        results = book(out)[:3]
        for args in (comment, promote):
            proc = started(root, *args, "--out", str(out))
            time.sleep(delay)
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
            assert mistakes_of(root).read_text() in (old, new)
            now = book(out)
            assert now[:3] == results
            assert [row[1:5] for row in now[3]] == [row[1:5] for row in noted][:len(now[3])]
