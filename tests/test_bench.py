"""`make bench`'s pieces: the generated class, its expected scores, the nbgrader driver, the report's
arithmetic and options. No timing is asserted."""
import ast
import itertools
import subprocess
import sys

import nbformat
import pytest

from conftest import ROOT
from grader.bench import classgen, nbgrader_run, runs
from grader.bench.__main__ import fit, parse_args, versus
from grader.bench.runs import Timing
from grader.judge import trusted
from grader.judge.verdict import judge
from grader.lessons import lesson, roadmap
from grader.lessons.authoring import Mistake

KINDS = {k for k, _ in classgen.WEIGHTS}


@pytest.fixture(scope="module")
def road():
    return roadmap.load(ROOT)


@pytest.fixture(scope="module")
def softmax(road):
    return lesson.load(road, "01")


def failing(lsn, namespace):
    outcomes = trusted.run(namespace, lsn.cases)
    return {i for i, (c, o, e) in enumerate(zip(lsn.cases, outcomes, lsn.expected))
            if not judge(c, o, e, lsn.spec).passed}


@pytest.mark.parametrize("name", ["01", "10", "28", "29"])
def test_a_standalone_mistake_fails_the_cases_its_mistake_fails(road, name):
    lsn = lesson.load(road, name)
    files = classgen.mistake_files(lsn)
    assert len(files) == len(lsn.mistakes)     # these lessons' mistakes all stand alone
    for (mistake_id, source, score), (m, _, fails) in zip(files, lsn.mistake_table):
        assert mistake_id == m.id
        namespace = {"__name__": "solution"}
        exec(compile(source, f"{mistake_id}.py", "exec"), namespace)
        assert failing(lsn, namespace) == fails, mistake_id
        assert score == pytest.approx((len(lsn.cases) - len(fails)) / len(lsn.cases))
        assert 0 <= score < 1


def test_a_mistake_needing_more_than_its_file_offers_is_left_out(softmax):
    m, _ = softmax.mistakes[0]
    fn = next(iter(m.functions.values()))
    module = compile("def softmax(x, axis=-1):\n    return not_defined_anywhere(x)\n", "m.py", "exec")
    code = next(c for c in module.co_consts if hasattr(c, "co_code"))
    stranger = type(fn)(code, fn.__globals__, "softmax")
    odd = Mistake("odd", "odd", functions={"softmax": stranger})
    assert classgen.mistake_source(softmax, odd) is None


def test_the_stub_and_crash_files_parse_and_the_syntax_one_does_not(softmax):
    maker = classgen.ClassMaker([softmax])
    seen = {}
    for i in range(400):
        source, expect = maker.draw(classgen.learner_id(i), softmax)
        seen.setdefault(expect.kind, source)
    assert set(seen) == KINDS
    for kind in ("reference", "mistake", "stub", "crash"):
        ast.parse(seen[kind])
    assert "raise NotImplementedError" in seen["stub"] and "_os._exit" in seen["crash"]
    with pytest.raises(SyntaxError):
        ast.parse(seen["syntax"])


def test_the_same_learner_hands_in_the_same_file_in_every_class_size(softmax, tmp_path):
    maker = classgen.ClassMaker([softmax])
    small = maker.write(tmp_path / "small", 5)
    large = maker.write(tmp_path / "large", 9)
    assert small == {k: v for k, v in large.items() if k in small}
    for learner, lesson_id in small:
        rel = f"{learner}/{lesson_id}/solution.py"
        assert (tmp_path / "small" / rel).read_text() == (tmp_path / "large" / rel).read_text()


def class_with_every_kind(lsn, learners):
    """A ClassMaker whose first `learners` learners hand in every kind of file."""
    maker = classgen.ClassMaker([lsn])
    for seed in itertools.count():
        maker.seed = seed
        kinds = {maker.draw(classgen.learner_id(i), lsn)[1].kind for i in range(learners)}
        if kinds == KINDS:
            return maker


@pytest.mark.slow
def test_a_generated_class_is_graded_with_its_expected_scores(softmax, tmp_path):
    maker = class_with_every_kind(softmax, 10)
    expected = maker.write(tmp_path / "class", 10)
    timing = runs.grade(tmp_path / "class", tmp_path / "out", [softmax.id], 10)
    graded = runs.gradebook_scores(tmp_path / "out")
    assert timing.jobs == 10 and timing.first <= timing.seconds
    assert runs.mismatches(expected, graded) == []
    assert {e.kind for e in expected.values()} == KINDS
    assert {graded[k][0] for k, e in expected.items() if e.kind != "reference"} != {1.0}


