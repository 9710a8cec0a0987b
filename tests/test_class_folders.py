"""Class folders as hostile or careless learners hand them in: links out of their folders, names of
every kind, deep nesting, files far too large to read, malformed notebooks, thousands of copies.
Discovery reads only the regular files inside each learner's folder and never follows a link; it
stays linear and bounded whatever the folder holds, and the exports are always written."""
import hashlib
import json
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from conftest import ROOT, grader
from mixed_class import MISTAKE, put
from grader.classroom import exports
from grader.classroom.gradebook import Gradebook
from grader.classroom.jobs import Graded, result_row
from grader.classroom.submissions import Matcher, discover
from grader.judge.grade import Result, read_source
from grader.lessons import lesson as lessons_, roadmap

SOFT = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()
ATT = (ROOT / "solutions" / "02-attention" / "solution.py").read_text()
ROAD = roadmap.load(ROOT)
L01, L02 = lessons_.load(ROAD, "01"), lessons_.load(ROAD, "02")
KNOWN = [e.id for e in ROAD.entries if ROAD.available(e)]
SECRET = "the instructor's secret\n"


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def linked_class(tmp_path, lesson_sources):
    """alice hands in her own work; every other learner links to the reference, to alice's work
    or to a file outside the class, in one of the ways a folder can hold a link."""
    cls, solutions = tmp_path / "class", lesson_sources / "solutions"
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    put(cls / "alice" / "01-softmax" / "solution.py", SOFT)
    put(cls / "alice" / "02-attention" / "solution.py", ATT)
    (cls / "eve").symlink_to(solutions)                                   # the folder itself
    (cls / "mallory").symlink_to(cls / "alice")                           # a peer's folder
    (cls / "ned").mkdir()
    (cls / "ned" / "01-softmax").symlink_to(solutions / "01-softmax")     # a lesson folder
    (cls / "ned" / "02-attention").symlink_to(cls / "alice" / "02-attention")
    (cls / "oscar" / "01-softmax").mkdir(parents=True)
    (cls / "oscar" / "01-softmax" / "solution.py").symlink_to(solutions / "01-softmax" /
                                                              "solution.py")   # a file
    (cls / "oscar" / "02-attention.py").symlink_to(secret)                # a file outside
    (cls / "pat").mkdir()
    (cls / "pat" / "solution.py").symlink_to(solutions / "01-softmax" / "solution.py")
    (cls / "pat" / "stuff").symlink_to(solutions)                         # names no lesson
    return cls


@pytest.mark.slow
def test_links_out_of_a_learners_folder_score_0_are_named_and_never_read(lesson_sources, tmp_path):
    cls, out = linked_class(tmp_path, lesson_sources), tmp_path / "out"
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01,02", "--out", str(out),
                  "--no-sandbox", "--jobs", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = (out / "grades.csv").read_text("utf-8-sig").splitlines()
    assert rows == ["learner,01-softmax,02-attention,total", "alice,1,1,2", "eve,0,0,0",
                    "mallory,0,0,0", "ned,0,0,0", "oscar,0,0,0", "pat,,,0"]
    summary = done.stdout[done.stdout.index("Links not followed"):]
    for link in ["eve", "mallory", "ned/01-softmax", "ned/02-attention",
                 "oscar/01-softmax/solution.py", "oscar/02-attention.py", "pat/solution.py",
                 "pat/stuff"]:
        assert f"{link} -> " in summary, link
    with closing(sqlite3.connect(out / "gradebook.sqlite")) as db:
        hashes = {h for (h,) in db.execute("SELECT sha256 FROM submissions")}
        errors = {l: e for l, e in db.execute("SELECT s.learner, r.error FROM results r JOIN "
                                              "submissions s ON s.id = r.submission")}
    read = {h for h in hashes if not h.startswith("refused:")}       # a refusal stands for a link
    assert read - {"unreadable"} == {sha(SOFT), sha(ATT)}            # alice's two files only
    assert all("symbolic link" in e for l, e in errors.items() if l != "alice")
    page = (out / "feedback" / "mallory.md").read_text()
    assert "is a symbolic link" in page and "links are not followed" in page


