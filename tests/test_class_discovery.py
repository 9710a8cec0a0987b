"""Finding submissions as a real class hands them in: every layout that is unambiguous is graded,
everything else is listed with its reason; nothing is skipped in silence."""
import os
import shutil

import pytest

from conftest import ROOT, grader
from mixed_class import MISTAKE, make_mixed_class, put
from grader.classroom.submissions import discover
from grader.lessons import lesson as lessons_, roadmap

SOFT = (ROOT / "solutions" / "01-softmax" / "solution.py").read_text()
ROAD = roadmap.load(ROOT)
L01, L02 = lessons_.load(ROAD, "01"), lessons_.load(ROAD, "02")
KNOWN = [e.id for e in ROAD.entries if ROAD.available(e)]


def found(cls, lessons=(L01, L02)):
    learners, subs, notes = discover(cls, list(lessons), KNOWN)
    return ({(s.learner, s.lesson.id): s.path.relative_to(cls).as_posix() for s in subs},
            [(n.learner, n.lesson, n.path, n.reason) for n in notes])


@pytest.mark.parametrize("rel", [
    "frank/transformer-workbook/exercises/01-softmax/solution.py",
    "frank/01-softmax/Solution.py",
    "frank/01_softmax.py",
    "frank/Softmax.py",
    "frank/solution.py",
    "frank/lesson-01/my_softmax.py",
    "frank/exercises/01-softmax.py",
])
def test_every_unambiguous_layout_is_graded(tmp_path, rel):
    put(tmp_path / "class" / rel, SOFT)
    (tmp_path / "class" / "grace").mkdir()
    subs, notes = found(tmp_path / "class")
    assert subs == {("frank", "01-softmax"): rel}
    assert ("frank", "02-attention", None, "no submission") in notes
    assert ("grace", "01-softmax", None, "no submission") in notes


def test_a_clone_of_the_workbook_is_graded_from_its_exercises_only(tmp_path, workbook):
    cls = make_mixed_class(tmp_path / "class", workbook)
    subs, notes = found(cls)
    assert subs["frank", "01-softmax"] == "frank/transformer-workbook/exercises/01-softmax/solution.py"
    assert ("frank", None, "frank/transformer-workbook/", "a copy of the workbook: only its "
            "exercises/ folder was read (not Makefile, solutions)") in notes
    assert ("frank", None, "frank/transformer-workbook/exercises/03-causal-mask/solution.py",
            "its lesson, 03-causal-mask, was not among the lessons graded") in notes


