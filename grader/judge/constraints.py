"""Static rules on the learner's source, checked in the trusted parent: "No loops", forbidden names."""
import ast
import sys
from dataclasses import dataclass

LOOPS = {ast.For: "a for loop", ast.AsyncFor: "a for loop", ast.While: "a while loop",
         ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
         ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression"}
NUMPY_ONLY = ("this is a numpy lesson: it is built with numpy alone (and Python's standard "
              "library), so that you write each step yourself")
SELF_ESCAPES = {"seterr": "it switches off the floating-point checks this lesson relies on",
                "errstate": "it switches off the floating-point checks this lesson relies on"}


@dataclass(frozen=True)
class Violation:
    rule: str
    line: int
    message: str


def names_in(node):
    """Every identifier a node mentions: names, attributes, imports, and one-word strings
    (which catch getattr(F, "name"); the banned name is then searched inside them)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id, sub.lineno
        elif isinstance(sub, ast.Attribute):
            yield sub.attr, sub.lineno
        elif isinstance(sub, ast.alias):
            yield sub.name.split(".")[-1], sub.lineno
            if sub.asname:
                yield sub.asname, sub.lineno
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and " " not in sub.value:
            yield sub.value, sub.lineno


def imported(tree):
    """(top-level module, line) for every absolute import in a parsed file."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], node.lineno


def numpy_only(tree, forbidden):
    """A numpy lesson's rule, whatever its Spec says: no library beyond numpy and the standard one."""
    return [Violation("numpy-only", line, f"`{module}` is not allowed here: {NUMPY_ONLY}")
            for module, line in imported(tree)
            if module != "numpy" and module not in sys.stdlib_module_names and module not in forbidden]


def check(tree, spec, float_checks, framework=None):
    """Violations of the lesson's rules in a parsed learner file, in line order. A lesson of a
    numpy chapter (`framework`) also forbids torch and every other library beyond numpy."""
    found = []
    if spec.no_loops:
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name in spec.functions:
                for node in ast.walk(fn):
                    if type(node) in LOOPS:
                        found.append(Violation("no-loops", node.lineno,
                                               f"`{fn.name}` uses {LOOPS[type(node)]}; this lesson "
                                               "asks for array operations only (No loops)"))
    forbidden = dict(spec.forbidden)
    if framework == "numpy":
        forbidden.setdefault("torch", NUMPY_ONLY)
    if float_checks:
        forbidden.update(SELF_ESCAPES)
    seen = set()
    for name, line in names_in(tree):
        for banned, why in forbidden.items():
            if (banned == name or banned in name and not name.isidentifier()) \
                    and (banned, line) not in seen:
                seen.add((banned, line))
                found.append(Violation("forbidden-name", line, f"`{banned}` is not allowed here: {why}"))
    if framework == "numpy":
        found += numpy_only(tree, forbidden)
    return sorted(found, key=lambda v: v.line)