def test_the_gradescope_route_takes_submissions_the_same_way(lesson_sources, tmp_path):
    """run_autograder grades /autograder/submission as one learner: a link in it to the bundle's
    own solutions is refused, named, and scores 0."""
    from grader.classroom import autograder
    root = tmp_path / "autograder"
    (root / "source").mkdir(parents=True)
    (root / "source" / "solutions").symlink_to(lesson_sources / "solutions")
    (root / "source" / "autograder.json").write_text(json.dumps(
        {"lessons": ["01-softmax"], "hidden_cases": "after_published"}))
    (root / "submission").mkdir()
    (root / "submission" / "01-softmax").symlink_to(root / "source" / "solutions" / "01-softmax")
    data = grade_unsandboxed(autograder, root)
    assert data["score"] == 0
    assert "symbolic link" in json.dumps(data)


def grade_unsandboxed(autograder, root):
    """The autograder's own grading, without bubblewrap (the test checks what it reads, not how
    the child is confined)."""
    from grader.classroom import classgrade
    real = classgrade.grade_class

    def unsandboxed(*args, **kwargs):
        return real(*args, **{**kwargs, "sandboxed": False})
    autograder.grade_class = unsandboxed
    try:
        return autograder.grade(root)
    finally:
        autograder.grade_class = real


def test_a_file_swapped_after_discovery_is_refused_not_followed(lesson_sources, tmp_path):
    """Discovery lists a learner's files; a file replaced before it is read (by a link, or by a
    hard link to the reference) is refused, so what is graded is what was listed."""
    from grader.classroom import jobs
    cls = tmp_path / "class"
    put(cls / "bob" / "01-softmax" / "solution.py", MISTAKE)
    put(cls / "bob" / "02-attention" / "solution.py", "def attention(q, k, v, mask=None):\n"
                                                       "    return q\n")
    _, subs, _ = discover(cls, [L01, L02], KNOWN)
    first, second = sorted(subs, key=lambda s: s.lesson.id)
    target = cls / "bob" / "01-softmax" / "solution.py"
    reference = tmp_path / "reference.py"       # linked to, so a copy: the fixture stays as it is
    shutil.copyfile(lesson_sources / "solutions" / "01-softmax" / "solution.py", reference)
    os.unlink(target)                           # (after the copy: it may not reuse bob's inode)
    os.link(reference, target)                                                        # a hard link
    folder = cls / "bob" / "02-attention"
    folder.rename(cls / "bob" / "elsewhere")
    folder.symlink_to(lesson_sources / "solutions" / "02-attention")                 # a linked folder
    for s in (first, second):
        graded, _ = jobs.grade_job(s, None, None)
        assert graded.row["score"] == 0 and graded.row["error"], graded.row
        assert "after it was found" in graded.row["error"]


@pytest.mark.slow
def test_the_newest_of_thousands_of_copies_is_graded_in_linear_time_and_memory(tmp_path):
    """Two thousand files claim one lesson: one is graded, each other is noted once, and no note
    lists the others (the notes grow with the files, not with their square)."""
    cls, n = tmp_path / "class", 2000
    for k in range(n):
        put(cls / "copycat" / f"try{k}" / "01-softmax.py", MISTAKE + f"# {k}\n")
    newest = cls / "copycat" / "try1234" / "01-softmax.py"
    os.utime(newest, (2e9, 2e9))
    _, subs, notes = discover(cls, [L01], KNOWN)
    assert [s.path for s in subs] == [newest]
    mine = [u for u in notes if u.lesson == "01-softmax" and u.path]
    assert len(mine) == n - 1
    assert sum(len(u.reason) for u in mine) < 200 * n


@pytest.mark.slow
def test_files_far_larger_than_a_submission_are_refused_before_they_are_read(lesson_sources, tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    (cls / "huge" / "01-softmax").mkdir(parents=True)
    for path in (cls / "huge" / "01-softmax" / "solution.py", cls / "huge" / "solution.py",
                 cls / "huge" / "02-attention.ipynb"):
        with open(path, "wb") as f:
            f.truncate(64 << 30)            # 64 GiB, sparse: nothing on the disk
    done = grader(lesson_sources, "grade", str(cls), "--lessons", "01,02", "--out", str(out),
                  "--no-sandbox", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (out / "grades.csv").read_text("utf-8-sig").splitlines()[1:] == ["huge,0,0,0"]
    page = (out / "feedback" / "huge.md").read_text()
    assert "larger than 1,024 KiB" in page and "larger than 16,384 KiB" in page


NOTEBOOKISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3), max_leaves=8)
CELL = st.fixed_dictionaries({"cell_type": st.sampled_from(["code", "markdown", 3, None])},
                             optional={"source": NOTEBOOKISH | st.lists(st.text(max_size=10)),
                                       "metadata": NOTEBOOKISH | st.fixed_dictionaries(
                                           {"nbgrader": NOTEBOOKISH})})