def test_mismatches_name_every_grade_that_differs():
    expected = {("a", "01"): classgen.Expected("reference", 1.0),
                ("b", "01"): classgen.Expected("stub", 0.0),
                ("c", "01"): classgen.Expected("mistake", 0.5, "m")}
    graded = {("a", "01"): (1.0, 18, 18), ("b", "01"): (0.25, 4, 16)}
    assert [(l, got) for l, _, _, got in runs.mismatches(expected, graded)] == [("b", 0.25),
                                                                                 ("c", None)]
    ours = {("a", "01"): (1.0, 18, 18), ("b", "01"): (0.5, 9, 18)}
    assert runs.nbgrader_mismatches(ours, {"a": (1.0, 1.0), "b": (0.5, 1.0)}, "01") == []
    assert [w[0] for w in runs.nbgrader_mismatches(ours, {"a": (17 / 18, 1.0), "b": (0.5, 1.0),
                                                          "z": (0.0, 1.0)}, "01")] == ["a", "z"]


@pytest.mark.slow
def test_the_nbgrader_driver_gives_the_grades_the_grader_gives(road, softmax, tmp_path):
    maker = classgen.ClassMaker([softmax])
    expected = maker.write(tmp_path / "class", 3)
    sources = {learner: (tmp_path / "class" / learner / softmax.id / "solution.py").read_text()
               for learner, _ in expected}
    done = nbgrader_run.autograde(road, softmax, sources, tmp_path / "course")
    assert done.seconds > 0 and set(done.scores) == set(sources)
    for learner in sources:     # a conventional assignment: a kernel ran each notebook's cells
        nb = nbformat.read(tmp_path / "course" / "autograded" / learner / nbgrader_run.ASSIGNMENT
                           / f"{softmax.id}.ipynb", as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert len(code) == len(softmax.cases) + 2 and all(c.execution_count for c in code)
    runs.grade(tmp_path / "class", tmp_path / "out", [softmax.id], 3)
    ours = runs.gradebook_scores(tmp_path / "out")
    assert runs.nbgrader_mismatches(ours, done.scores, softmax.id) == []
    assert {l: p / m for l, (p, m) in done.scores.items()} == {
        l: pytest.approx(e.score) for (l, _), e in expected.items()}


def test_the_fit_finds_start_up_and_cost_per_learner():
    timings = [Timing(n, n, 3.0 + 0.02 * n, 1.0) for n in (50, 200, 800)]
    start, per = fit(timings)
    assert start == pytest.approx(3.0) and per == pytest.approx(0.02)
    assert fit(timings[:1]) is None


def test_the_ratio_is_to_the_mean_of_nbgrader_before_and_after_with_the_spread():
    assert versus([2.0, 3.0], 0.01) == "250x (200-300x)"
    assert versus([3.0, 2.0], 0.02) == "125x (100-150x)"
    assert versus([2.6], 0.01) == "260x"


def test_options_are_read_and_bad_ones_refused(capsys):
    args = parse_args(["--sizes", "200,50,200", "--nbgrader", "0"])
    assert args.sizes == [50, 200] and args.nbgrader == 0 and args.lessons == "all"
    for bad in (["--sizes", "a,b"], ["--sizes", "0"], ["--sizes", ","]):
        with pytest.raises(SystemExit) as exc:
            parse_args(bad)
        assert exc.value.code == 2
    assert "--sizes" in capsys.readouterr().err


def test_an_unknown_lesson_is_a_message_not_a_traceback():
    done = subprocess.run([sys.executable, "-m", "grader.bench", "--lessons", "99", "--sizes",
                           "1", "--nbgrader", "0"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode != 0 and "There is no lesson 99" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_tokenizer_bench_reports_both_trainers_and_their_ratio(capsys):
    from grader.bench import tokenizer
    tokenizer.main(["--merges", "5", "--runs", "1"])
    out = capsys.readouterr().out
    assert "lesson 29's reference" in out and "Hugging Face tokenizers" in out
    assert out.count("MB/s") == 2 and "as fast as the reference" in out


def test_the_tokenizer_bench_refuses_nonsense_options():
    from grader.bench import tokenizer
    with pytest.raises(SystemExit) as stop:
        tokenizer.parse_args(["--merges", "0"])
    assert stop.value.code == 2


@pytest.mark.slow
def test_the_check_latency_table_has_a_row_per_lesson_and_leaves_no_server():
    done = subprocess.run([sys.executable, "-m", "grader.bench.checks", "--lessons", "01",
                           "--runs", "1"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if "lesson 01 (numpy)" in line)
    assert len(row.split()) == 5 and "python -c 'import torch'" in done.stdout
    running = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert "bench-checks-" not in running


def test_an_unknown_lesson_in_the_check_latency_table_is_a_message():
    done = subprocess.run([sys.executable, "-m", "grader.bench.checks", "--lessons", "99"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0 and "99" in done.stderr and "Traceback" not in done.stderr
