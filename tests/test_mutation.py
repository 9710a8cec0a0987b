"""The mutation gate grades a reference's mutants as learners' files: a case removed from a lesson
leaves a mutant surviving, which fails verify; a mutant that agrees with the reference on fresh
draws is listed as equivalent and not counted."""
import pytest

from grader.lessons import lesson, mutation, roadmap, verify
from grader.lessons import mutants as mutator
from grader.lessons.mutants import Mutant


def without_case(workbook, folder, name):
    """The lesson's hidden cases in `workbook`, less the case called `name` (from its `yield`)."""
    path = workbook / "solutions" / folder / "hidden_cases.py"
    text = path.read_text()
    start = text.index(f'    yield case("{name}"')
    end = text.find("    yield case(", start + 1)
    path.write_text(text[:start] + (text[end:] if end >= 0 else ""))


def only_rule(monkeypatch, rule):
    """The gate makes only `rule`'s mutants (so a test grades a handful, not a lesson's hundred)."""
    every = mutator.mutants
    monkeypatch.setattr(mutation, "mutants",
                        lambda text, library: [m for m in every(text, library) if m.rule == rule])


@pytest.mark.slow
def test_a_removed_case_leaves_a_survivor_and_verify_fails(workbook, monkeypatch):
    """In lesson 21 only the finite-difference case catches a float32 cast of the log-probabilities
    on every draw; the extreme-logit cases catch it on some draws only. Without that case, the cast
    passes the lesson's own cases but not every fresh draw: it survives, and verify says which
    fresh case told it from the reference."""
    only_rule(monkeypatch, "float32")
    monkeypatch.setattr(verify, "verify_lesson", lambda lesson_, workdir, pool: [])
    without_case(workbook, "21-ce-grad", "gradient matches finite differences")
    report, tallies = verify.verify(roadmap.load(workbook), {"21-ce-grad"})
    survivors = [p for p in report["21-ce-grad"] if "passes every case, but" in p]
    assert survivors and all("drawn from seed" in p and "[float32]" in p for p in survivors)
    assert tallies[0].count("surviving") == len(survivors)


INDEPENDENT = """\
    ### BEGIN SOLUTION
    top = np.max(x, axis=axis, keepdims=True)
    size = np.shape(x)
    e = np.exp(x - top)
    return np.reshape(e / np.sum(e, axis=axis, keepdims=True), size)
    ### END SOLUTION
"""


def test_an_equivalent_mutant_is_listed_and_not_counted(workbook, pool, tmp_path):
    """Exchanging two statements that do not read each other changes nothing: the gate finds each
    such exchange equal to the reference on fresh draws, lists it as equivalent, does not count it,
    and verify has nothing to say about it."""
    path = workbook / "solutions" / "01-softmax" / "solution.py"
    source = path.read_text()
    start, end = source.index("    ### BEGIN SOLUTION"), source.index("### END SOLUTION")
    path.write_text(source[:start] + INDEPENDENT + source[source.index("\n", end) + 1:])
    tally = mutation.gate(lesson.load(roadmap.load(workbook), "01"), pool, tmp_path,
                          rules={"reorder"})
    equivalent = tally.listed("equivalent")
    assert sorted(f.mutant.before for f in equivalent) == [
        "size = np.shape(x)", "top = np.max(x, axis=axis, keepdims=True)"]
    assert tally.counted == tally.graded - 2
    assert tally.count("surviving") == 0 and mutation.problems(tally) == []


def test_the_rules_take_turns_under_the_cap():
    found = [Mutant(rule, line, "a", "b", f"{rule}{line}") for rule, n in
             (("axis", 10), ("reorder", 2), ("constant", 5)) for line in range(n)]
    chosen = mutation.select(found, 9)
    assert len(chosen) == 9 and {m.rule for m in chosen} == {"axis", "reorder", "constant"}
    assert sum(m.rule == "reorder" for m in chosen) == 2
    assert mutation.select(found, 9) == chosen and mutation.select(found, 100) == found


@pytest.mark.slow
def test_grader_mutate_prints_the_table_and_lists_what_authors_should_read(workbook, run_grader):
    """`grader mutate 06 --show`: a table row for the lesson, with its counts adding up, and the
    equivalent mutants listed one per line, with the line and the slip."""
    result = run_grader(workbook, "mutate", "06", "--show")
    assert result.returncode == 0, result.stdout + result.stderr
    row = next(line for line in result.stdout.splitlines() if "06-rmsnorm" in line and "│" in line)
    mut, equiv, kill, known, sym, bare, surv = map(int, row.split("│")[2:9])
    assert mut == equiv + kill + surv and kill == known + sym + bare and surv == 0
    listed = [line for line in result.stdout.splitlines() if line.startswith("  06-rmsnorm ")]
    assert sum(" equivalent: line " in line for line in listed) == equiv
    assert sum(" bare: line " in line for line in listed) == bare