NOTEBOOK = (st.fixed_dictionaries({"cells": st.lists(CELL | NOTEBOOKISH, max_size=4)},
                                  optional={"nbformat": NOTEBOOKISH}) | NOTEBOOKISH)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(NOTEBOOK, min_size=1, max_size=3))
def test_a_malformed_notebook_gets_a_reason_of_its_own(tmp_path, notebooks):
    """Bare notebooks (read by their content to find their lesson) and lesson notebooks of any
    shape: discovery never fails; each is graded, or noted with a reason naming it."""
    cls = tmp_path / f"class{len(list(tmp_path.iterdir()))}"
    for k, nb in enumerate(notebooks):
        put(cls / f"l{k}" / "solution.ipynb", json.dumps(nb))
        put(cls / f"l{k}" / "02-attention.ipynb", json.dumps(nb))
    learners, subs, notes = discover(cls, [L01, L02], KNOWN)
    assert len(learners) == len(notebooks)
    for k in range(len(notebooks)):
        assert any(s.learner == f"l{k}" and s.lesson.id == "01-softmax" for s in subs) or any(
            u.learner == f"l{k}" and u.path == f"l{k}/solution.ipynb" for u in notes)
        try:
            read_source(cls / f"l{k}" / "02-attention.ipynb")      # what grading reads of it
        except (ValueError, SyntaxError) as exc:
            assert str(exc.msg if isinstance(exc, SyntaxError) else exc)


# ---- generated class folders, through discovery and the exports ----

HOSTILE = ["=HYPERLINK(\"http://x\")", "+cmd|' /C calc'!A0", "\x1b]52;c;ZXZpbA==\x07zoe",
           "\x1b[2J\x1b[Hclear", "<img src=http://x/p.png>", "# heading", "Zoë", "ZOË", "zoë",
           "mary ann", "con", "a" * 250, "é" * 120, "-rf", "..", "a\nb", "[link](http://x)"]
NAMES = st.sampled_from(["01-softmax.py", "01-softmax (1).py", "01_Softmax_v2.py",
                         "01-softmax.PY", "solution.py", "softmax.py", "attention.py",
                         "02-attention.ipynb", "solution.ipynb", "notes.txt", "work.zip",
                         "01-softmax", "02-attention", "exercises", "sub"]) | st.sampled_from(
    HOSTILE) | st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\0"),
                       min_size=1, max_size=12)
CONTENT = st.sampled_from([SOFT, MISTAKE, ATT, "def softmax(x):\n    return x\n", "", "(((",
                           '{"cells": [{"cell_type": "code", "source": 5}]}'])
LINK_TO = st.sampled_from(["solutions", "solution file", "peer", "secret", "nowhere", "self",
                           "parent"])


def fs_name(name):
    """A name the file system takes: no dots alone, at most 255 bytes."""
    name = name.replace("/", "_").replace("\0", "_")
    if name in (".", ".."):
        name = name + "x"
    while len(os.fsencode(name)) > 255:
        name = name[:-1]
    return name or "x"


ITEM = st.tuples(st.lists(NAMES, min_size=1, max_size=4),
                 st.sampled_from(["file", "file", "file", "huge", "link", "fifo"]),
                 CONTENT, LINK_TO)
LEARNER = st.tuples(NAMES, st.lists(ITEM, max_size=6), st.booleans())