def test_the_newest_of_two_files_is_graded_and_unknown_files_are_listed(tmp_path):
    cls = tmp_path / "class"
    put(cls / "nick" / "01-softmax" / "solution.py", SOFT)
    put(cls / "nick" / "01-softmax.py", MISTAKE)
    os.utime(cls / "nick" / "01-softmax" / "solution.py", (1e9, 1e9))
    put(cls / "nick" / "helpers.py", "X = 1\n")
    (cls / "nick" / "02-attention.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    put(cls / "olga" / "01-softmax" / "solution.py", SOFT)
    put(cls / "olga" / "exercises" / "01-softmax" / "solution.py", SOFT)
    put(cls / "pat" / "solution.py", "def unrelated():\n    pass\n")
    (cls / "roster.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    subs, notes = found(cls)
    assert subs["nick", "01-softmax"] == "nick/01-softmax.py"
    assert ("nick", "01-softmax", "nick/01-softmax/solution.py", "another file for lesson "
            "01-softmax: the newest, nick/01-softmax.py, was graded (keep one file per lesson)") in notes
    assert ("nick", None, "nick/helpers.py", "its name names no lesson: name it after the lesson "
            "(01-softmax.py) or put it in the lesson's folder (01-softmax/solution.py)") in notes
    assert ("nick", None, "nick/02-attention.zip", "an archive: the grader does not open archives; "
            "unpack it into the learner's folder") in notes
    assert subs["olga", "01-softmax"] == "olga/exercises/01-softmax/solution.py"
    assert ("olga", "01-softmax", "olga/01-softmax/solution.py", "the same file as "
            "olga/exercises/01-softmax/solution.py, which was graded") in notes
    assert any(n[:3] == ("pat", None, "pat/solution.py") and "defines no graded lesson" in n[3]
               for n in notes)
    assert any(n[:3] == (None, None, "roster.zip") for n in notes)


def test_a_file_named_after_a_function_two_lessons_share_is_ambiguous(tmp_path):
    l09, l10 = lessons_.load(ROAD, "09"), lessons_.load(ROAD, "10")
    put(tmp_path / "class" / "ann" / "solve.py", "def solve():\n    pass\n")
    subs, notes = found(tmp_path / "class", (l09, l10))
    assert not subs
    assert any(n[2] == "ann/solve.py" and "09-torch-attention, 10-residual-block" in n[3]
               for n in notes)


def test_the_run_summary_lists_what_was_not_graded_and_bad_folders_are_refused(workbook, tmp_path):
    cls = tmp_path / "class"
    put(cls / "nick" / "helpers.py", "X = 1\n")
    put(cls / "zed" / "notes.md", "hello")
    done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(tmp_path / "out"),
                  "--no-sandbox")
    assert done.returncode == 2, done.stdout
    assert "Graded 0 submissions from 2 learners on 1 lesson" in done.stdout
    assert "No submission (2 learner x lesson):\n  01-softmax (2 learners): nick, zed\n" in done.stdout
    assert "its name names no lesson" in done.stdout and "nick/helpers.py" in done.stdout
    assert "zed/notes.md" in done.stdout and "No submission was found in" in done.stdout
    inside = grader(workbook, "grade", str(cls), "--out", str(cls / "grading"), "--no-sandbox")
    assert inside.returncode == 2 and "is inside the class folder" in inside.stdout
    assert not (cls / "grading").exists()


def test_a_file_that_cannot_be_read_is_graded_as_such_and_the_class_goes_on(workbook, tmp_path):
    cls = tmp_path / "class"
    put(cls / "amy" / "01-softmax" / "solution.py", SOFT)
    (cls / "ben" / "01-softmax").mkdir(parents=True)
    (cls / "ben" / "01-softmax" / "solution.py").symlink_to(cls / "ben" / "gone.py")
    (cls / "cat" / "01-softmax").mkdir(parents=True)
    os.mkfifo(cls / "cat" / "01-softmax" / "solution.py")
    done = grader(workbook, "grade", str(cls), "--lessons", "01", "--out", str(tmp_path / "out"),
                  "--no-sandbox", timeout=120)
    assert done.returncode == 0, done.stdout
    assert (tmp_path / "out" / "grades.csv").read_text("utf-8-sig").splitlines()[1:] == [
        "amy,1,1", "ben,0,0", "cat,0,0"]
    page = (tmp_path / "out" / "feedback" / "ben.md").read_text()
    assert "is a symbolic link" in page and "links are not followed" in page
    assert "not a regular file" in (tmp_path / "out" / "feedback" / "cat.md").read_text()


@pytest.mark.parametrize("rel", [
    "frank/01-softmax (1).py",              # a browser's second download
    "frank/01-softmax final.py",            # a version word
    "frank/01_Softmax_v2.py",               # case, separators, a version number
    "frank/01-softmax.PY",                  # the suffix's case
    "frank/Copy of 01-softmax.py",          # a cloud drive's copy
    "frank/01-softmax - Copy (2).py",       # Windows' copy
    "frank/01-softmax copy 2.py",           # macOS' copy
    "frank/01-softmax (another copy).py",   # GNOME's copy
    "frank/SOFTMAX-FINAL.py",
    "frank/lesson 1 softmax v3.py",
    "frank/01-softmax (1)/Solution_final.py",   # a lesson folder unpacked twice
])
def test_names_people_and_browsers_give_files_are_graded(tmp_path, rel):
    put(tmp_path / "class" / rel, SOFT)
    subs, notes = found(tmp_path / "class")
    assert subs == {("frank", "01-softmax"): rel}, notes


def test_of_two_copies_the_newest_is_graded_then_the_later_version_by_name(tmp_path):
    cls = tmp_path / "class"
    put(cls / "gil" / "01-softmax.py", SOFT)
    put(cls / "gil" / "01-softmax (1).py", MISTAKE)
    os.utime(cls / "gil" / "01-softmax (1).py", (1e9, 1e9))          # downloaded first
    for name in ("01-softmax v2.py", "01-softmax v3.py"):
        put(cls / "hal" / name, SOFT + f"# {name}\n")
        os.utime(cls / "hal" / name, (1e9, 1e9))                       # the same time
    subs, notes = found(cls)
    assert subs["gil", "01-softmax"] == "gil/01-softmax.py"
    assert subs["hal", "01-softmax"] == "hal/01-softmax v3.py"
    assert ("gil", "01-softmax", "gil/01-softmax (1).py", "another file for lesson 01-softmax: "
            "the newest, gil/01-softmax.py, was graded (keep one file per lesson)") in notes
    assert [n[2] for n in notes if n[0] == "hal" and n[1] == "01-softmax"] == ["hal/01-softmax v2.py"]


def test_the_summary_groups_what_is_missing_and_leaves_out_the_workbooks_own_files(workbook,
                                                                                   tmp_path):
    from grader.classroom.classgrade import Run
    from grader.classroom.summary import summary
    cls = tmp_path / "class"
    for k in range(30):
        put(cls / f"l{k:02d}" / "01-softmax.py", SOFT)            # 30 learners without lesson 02
    for name in ("kai", "kim"):
        (cls / name).mkdir()                                        # nothing at all
    shutil.copytree(workbook / "exercises", cls / "lou" / "exercises")   # a clone's exercises
    learners, subs, notes = discover(cls, [L01, L02], KNOWN)
    lines, _ = summary(Run(learners, subs, notes), [L01, L02], tmp_path / "out", True)
    text = "\n".join(lines)
    assert "No submission (34 learner x lesson):" in text
    assert "  every lesson (2 learners): kai, kim" in text
    assert "  02-attention (30 learners): l00, l01, l02, l03, l04, l05, l06, l07, l08, l09, l10, " \
           "l11, ... and 18 more" in text
    assert len([l for l in lines if l.startswith("  ") and "l00" in l]) == 1
    assert "README.md" not in text and "Makefile" not in text
    assert not [n for n in notes if n.learner == "lou" and n.path and "README" in n.path]


def test_a_clone_s_docs_folder_is_part_of_the_workbook_not_a_submission(tmp_path):
    clone = tmp_path / "class" / "frank" / "workbook"
    put(clone / "exercises" / "01-softmax" / "solution.py", SOFT)
    put(clone / "docs" / "authors.md", "# Lesson authors\n")
    put(clone / "README.md", "# The Transformer Workbook\n")
    subs, notes = found(tmp_path / "class")
    assert subs["frank", "01-softmax"] == "frank/workbook/exercises/01-softmax/solution.py"
    assert ("frank", None, "frank/workbook/", "a copy of the workbook: only its exercises/ folder "
            "was read (not README.md, docs)") in notes
    assert not [n for n in notes if n[2] and "docs/" in n[2]]
