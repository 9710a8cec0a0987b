"""The gradebook survives anything: SIGKILL at any point, a second run at once, a file that is not a
gradebook; a rerun grades only what is missing or changed, and the exports always match it."""
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

from conftest import ROOT, grader
from grader.classroom import gradebook, view
from grader.classroom.gradebook import SCHEMA_VERSION, connect
from mixed_class import MISTAKE, ENDLESS, put

OLD_SCHEMA = """
CREATE TABLE learners (id TEXT PRIMARY KEY);
CREATE TABLE submissions (id INTEGER PRIMARY KEY, learner TEXT NOT NULL REFERENCES learners(id),
    lesson TEXT NOT NULL, path TEXT NOT NULL, sha256 TEXT NOT NULL, UNIQUE (learner, lesson, sha256));
CREATE TABLE results (id INTEGER PRIMARY KEY, submission INTEGER NOT NULL REFERENCES submissions(id),
    score REAL NOT NULL, passed INTEGER NOT NULL, cases_passed INTEGER NOT NULL,
    cases_total INTEGER NOT NULL, error TEXT, violations TEXT NOT NULL, diagnosis TEXT NOT NULL,
    grader_version TEXT NOT NULL, lesson_version TEXT NOT NULL, graded_at TEXT NOT NULL,
    seconds REAL NOT NULL);
CREATE TABLE case_results (result INTEGER NOT NULL REFERENCES results(id), position INTEGER NOT NULL,
    name TEXT NOT NULL, public INTEGER NOT NULL, status TEXT NOT NULL, passed INTEGER NOT NULL,
    message TEXT NOT NULL, PRIMARY KEY (result, position));
"""
# What each migration added, undone newest first, to make a gradebook of an older schema
UNDO = {5: "DROP TABLE roster;",
        6: "ALTER TABLE lessons DROP COLUMN points; ALTER TABLE lessons DROP COLUMN rule;",
        7: "DROP TABLE extensions; ALTER TABLE lessons DROP COLUMN due; ALTER TABLE lessons DROP "
           "COLUMN late; ALTER TABLE submissions DROP COLUMN handed_in; ALTER TABLE submissions "
           "DROP COLUMN handed_in_from;",
        8: "DROP TABLE overrides; DROP TABLE comments;",
        9: "DROP TABLE mistake_notes;",
        10: "ALTER TABLE case_results DROP COLUMN output;",
        11: "DROP TABLE releases; ALTER TABLE lessons DROP COLUMN held;",
        12: "DROP TABLE published; DROP TABLE export_settings; ALTER TABLE lessons DROP COLUMN "
            "never_lower;"}
EMPTY_LEARNERS = 150     # learners with nothing handed in: cheap to grade, slow enough to export


def small_class(cls, workbook):
    soft = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()
    put(cls / "alice" / "01-softmax" / "solution.py", soft)
    put(cls / "alice" / "02-attention" / "solution.py",
        (ROOT / "solutions" / "02-attention" / "solution.py").read_text())
    put(cls / "bob" / "01-softmax.py", MISTAKE)
    shutil.copytree(workbook / "exercises" / "01-softmax", cls / "carol" / "01-softmax")
    put(cls / "dave" / "01-softmax" / "solution.py", "def softmax(x, axis=-1)\n    return x\n")
    put(cls / "erin" / "softmax.py", soft)
    put(cls / "fred" / "01_softmax.py", soft.replace("np.max", "np.amax"))
    for i in range(EMPTY_LEARNERS):
        (cls / f"z{i:03d}").mkdir()
    return cls