def build(cls, learners, lesson_sources, outside):
    """Write the generated class; returns the learners' folder names (none named like a lesson,
    which would make the class folder one learner's)."""
    names, lesson_like = [], Matcher([L01, L02], KNOWN).by_name
    for name, items, linked in learners:
        name = fs_name(name)
        if name.startswith((".", "_")) or name in names or lesson_like(name) or name == "exercises":
            continue
        folder = cls / name
        names.append(name)
        if linked:
            folder.symlink_to(lesson_sources / "solutions" if len(names) % 2 else cls / names[0],
                              target_is_directory=True)
            continue
        folder.mkdir()
        for parts, kind, content, target in items:
            path = folder.joinpath(*map(fs_name, parts))
            if any(p.is_symlink() or p.exists() and not p.is_dir()
                   for p in path.parents if p.is_relative_to(folder)):
                continue        # never write through a link the class already holds
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                if path.exists() or path.is_symlink():
                    continue
                if kind == "file":
                    path.write_text(content)
                elif kind == "huge":
                    with open(path, "wb") as f:
                        f.truncate(3 << 30)
                elif kind == "fifo":
                    os.mkfifo(path)
                else:
                    path.symlink_to({"solutions": lesson_sources / "solutions",
                                     "solution file": lesson_sources / "solutions" / "01-softmax" /
                                     "solution.py", "peer": cls / names[0], "secret": outside,
                                     "nowhere": cls / "gone", "self": path,
                                     "parent": folder}[target])
            except (NotADirectoryError, FileExistsError, OSError):
                continue        # a name already taken by a file: as a learner's disk would refuse
    return names


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(st.lists(LEARNER, min_size=1, max_size=5))
@example([("solution.py", [(["venv", "01-softmax.py"], "file", SOFT, "solutions")], False)])
def test_any_class_folder_is_read_safely_and_always_exported(tmp_path, lesson_sources, learners):
    run = tmp_path / f"run{len(list(tmp_path.iterdir()))}"
    cls, out = run / "class", run / "out"
    cls.mkdir(parents=True)
    outside = run / "secret.txt"
    outside.write_text(SECRET)
    names = build(cls, learners, lesson_sources, outside)
    if not names:
        return
    ids, subs, notes = discover(cls, [L01, L02], KNOWN)
    assert len(ids) == len(set(ids)) == len(names)
    real = {name: os.path.realpath(cls / name) for name in names}
    for s in subs:
        if s.problem:
            continue
        name = next(n for n in names if Path(str(s.path)).is_relative_to(cls / n))
        inside = os.path.join(real[name], os.path.relpath(str(s.path), cls / name))
        assert not os.path.islink(cls / name) and os.path.realpath(str(s.path)) == inside
        assert os.path.getsize(str(s.path)) <= 16 << 20
    listed = {str(s.path) for s in subs} | {str(cls / u.path) for u in notes if u.path}
    unread = {cls / u.path for u in notes if u.path and u.path.endswith("/")}   # folders noted
    for name in names:
        if os.path.islink(cls / name):
            continue
        for here, dirs, files in os.walk(cls / name):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("__pycache__",)]
            for f in files:
                path = os.path.join(here, f)
                if not f.startswith(".") and f.lower() not in ("readme.md", "makefile"):
                    assert path in listed or unread & set(Path(path).parents), path
    assert sum(len(u.reason) for u in notes) < 2000 * (len(listed) + 2 * len(names))
    out.mkdir(parents=True)
    book = Gradebook(out / "gradebook.sqlite")
    book.add_learners(ids)
    book.add_lessons([L01, L02])
    book.note_ungraded([L01.id, L02.id], [u.row() for u in notes])
    for s in subs:
        result = Result(s.lesson, s.path, error=s.problem or f"raised {HOSTILE[len(s.learner) % 7]}")
        book.record(Graded(s.learner, s.lesson.id, str(s.path), result_row(result)), "x" * 64, 0.1)
    exports.write_all(book.db, out)
    book.close()
    stems = {p.stem for p in (out / "feedback").glob("*.md")}
    assert len(stems) == len(ids)
    assert all(len(os.fsencode(p.name)) <= 255 for p in out.rglob("*"))
    assert len({s.casefold() for s in stems}) == len(stems)


def test_names_that_are_not_utf8_are_kept_printable_through_the_gradebook(tmp_path):
    cls, out = tmp_path / "class", tmp_path / "out"
    folder = os.path.join(os.fsencode(cls), b"caf\xe9")
    os.makedirs(os.path.join(folder, b"01-softmax"))
    with open(os.path.join(folder, b"01-softmax", b"solution.py"), "w") as f:
        f.write(SOFT)
    with open(os.path.join(folder, b"notes\xff.txt"), "w") as f:
        f.write("x")
    ids, subs, notes = discover(cls, [L01], KNOWN)
    assert ids == ["caf\\xe9"] and [s.learner for s in subs] == ["caf\\xe9"]
    assert [u.path for u in notes if u.path] == ["caf\\xe9/notes\\xff.txt"]
    out.mkdir()
    book = Gradebook(out / "gradebook.sqlite")
    book.add_learners(ids)
    book.add_lessons([L01])
    book.note_ungraded([L01.id], [u.row() for u in notes])
    s, = subs
    book.record(Graded(s.learner, L01.id, str(s.path), result_row(Result(L01, s.path, error="x"))),
                hashlib.sha256(s.read()).hexdigest(), 0.1)
    exports.write_all(book.db, out)
    book.close()
    assert "caf\\xe9" in (out / "grades.csv").read_text("utf-8-sig")
