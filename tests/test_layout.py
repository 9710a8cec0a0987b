"""The parts of the grader depend on each other in one direction: the judge knows nothing of who
hands it an answer (notebooks, the learner's commands, the classroom), the runner nothing of
lessons or verdicts, and the child-side code (all the sandbox shows) nothing outside itself."""
import ast
from pathlib import Path

import pytest

GRADER = Path(__file__).resolve().parent.parent / "grader"

NOT_IMPORTED = {
    "judge": {"notebooks", "learner", "classroom", "bench", "cli"},
    "runner": {"judge", "lessons", "notebooks", "learner", "classroom", "bench", "cli"},
}


def grader_imports(path, root=GRADER.parent):
    """The grader modules a file imports, as dotted names (relative imports resolved)."""
    package = ".".join(path.relative_to(root).with_suffix("").parts)
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            found |= {name} | {f"{name}.{a.name}" for a in node.names}
    return {n for n in found if n == "grader" or n.startswith("grader.")}


def part_of(name):
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


@pytest.mark.parametrize("part", sorted(NOT_IMPORTED))
def test_a_part_imports_nothing_of_the_parts_that_use_it(part):
    wrong = {}
    for path in sorted((GRADER / part).rglob("*.py")):
        bad = {n for n in grader_imports(path) if part_of(n) in NOT_IMPORTED[part]}
        if bad:
            wrong[str(path.relative_to(GRADER))] = sorted(bad)
    assert not wrong, wrong


def test_the_child_side_imports_only_itself():
    wrong = {}
    for path in sorted((GRADER / "runner" / "child").rglob("*.py")):
        bad = {n for n in grader_imports(path) if not n.startswith("grader.runner.child")}
        if bad:
            wrong[str(path.relative_to(GRADER))] = sorted(bad)
    assert not wrong, wrong


def test_the_import_reader_sees_relative_and_absolute_imports(tmp_path):
    """The reader the checks above rely on: relative imports at any depth, and absolute ones."""
    module = tmp_path / "grader" / "judge" / "symptoms" / "probe.py"
    module.parent.mkdir(parents=True)
    module.write_text("from ...notebooks import read\nimport grader.learner.progress\n"
                      "from . import relations\nfrom ..compare import kind\nimport numpy\n")
    assert grader_imports(module, tmp_path) == {
        "grader.notebooks", "grader.notebooks.read", "grader.learner.progress",
        "grader.judge.symptoms", "grader.judge.symptoms.relations", "grader.judge.compare",
        "grader.judge.compare.kind"}