def start(workbook, cls, out, *extra):
    return subprocess.Popen([sys.executable, "-m", "grader", "grade", str(cls), "--lessons", "01,02",
                             "--out", str(out), "--jobs", "1", "--no-sandbox", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=workbook, env={**os.environ, "WORKBOOK_ROOT": str(workbook)})


def older(version):
    """The statements that take a gradebook of this schema back to schema `version`."""
    return "".join(UNDO[v] for v in sorted(UNDO, reverse=True) if v > version)


def results(out):
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        return db.execute("SELECT COUNT(*) FROM results").fetchone()[0]


def graded_any(out):
    try:
        return results(out) > 0
    except sqlite3.Error:       # the gradebook is being made
        return False


def kill_when(proc, ready):
    """SIGKILL `proc` as soon as `ready()` holds; whether it was still running then."""
    while proc.poll() is None:
        try:
            if ready():
                proc.kill()
                break
        except sqlite3.Error:
            pass
        time.sleep(0.002)
    proc.communicate(timeout=60)
    return proc.returncode == -signal.SIGKILL


def exports(out):
    """Every exported file's bytes, by path."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.parent != out or p.name == "grades.csv"}


def current(out):
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        return db.execute(
            "SELECT c.learner, c.lesson, r.score, r.error, r.diagnosis, "
            "GROUP_CONCAT(cr.passed || cr.verdict, '|') FROM current c JOIN results r "
            "ON r.id = c.result LEFT JOIN case_results cr ON cr.result = r.id "
            "GROUP BY c.learner, c.lesson ORDER BY c.learner, c.lesson").fetchall()


def test_sigkill_at_any_point_loses_nothing_and_the_rerun_matches_an_uninterrupted_run(
        workbook, tmp_path):
    cls = small_class(tmp_path / "class", workbook)
    reference = tmp_path / "reference"
    done = start(workbook, cls, reference)
    assert done.wait(timeout=300) == 0, done.stdout.read()
    out = tmp_path / "out"
    kills = [
        ("early", lambda: (out / "gradebook.sqlite").exists()),
        ("halfway", lambda: results(out) >= 3),
        ("during the exports", lambda: len(list((out / "feedback").glob("*.md"))) >= 20),
    ]
    killed = []
    for name, ready in kills:
        if kill_when(start(workbook, cls, out), ready):
            killed.append(name)
    # Kill a rerun again mid-export, after wiping the exports, so a partial set is on disk.
    shutil.rmtree(out / "feedback")
    if kill_when(start(workbook, cls, out), lambda: len(list((out / "feedback").glob("*"))) >= 4):
        killed.append("exports of a rerun")
    assert killed == [name for name, _ in kills] + ["exports of a rerun"]
    final = start(workbook, cls, out)
    output, _ = final.communicate(timeout=300)
    assert final.returncode == 0, output
    assert current(out) == current(reference)
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        per_job = db.execute("SELECT s.learner, s.lesson, COUNT(*) FROM results r JOIN submissions "
                             "s ON s.id = r.submission GROUP BY 1, 2").fetchall()
    assert len(per_job) == 7 and all(n == 1 for *_, n in per_job), per_job   # none graded twice
    assert exports(out) == exports(reference)
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["learner", "01-softmax", "02-attention", "total"]
    assert len(rows) == 1 + 6 + EMPTY_LEARNERS and rows[1] == ["alice", "1", "1", "2"]


def test_a_rerun_grades_only_what_changed(workbook, tmp_path):
    cls = small_class(tmp_path / "class", workbook)
    out = tmp_path / "out"
    args = ("grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox", "--jobs", "2")
    first = grader(workbook, *args)
    assert first.returncode == 0 and "Graded 6 submissions from 156 learners" in first.stdout
    again = grader(workbook, *args)
    assert again.returncode == 0, again.stdout
    assert "Nothing to grade: all 6 submissions from 156 learners are unchanged" in again.stdout
    assert results(out) == 6
    (cls / "bob" / "01-softmax.py").write_text((ROOT / "solutions" / "01-softmax" /
                                                "solution.py").read_text())
    changed = grader(workbook, *args)
    assert "Graded 1 submission from 156 learners" in changed.stdout
    assert "5 unchanged since they were graded" in changed.stdout
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        history = db.execute("SELECT r.score, r.id = c.result FROM results r JOIN submissions s ON "
                             "s.id = r.submission JOIN current c ON c.learner = s.learner AND "
                             "c.lesson = s.lesson WHERE s.learner = 'bob' ORDER BY r.id").fetchall()
    assert len(history) == 2 and history[1] == (1.0, 1) and history[0][1] == 0
    assert "bob,1," in (out / "grades.csv").read_text("utf-8-sig")
    regrade = grader(workbook, *args, "--regrade")
    assert "Graded 6 submissions" in regrade.stdout and results(out) == 13


def test_grading_one_lesson_then_another_keeps_both_columns(workbook, tmp_path):
    cls = small_class(tmp_path / "class", workbook)
    out = tmp_path / "out"
    for lesson in ("01", "02"):
        done = grader(workbook, "grade", str(cls), "--lessons", lesson, "--out", str(out),
                      "--no-sandbox")
        assert done.returncode == 0, done.stdout
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["learner", "01-softmax", "02-attention", "total"]
    assert rows[1] == ["alice", "1", "1", "2"] and rows[2][:3] == ["bob", rows[2][1], ""]
    assert 0 < float(rows[2][1]) < 1


def test_a_second_run_on_the_same_gradebook_is_refused_while_the_first_runs(workbook, tmp_path):
    cls = tmp_path / "class"
    put(cls / "a-fast" / "01-softmax" / "solution.py",
        (ROOT / "solutions" / "01-softmax" / "solution.py").read_text())
    for i in range(8):
        put(cls / f"slow{i}" / "01-softmax" / "solution.py", ENDLESS)
    out = tmp_path / "out"
    # once a-fast is graded, the first run is in an endless loop for its whole job time, so it
    # is still running when the second starts, however slow the machine
    first = start(workbook, cls, out, "--case-seconds", "600")
    try:
        while not (out / "gradebook.sqlite").exists() or not graded_any(out):
            assert first.poll() is None
            time.sleep(0.01)
        second = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(out),
                        "--no-sandbox")
        assert first.poll() is None, "the first run ended before the second started"
    finally:
        first.send_signal(signal.SIGINT)
        output, _ = first.communicate(timeout=120)
    assert second.returncode == 2 and "Traceback" not in second.stdout + second.stderr
    assert f"another `grader grade` (process {first.pid}) is grading into" in second.stdout
    assert first.returncode == 130, output
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        rows = db.execute("SELECT s.learner, COUNT(*) FROM results r JOIN submissions s "
                          "ON s.id = r.submission GROUP BY 1").fetchall()
        assert all(n == 1 for _, n in rows)
        assert db.execute("SELECT COUNT(*) FROM current").fetchone()[0] == len(rows)


@pytest.mark.parametrize("kind", ["not sqlite", "foreign", "newer"])
def test_a_file_that_is_not_this_gradebook_is_refused_untouched(workbook, tmp_path, kind):
    cls = small_class(tmp_path / "class", workbook)
    out = tmp_path / "out"
    out.mkdir()
    book = out / "gradebook.sqlite"
    if kind == "not sqlite":
        book.write_text("learner,score\nalice,1\n")
    else:
        with sqlite3.connect(book) as db:
            db.execute("CREATE TABLE orders (id INTEGER)" if kind == "foreign"
                       else "PRAGMA user_version = 99")
            if kind == "newer":
                db.executescript(OLD_SCHEMA)
    before = book.read_bytes()
    done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox")
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert "it was left untouched" in done.stdout
    assert {"not sqlite": "is not an SQLite gradebook", "foreign": "but not a gradebook",
            "newer": "written by a newer grader"}[kind] in done.stdout
    assert book.read_bytes() == before and not (out / "grades.csv").exists()


def test_a_gradebook_of_the_second_schema_gains_notes_and_keeps_its_results(tmp_path):
    path = tmp_path / "gradebook.sqlite"
    gradebook.connect(path).close()
    with closing(sqlite3.connect(path)) as db, db:      # as the second schema left it
        db.executescript(older(4) + "ALTER TABLE results DROP COLUMN notes; "
                         "ALTER TABLE learners DROP COLUMN withdrawn; PRAGMA user_version = 2;"
                         "INSERT INTO learners VALUES ('ann');"
                         "INSERT INTO lessons VALUES ('01-softmax', 1, 'Softmax', 'v', '[]');"
                         "INSERT INTO submissions VALUES (1, 'ann', '01-softmax', 'a.py', 'aa');"
                         "INSERT INTO results (id, submission, score, passed, cases_passed, "
                         "cases_total, violations, diagnosis, grader_version, lesson_version, "
                         "graded_at, seconds) VALUES (1, 1, 0.5, 0, 1, 2, '[]', '[]', 'g', 'v', "
                         "'t', 0.1);"
                         "INSERT INTO current VALUES ('ann', '01-softmax', 1);")
    with closing(gradebook.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == gradebook.SCHEMA_VERSION
        cur = view.load(db).current["ann", "01-softmax"]
    assert (cur.score, cur.notes) == (0.5, [])


def test_a_gradebook_of_the_first_schema_is_migrated_with_its_history(workbook, tmp_path):
    cls = small_class(tmp_path / "class", workbook)
    out = tmp_path / "out"
    out.mkdir()
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        db.executescript(OLD_SCHEMA)
        db.execute("INSERT INTO learners VALUES ('gone')")
        db.execute("INSERT INTO submissions VALUES (1, 'gone', '01-softmax', 'x.py', 'abc')")
        db.execute("INSERT INTO results VALUES (1, 1, 0.5, 0, 1, 2, NULL, '[]', '[]', 'old', "
                   "'old', 't', 0.1)")
        db.execute("INSERT INTO case_results VALUES (1, 0, 'hidden one', 0, 'ok', 0, 'expected 7')")
    done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox")
    assert done.returncode == 0, done.stdout
    with sqlite3.connect(out / "gradebook.sqlite") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == gradebook.SCHEMA_VERSION
        assert db.execute("SELECT result FROM current WHERE learner = 'gone'").fetchone() == (1,)
    assert "gone,0.5,0.5" in (out / "grades.csv").read_text("utf-8-sig")
    assert "expected 7" not in (out / "feedback" / "gone.html").read_text()


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_a_full_disk_stops_with_a_clear_message_and_a_consistent_gradebook(workbook, tmp_path):
    cls = small_class(tmp_path / "class", workbook)
    out = tmp_path / "full"
    out.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", str(out)],
                             capture_output=True)
    if mounted.returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        done = grader(workbook, "grade", str(cls), "--lessons", "01,02", "--out", str(out),
                      "--no-sandbox", "--jobs", "1")
        assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr, done.stdout
        assert "is full" in done.stdout and "run again" in done.stdout
        with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            kept = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
            assert db.execute("SELECT COUNT(*) FROM current").fetchone()[0] == kept
        saved = tmp_path / "saved"
        shutil.copytree(out, saved)
    finally:
        subprocess.run(["umount", "--lazy", str(out)], check=True)
    again = grader(workbook, "grade", str(cls), "--lessons", "01,02", "--out", str(saved),
                   "--no-sandbox")
    assert again.returncode == 0, again.stdout
    assert results(saved) == kept + (7 - kept) and "alice,1,1,2" in (saved / "grades.csv").read_text()


def test_a_gradebook_of_schema_4_gains_an_empty_roster(tmp_path):
    path = tmp_path / "gradebook.sqlite"
    connect(path).close()
    with closing(sqlite3.connect(path)) as db, db:
        db.executescript(older(4) + "PRAGMA user_version = 4; INSERT INTO learners VALUES ('ada', NULL);")
    with closing(connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT id FROM learners").fetchall() == [("ada",)]
        assert db.execute("SELECT * FROM roster").fetchall() == []


def rows(path, skip=()):
    """Every row of every table of the gradebook at `path`, by table (`skip`: tables left out)."""
    with closing(sqlite3.connect(path)) as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                  if t not in skip]
        return {t: sorted(db.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}


def test_a_graded_gradebook_of_schema_11_keeps_every_result_and_gains_published_points(
        lesson_sources, tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    put(cls / "alice" / "01-softmax.py", (ROOT / "solutions" / "01-softmax" / "solution.py")
        .read_text())
    put(cls / "bob" / "01-softmax.py", MISTAKE)
    run = ["grade", str(cls), "--lessons", "01", "--out", str(out), "--no-sandbox", "--jobs", "1"]
    assert grader(lesson_sources, *run).returncode == 0
    assert grader(lesson_sources, "override", "bob", "01", "--score", "0.5", "--out",
                  str(out)).returncode == 0
    book = out / "gradebook.sqlite"
    with closing(sqlite3.connect(book)) as db, db:
        db.executescript(older(11) + "PRAGMA user_version = 11;")
    kept = rows(book)
    again = grader(lesson_sources, *run)
    assert again.returncode == 0 and "Nothing to grade" in again.stdout, again.stdout
    migrated = rows(book, skip=("published", "export_settings"))
    assert [r[:-1] for r in migrated.pop("lessons")] == kept.pop("lessons")   # never_lower: 0
    assert migrated == kept
    with closing(sqlite3.connect(book)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 12
        assert sorted(db.execute("SELECT learner, points FROM published")) == [("alice", 1.0),
                                                                               ("bob", 0.5)]


def test_a_gradebook_of_schema_3_is_migrated_and_keeps_its_learners(tmp_path):
    path = tmp_path / "gradebook.sqlite"
    connect(path).close()
    with closing(sqlite3.connect(path)) as db, db:        # what schema 3 was
        db.executescript(older(4) + "ALTER TABLE learners DROP COLUMN withdrawn; "
                         "PRAGMA user_version = 3;"
                         "INSERT INTO learners VALUES ('ada');")
    with closing(connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT id, withdrawn FROM learners").fetchall() == [("ada", None)]


@pytest.mark.slow
def test_a_learner_whose_folder_is_gone_is_marked_withdrawn_or_dropped_and_kept(workbook,
                                                                                tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    soft = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()
    for name in ("alice", "Zoë"):
        put(cls / name / "01-softmax.py", soft)

    def run(*extra):
        done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(out),
                      "--no-sandbox", "--jobs", "1", *extra)
        assert done.returncode == 0, done.stdout + done.stderr
        raw = (out / "grades.csv").read_bytes()
        assert raw.startswith(b"\xef\xbb\xbf")         # the BOM: Excel reads UTF-8 names right
        return done.stdout, raw.decode("utf-8-sig").splitlines()
    assert run()[1] == ["learner,01-softmax,total", "Zoë,1,1", "alice,1,1"]
    shutil.rmtree(cls / "Zoë")
    said, rows = run()
    assert rows == ["learner,01-softmax,total,status", "Zoë,1,1,withdrawn", "alice,1,1,"]
    assert "No folder in the class any more for 1 learner of the gradebook: marked withdrawn in " \
           "grades.csv (--drop leaves them out); their results stay in the gradebook: Zoë" in said
    said, rows = run("--drop")
    assert rows == ["learner,01-softmax,total", "alice,1,1"] and "left out of the exports" in said
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:    # history kept
        assert db.execute("SELECT COUNT(*) FROM current WHERE learner = 'Zoë'").fetchone() == (1,)
        assert db.execute("SELECT withdrawn IS NOT NULL FROM learners WHERE id = 'Zoë'"
                          ).fetchone() == (1,)
    put(cls / "Zoë" / "01-softmax.py", soft)                          # back in the class
    assert run()[1] == ["learner,01-softmax,total", "Zoë,1,1", "alice,1,1"]
