"""A lesson's rules on the learner's source, checked in the trusted parent: "No loops", forbidden
library objects, and a numpy lesson's numpy alone.

A forbidden name is forbidden as a library's object: `references` says what each name in the file
refers to, and a rule speaks of a library path that has the forbidden name as a part
(`torch.optim.AdamW` for "optim" or "AdamW"), never of what the file binds itself, nor of text in
strings and comments. What the source cannot decide (a string computed at run time) the child's
guard decides as the code runs (`runtime_rules`); what it reports joins these (`with_runtime`).
"""
import ast
import functools
import importlib.metadata
import sys
from dataclasses import dataclass

from . import references

LOOPS = {ast.For: "a for loop", ast.AsyncFor: "a for loop", ast.While: "a while loop",
         ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
         ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression"}
NUMPY_ONLY = ("this is a numpy lesson: it is built with numpy alone (and Python's standard "
              "library), so that you write each step yourself")
SELF_ESCAPES = {"seterr": "it switches off the floating-point checks this lesson relies on",
                "errstate": "it switches off the floating-point checks this lesson relies on"}
LIBRARIES = {"numpy": ("numpy",)}     # the libraries a lesson of each framework may import
COMPUTED = ("it reaches code or a library's object by a string computed at run time, which "
            "this lesson's rules cannot check; write the name (or the code) out")


@dataclass(frozen=True)
class Violation:
    rule: str
    line: int            # the first line that breaks it
    message: str
    lines: tuple = ()    # every line that breaks it


def lines_text(lines):
    lines = sorted(set(lines))
    if len(lines) == 1:
        return f"line {lines[0]}"
    return "lines " + ", ".join(map(str, lines[:-1])) + f" and {lines[-1]}"


def listing(found, when=""):
    """"`a` (line 3) and `b` (lines 5 and 9)" for {what: [lines]} (a `what` in words, such as
    "a library", is shown as it is)."""
    items = [f"{what if ' ' in what else f'`{what}`'} ({when}{lines_text(lines)})"
             for what, lines in found.items()]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def one_violation(rule, found, why, when=""):
    """One Violation for every place that breaks one rule: {what: [lines]}; `when` says how the
    lines were found ("reached at run time on ")."""
    lines = sorted({n for ls in found.values() for n in ls})
    verb = "is" if len(found) == 1 else "are"
    return Violation(rule, lines[0], f"{listing(found, when)} {verb} not allowed here: {why}",
                     tuple(lines))


@dataclass(frozen=True)
class Rules:
    """What a lesson forbids: names (each with its reason), and for a numpy lesson, the libraries
    it may import beyond the standard library."""
    banned: dict
    libraries: tuple = None     # None: any library

    def key_of(self, path):
        """The banned name that is a part of the dotted `path`, the most specific first."""
        parts = path.split(".")
        for i in range(len(parts), 0, -1):
            for key in self.banned:
                k = key.split(".")
                if parts[max(0, i - len(k)):i] == k:
                    return key
        return None

    def library_refused(self, path):
        top = path.split(".")[0]
        return (self.libraries is not None and top not in self.libraries
                and top not in sys.stdlib_module_names and top != "builtins")


def rules_of(spec, float_checks, framework):
    banned = dict(spec.forbidden)
    if float_checks:
        banned.update(SELF_ESCAPES)
    return Rules(banned, LIBRARIES.get(framework))


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def reached(tree, functions):
    """(function, the entry point that runs it or None, its loops) for the file's own functions
    that the entry points run, transitively: the functions they name, the methods of the classes
    they name, and the methods they call by name."""
    defs, methods, classes = {}, {}, {}
    for node in ast.walk(tree):
        if isinstance(node, FUNCTIONS):
            defs.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.ClassDef):
            classes[node.name] = [m for m in node.body if isinstance(m, FUNCTIONS)]
            for m in classes[node.name]:
                methods.setdefault(m.name, []).append(m)
    top = {n.name: n for n in tree.body if isinstance(n, FUNCTIONS)}
    todo = [(top[f], None) for f in functions if f in top]
    seen = {}
    while todo:
        fn, caller = todo.pop()
        if id(fn) in seen:
            continue
        found = []
        for node in ast.walk(fn):
            if type(node) in LOOPS:
                found.append(node)
            elif isinstance(node, ast.Name):
                todo += [(d, caller or fn.name) for d in defs.get(node.id, []) + classes.get(node.id, [])
                         if d is not fn]
            elif isinstance(node, ast.Attribute):
                todo += [(m, caller or fn.name) for m in methods.get(node.attr, ())]
        seen[id(fn)] = (fn, caller, found)
    return seen.values()


