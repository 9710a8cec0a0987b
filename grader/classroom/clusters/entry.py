"""A new entry for a lesson's mistakes.py, written from a learner's answer: every function in which
the answer differs from the reference (or that the reference lacks), each marked `@mistake(NAME)`
and the first with the message, after the imports and module-level names they may need. It is
appended in the file's own style (new imports join the file's import block); the rest of the file
is kept as it is.

Nothing here runs the answer: it is read as a syntax tree and copied as text. A mistake runs in the
grader itself (grader.lessons.lesson), so the author reviews the entry before `make verify`.
"""
import ast
import re
import textwrap
from dataclasses import dataclass, field

from grader.errors import GraderError

NAME = re.compile(r"[A-Za-z0-9]+(-[A-Za-z0-9]+)*")
MAX_NAME = 60
WIDTH = 100                 # the mistakes files' line length
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
IMPORTS = (ast.Import, ast.ImportFrom)
NO_MESSAGE = "  # write in what its learners read"


class EntryError(GraderError):
    """An entry that cannot be written as asked (the mistakes file is left as it was)."""


@dataclass
class Entry:
    text: str                                       # the whole new mistakes.py
    functions: list                                 # the names marked @mistake(NAME), in order
    imports: list = field(default_factory=list)     # import lines added to the import block
    left_out: list = field(default_factory=list)    # "line N: ..." of statements not copied


def check_name(name, taken):
    """Raise EntryError unless `name` can be a new mistake's id beside the ids `taken`."""
    if not NAME.fullmatch(name) or len(name) > MAX_NAME:
        raise EntryError(f"--name {name!r}: a mistake's id is letters, digits and single hyphens "
                         f"(e.g. uniform-weights), at most {MAX_NAME} characters")
    if name in taken:
        raise EntryError(f"the lesson's mistakes.py has a mistake named {name!r} already; its "
                         f"names: {', '.join(taken)}")


def message_source(message):
    """The message as the mistakes files write it: a triple-quoted string, wrapped to WIDTH."""
    text = " ".join(message.split())
    if not text:
        raise EntryError("--message is empty: leave it out to write the message in by hand")
    odd = next((c for c in text if not c.isprintable()), None)
    if odd is not None:
        raise EntryError(f"--message holds a character that cannot be shown (U+{ord(odd):04X})")
    text = text.replace("\\", "\\\\")
    if '"""' in text or text.endswith('"'):
        text = text.replace('"', '\\"')
    lines = textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False)
    return '"""\\\n' + "\n".join(lines) + '"""'


def mistake_ids(tree):
    """The ids of the mistakes a mistakes file's syntax tree marks, in order, each once."""
    found = []
    for node in tree.body:
        for d in getattr(node, "decorator_list", []):
            if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "mistake":
                given = d.args[:1] + [k.value for k in d.keywords if k.arg == "id"]
                if given and isinstance(given[0], ast.Constant) and given[0].value not in found:
                    found.append(given[0].value)
    return found


def marked(node):
    """Whether a top-level function is marked @mistake(...)."""
    return any(isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "mistake"
               for d in getattr(node, "decorator_list", []))


def bound_names(node):
    """The names a top-level statement binds (none for a statement this does not copy)."""
    if isinstance(node, (*DEFINITIONS, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Import):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    if isinstance(node, ast.ImportFrom):
        return [a.asname or a.name for a in node.names]
    if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
        return [t.id for t in node.targets]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
        return [node.target.id]
    return []


def bindings(tree):
    """{name: the last top-level statement that binds it}."""
    return {name: node for node in tree.body for name in bound_names(node)}


def same(a, b):
    """Whether two definitions are the same code (docstrings, comments and layout aside)."""
    def bare(node):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
                body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node = type(node)(**{**vars(node), "body": body[1:]})
        return ast.dump(node)
    return type(a) is type(b) and bare(a) == bare(b)


def source_of(lines, node):
    """A top-level statement's text, its decorators included."""
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return "".join(lines[first - 1:node.end_lineno]).rstrip() + "\n"


def parse(source, what):
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError) as exc:
        raise EntryError(f"{what} does not parse ({exc}); nothing was written") from None


def needed_imports(node, wanted):
    """The import lines of an import statement that bind only the names in `wanted`: one a module
    for `import`, one a statement for `from ... import`."""
    names = [a for a in node.names if bound_names(type(node)(**{**vars(node), "names": [a]}))[0]
             in wanted]
    if isinstance(node, ast.Import):
        return [ast.unparse(ast.Import([a])) for a in names]
    return [ast.unparse(type(node)(**{**vars(node), "names": names}))]


def import_at(tree):
    """The line after which new imports go: after the file's last import of something other than
    the grader's own (its standard and third-party block), else before its first import."""
    imports = [n for n in tree.body if isinstance(n, IMPORTS)]
    outside = [n for n in imports if not (isinstance(n, ast.ImportFrom) and n.module
                                          and n.module.split(".")[0] == "grader")]
    if outside:
        return outside[-1].end_lineno, False
    return (imports[0].lineno - 1 if imports else 0), True


def compose(mistakes_source, reference_source, answer_source, name, message, origin,
            entry_points=()):
    """The Entry that adds mistake `name` (its `message`, or None to leave it to the author),
    written from `answer_source`, to `mistakes_source`; `origin` says where it came from (a
    comment above it). The message goes with the first of the lesson's `entry_points` that the
    entry holds (else its first function). Raises EntryError, naming what stands in the way."""
    mine = parse(mistakes_source, "the lesson's mistakes.py")
    check_name(name, mistake_ids(mine))
    said = None if message is None else message_source(message)
    reference = bindings(parse(reference_source, "the lesson's solution.py"))
    answer = parse(answer_source, "the answer")
    ours, last = bindings(mine), bindings(answer)     # a function marked @mistake is one
    ours = {n: node for n, node in ours.items() if not marked(node)}    # mistake's, not shared
    if "mistake" not in ours:
        raise EntryError("the lesson's mistakes.py does not import `mistake` (from "
                         "grader.lessons.authoring); nothing was written")
    lines = answer_source.splitlines(keepends=True)
    copied, imports, left_out = [], [], []      # copied: the answer's statements, in its order
    for i, node in enumerate(answer.body):
        bound = bound_names(node)
        if not bound or isinstance(node, ast.ImportFrom) and (
                node.level or bound == ["*"] or node.module == "__future__"):
            if not (i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
                left_out.append(f"line {node.lineno}: {lines[node.lineno - 1].strip()[:60]}")
        elif isinstance(node, IMPORTS):
            need = [n for n in bound if n not in reference and n not in ours]
            if need:
                imports += needed_imports(node, need)
                ours.update(dict.fromkeys(need, node))
        elif isinstance(node, DEFINITIONS):
            if last[node.name] is node and not same_as(node, node.name, reference, ours):
                if node.name not in reference and node.name in ours:
                    raise EntryError(f"the answer's `{node.name}` (line {node.lineno}) has the name "
                                     "of a helper the lesson's mistakes.py keeps for its other "
                                     "mistakes: write this entry by hand, with another name")
                copied.append(node)
        elif all(same_as(node, n, reference, ours) for n in bound):
            continue
        elif any(n in reference or n in ours for n in bound):
            taken = next(n for n in bound if n in reference or n in ours)
            where = "solution.py" if taken in reference else "mistakes.py"
            raise EntryError(f"the answer's `{taken}` (line {node.lineno}) is not the one the "
                             f"lesson's {where} gives every mistake, and an entry replaces "
                             "functions only: write this one by hand")
        else:
            copied.append(node)
    functions = [n.name for n in copied if isinstance(n, DEFINITIONS)]
    if not functions:
        raise EntryError("the answer defines no function that differs from the lesson's "
                         "reference, so there is nothing to mark as the mistake")
    speaks = next((f for f in entry_points if f in functions), functions[0])
    parts = []
    for node in copied:
        head = ""
        if isinstance(node, DEFINITIONS) and node.name == speaks and said:
            head = f'@mistake("{name}", message={said})\n'
        elif isinstance(node, DEFINITIONS) and node.name == speaks:
            head = f'@mistake("{name}", message=None){NO_MESSAGE}\n'
        elif isinstance(node, DEFINITIONS):
            head = f'@mistake("{name}")\n'
        parts.append(head + source_of(lines, node))
    entry = f"# {origin}\n" + "\n\n".join(parts)
    text = add_imports(mine, mistakes_source, imports).rstrip("\n") + "\n\n\n" + entry
    try:
        compile(text, "mistakes.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        raise EntryError(f"the entry would not parse ({exc}); nothing was written") from None
    return Entry(text, functions, imports, left_out)


def same_as(node, name, reference, ours):
    """Whether `node` binds `name` just as the reference or the mistakes file does already."""
    return any(name in where and same(node, where[name]) for where in (reference, ours))


def add_imports(tree, source, imports):
    """`source` with the import lines `imports` in its import block."""
    if not imports:
        return source
    lines = source.splitlines(keepends=True)
    at, alone = import_at(tree)
    block = "".join(line + "\n" for line in imports) + ("\n" if alone else "")
    if at and not lines[at - 1].endswith("\n"):
        block = "\n" + block
    return "".join(lines[:at]) + block + "".join(lines[at:])