def loops(tree, spec):
    found, seen = [], set()
    for fn, caller, nodes in reached(tree, spec.functions):
        who = f"`{fn.name}`" + (f" (which `{caller}` runs)" if caller else "")
        for node in nodes:
            if id(node) not in seen:
                seen.add(id(node))
                found.append(Violation("no-loops", node.lineno,
                                       f"{who} uses {LOOPS[type(node)]}; this lesson asks for "
                                       "array operations only (No loops)", (node.lineno,)))
    return found


def forbidden(found, rules):
    """One violation per banned name, and one for every library beyond a numpy lesson's."""
    by_key, libraries = {}, {}
    for ref in found.references:
        key = rules.key_of(ref.path)
        if key:
            by_key.setdefault(key, {}).setdefault(ref.path, []).append(ref.line)
        elif rules.library_refused(ref.path):
            libraries.setdefault(ref.path.split(".")[0], []).append(ref.line)
    for name, line in found.attributes:          # a method of a value the file did not make
        if name in rules.banned and name not in found.own:
            by_key.setdefault(name, {}).setdefault(f".{name}", []).append(line)
    out = [one_violation("forbidden-name", places, rules.banned[key]) for key, places in by_key.items()]
    if libraries:
        out.append(one_violation("numpy-only", libraries, NUMPY_ONLY))
    code = {}
    for route, line in found.computed:
        if route not in references.GUARDED:
            code.setdefault(route.removeprefix("builtins."), []).append(line)
    if code:
        out.append(one_violation("computed-name", code, COMPUTED))
    return out


def check(tree, spec, float_checks, framework=None):
    """Violations of the lesson's rules in a parsed learner file, in line order. A lesson of a
    numpy chapter (`framework`) also forbids every library beyond numpy."""
    out = loops(tree, spec) if spec.no_loops else []
    rules = rules_of(spec, float_checks, framework)
    if rules.banned or rules.libraries is not None:
        try:
            out += forbidden(references.read(tree), rules)
        except RecursionError:
            out.append(Violation("unreadable", 1, "your file is nested too deeply for its rules to "
                                 "be checked", (1,)))
    return sorted(out, key=lambda v: v.line)


def runtime_rules(spec, float_checks, framework):
    """What the child's guard refuses as the learner's code runs, as data for the wire (None when
    the lesson forbids nothing)."""
    rules = rules_of(spec, float_checks, framework)
    if not rules.banned and rules.libraries is None:
        return None
    return {"banned": sorted(rules.banned),
            "libraries": None if rules.libraries is None else list(rules.libraries)}


@functools.cache
def known_modules():
    """The top-level modules installed here: a module name the child reports is shown only when
    it is one of these (a name built from a hidden case's input could otherwise carry it out)."""
    return set(importlib.metadata.packages_distributions()) | set(sys.stdlib_module_names)


def with_runtime(violations, broken, spec, float_checks, framework):
    """The static violations with what the child's guard refused at run time, [(key, line,
    module)] from untrusted frames: a key the parent did not send is dropped, and a module name
    is shown only when it is one the parent knows."""
    rules = rules_of(spec, float_checks, framework)
    found = {}
    for key, line, module in broken:
        if key == "numpy-only" and rules.libraries is not None:
            shown = module if module in known_modules() else "a library beyond numpy"
            found.setdefault(("numpy-only", NUMPY_ONLY), {}).setdefault(shown, []).append(line)
        elif key in rules.banned:
            found.setdefault(("forbidden-name", rules.banned[key]), {}).setdefault(
                key, []).append(line)
    if not found:
        return violations
    static = {(v.rule, n) for v in violations for n in v.lines}
    extra = []
    for (rule, why), places in found.items():
        places = {what: [n for n in lines if (rule, n) not in static] for what, lines in places.items()}
        places = {what: lines for what, lines in places.items() if lines}
        if places:
            extra.append(one_violation(rule, places, why, "reached at run time on "))
    return sorted(violations + extra, key=lambda v: v.line)
