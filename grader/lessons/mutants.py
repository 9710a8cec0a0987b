"""Mutants of a reference: one learner-like slip at a time, inside its solution regions.

Each rule looks at one node of the syntax tree between `### BEGIN SOLUTION` and `### END SOLUTION`
and proposes the slips a learner makes there: operands or arguments swapped, another axis or none,
keepdims flipped, an off-by-one in a slice, an index, an arange or a comparison, a term dropped or
doubled, a sign flipped, a constant changed (a scale's square root, an eps), a cast to float32, a
transpose added or left out, two statements in the other order. A mutant is the reference's text
with the one statement that holds the slip rewritten, so every other line stays as written.
(The choice of operators follows the classic arithmetic, relational and constant replacements of
mutation testing tools, narrowed to the slips of array code.)
"""
import ast
import copy
from dataclasses import dataclass

from .regions import solution_lines

AXIS_WORDS = ("axis", "dim")
KEEPDIMS_WORDS = ("keepdims", "keepdim")
AXIS_CALLS = {"sum", "mean", "max", "min", "amax", "amin", "softmax", "log_softmax", "cumsum",
              "argmax", "argmin", "transpose", "swapaxes", "var", "std", "cat", "concatenate",
              "stack", "flip", "unsqueeze", "squeeze", "expand_dims", "logsumexp", "norm",
              "prod", "any", "all", "split", "chunk", "flatten"}
SWAPPED = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)
BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.MatMult, ast.Pow)
JUMPS = (ast.Return, ast.Raise, ast.Break, ast.Continue)


@dataclass(frozen=True)
class Mutant:
    rule: str          # the operator, e.g. "comparison"
    line: int          # where the slip is, in the reference's numbering
    before: str        # the code as the reference has it
    after: str         # the code as the mutant has it
    source: str        # the whole mutated file

    @property
    def label(self):
        return f"line {self.line} [{self.rule}]: `{self.before}` -> `{self.after}`"


def constant_int(node):
    """The int a node spells (`3`, `-1`), or None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant_int(node.operand)
        return None if inner is None else -inner
    return None


def number(n):
    return ast.Constant(n) if n >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-n))


def plus(node, k):
    """`node + k` as a learner would write it (a constant folded: -context + 1, 3 - 1 -> 2)."""
    n = constant_int(node)
    if n is not None:
        return number(n + k)
    return ast.BinOp(copy.deepcopy(node), ast.Add() if k > 0 else ast.Sub(), ast.Constant(abs(k)))


def called(node):
    """The last name of what a call calls: `np.sum(...)` and `x.sum(...)` are both "sum"."""
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def other_axes(n):
    return (n - 1, n + 1 if n + 1 < 0 else 0) if n < 0 else (n + 1, n - 1 if n > 0 else -1)


def with_(node, **fields):
    new = copy.copy(node)
    for k, v in fields.items():
        setattr(new, k, v)
    return new


class Rules:
    """The slips proposed at one node: `rules.at(node)` yields (rule, new node) pairs."""

    def __init__(self, tensor_library):
        self.torch = tensor_library == "torch"

    def at(self, node):
        for rule in (self.swap_operands, self.swap_arguments, self.axis, self.keepdims,
                     self.off_by_one, self.comparison, self.drop_term, self.double_term,
                     self.flip_sign, self.constant, self.float32, self.transpose):
            for new in rule(node):
                yield rule.__name__.replace("_", "-"), new

    def swap_operands(self, node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, SWAPPED):
            yield with_(node, left=node.right, right=node.left)

    def swap_arguments(self, node):
        if isinstance(node, ast.Call) and not any(isinstance(a, ast.Starred) for a in node.args):
            for i in range(len(node.args) - 1):
                args = list(node.args)
                args[i], args[i + 1] = args[i + 1], args[i]
                yield with_(node, args=args)

    def axis(self, node):
        if not isinstance(node, ast.Call):
            return
        for i, kw in enumerate(node.keywords):
            if kw.arg not in AXIS_WORDS:
                continue
            others = node.keywords[:i] + node.keywords[i + 1:]
            yield with_(node, keywords=others)                       # the axis left out
            n = constant_int(kw.value)
            values = [number(-1)] if n is None else [number(m) for m in other_axes(n)]
            for v in values:
                yield with_(node, keywords=others[:i] + [ast.keyword(kw.arg, v)] + others[i:])
        if called(node) in AXIS_CALLS:
            for i, a in enumerate(node.args):
                n = constant_int(a)
                for m in () if n is None else other_axes(n):
                    yield with_(node, args=node.args[:i] + [number(m)] + node.args[i + 1:])

    def keepdims(self, node):
        if isinstance(node, ast.Call):
            for i, kw in enumerate(node.keywords):
                if kw.arg in KEEPDIMS_WORDS and isinstance(kw.value, ast.Constant):
                    flipped = ast.keyword(kw.arg, ast.Constant(not kw.value.value))
                    yield with_(node, keywords=node.keywords[:i] + [flipped] + node.keywords[i + 1:])

    def off_by_one(self, node):
        """Slices' bounds, integer indices, and the arguments of range and arange, one off."""
        if isinstance(node, ast.Slice):
            for bound in ("lower", "upper"):
                if getattr(node, bound) is not None:
                    for k in (1, -1):
                        yield with_(node, **{bound: plus(getattr(node, bound), k)})
        elif isinstance(node, ast.Subscript):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for i, part in enumerate(parts):
                n = constant_int(part)
                for m in () if n is None else (n - 1, n + 1):
                    new = parts[:i] + [number(m)] + parts[i + 1:]
                    index = ast.Tuple(new, ast.Load()) if isinstance(node.slice, ast.Tuple) else new[0]
                    yield with_(node, slice=index)
        elif isinstance(node, ast.Call) and called(node) in ("range", "arange"):
            for i, a in enumerate(node.args):
                for k in (1, -1):
                    yield with_(node, args=node.args[:i] + [plus(a, k)] + node.args[i + 1:])

    def comparison(self, node):
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in BOUNDARY:
                    yield with_(node, ops=node.ops[:i] + [BOUNDARY[type(op)]()] + node.ops[i + 1:])

    def drop_term(self, node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            yield node.left
            yield node.right
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv)):
            yield node.left

    def double_term(self, node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            n = constant_int(node.right)
            twice = ast.BinOp(ast.Constant(2), ast.Mult(), node.right) if n is None else number(2 * n)
            yield with_(node, right=twice)

    def flip_sign(self, node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            yield with_(node, op=ast.Sub() if isinstance(node.op, ast.Add) else ast.Add())
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
                and constant_int(node) is None:      # -1 as an axis or index: the other rules'
            yield node.operand

    def constant(self, node):
        if isinstance(node, ast.Constant) and type(node.value) is float and node.value:
            yield ast.Constant(0.0)
            yield ast.Constant(2 * node.value)
        elif isinstance(node, ast.Call) and called(node) == "sqrt" and len(node.args) == 1:
            yield node.args[0]                                        # the square root left out
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) \
                and isinstance(node.right, ast.Constant) and node.right.value in (0.5, -0.5):
            yield node.left

    def float32(self, node):
        if isinstance(node, ast.Attribute) and node.attr == "float64":
            yield with_(node, attr="float32")
        elif isinstance(node, (ast.Assign, ast.Return)) and isinstance(node.value, ast.BinOp) \
                and isinstance(node.value.op, ARITHMETIC):
            yield with_(node, value=self.cast(node.value))

    def cast(self, value):
        if self.torch:
            return ast.Call(ast.Attribute(value, "float", ast.Load()), [], [])
        return ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "float32", ast.Load()), [value], [])

    def transpose(self, node):
        if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
            yield node.value                                          # the transpose left out
        elif isinstance(node, ast.Call) and called(node) in ("transpose", "swapaxes", "permute"):
            f = node.func
            if isinstance(f, ast.Attribute) and not (isinstance(f.value, ast.Name)
                                                     and f.value.id in ("np", "numpy", "torch")):
                yield f.value                                         # x.transpose(1, 2) -> x
            elif node.args:
                yield node.args[0]                                    # np.swapaxes(x, ...) -> x
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            yield with_(node, left=self.transposed(node.left))
            yield with_(node, right=self.transposed(node.right))

    def transposed(self, value):
        if self.torch:
            return ast.Call(ast.Attribute(value, "transpose", ast.Load()), [number(-1), number(-2)], [])
        return ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "swapaxes", ast.Load()),
                        [value, number(-1), number(-2)], [])


def slots(tree):
    """(node, parent, field, index) for every node below `tree`: where each node hangs."""
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, ast.AST):
                yield value, parent, name, None
            elif isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, ast.AST):
                        yield v, parent, name, i


def statements(tree):
    """Every statement with the statement it lies in (None at the top)."""
    def visit(node, holder):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                yield child, holder
                yield from visit(child, child)
            else:
                yield from visit(child, holder)
    yield from visit(tree, None)


def header_end(stmt):
    """The last line of a compound statement's header (`for ... in ...:`), or of a simple one."""
    body = getattr(stmt, "body", None)
    if not body or not isinstance(body, list):
        return stmt.end_lineno
    fields = [getattr(stmt, f) for f in ("test", "iter", "target", "items") if hasattr(stmt, f)]
    nodes = [n for f in fields for n in (f if isinstance(f, list) else [f])]
    return max([getattr(n, "end_lineno", stmt.lineno) or stmt.lineno for n in nodes] + [stmt.lineno])


def header_text(stmt, lines):
    """The statement as one line of code: a compound statement's header only."""
    if header_end(stmt) == stmt.end_lineno:
        return ast.unparse(stmt)
    bare = with_(stmt, body=[ast.Pass()], orelse=[]) if hasattr(stmt, "orelse") \
        else with_(stmt, body=[ast.Pass()])
    text = ast.unparse(bare).splitlines()[0]
    if isinstance(stmt, ast.If) and lines[stmt.lineno - 1].lstrip().startswith("elif"):
        text = "el" + text
    return text


class Source:
    """The reference's lines, and which statements of its solution regions can be rewritten."""

    def __init__(self, text):
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.tree = ast.parse(text)
        self.inside = solution_lines(text)

    def alone(self, stmt, last):
        """Whether lines stmt.lineno..last hold this statement alone, within a solution region."""
        if not all(n in self.inside for n in range(stmt.lineno, last + 1)):
            return False
        first = self.lines[stmt.lineno - 1]
        return not first[:stmt.col_offset].strip() and ";" not in "".join(
            self.lines[stmt.lineno - 1:last])

    def rewritten(self, stmt, text):
        """The file with the header (or all) of `stmt` replaced by the one line `text`."""
        last = header_end(stmt)
        indent = self.lines[stmt.lineno - 1][:stmt.col_offset]
        return "".join(self.lines[:stmt.lineno - 1] + [indent + text + "\n"] + self.lines[last:])

    def swapped(self, a, b):
        """The file with two adjacent statements' lines exchanged (the lines between stay)."""
        la, lb = self.lines[a.lineno - 1:a.end_lineno], self.lines[b.lineno - 1:b.end_lineno]
        between = self.lines[a.end_lineno:b.lineno - 1]
        return "".join(self.lines[:a.lineno - 1] + lb + between + la + self.lines[b.end_lineno:])


def text_nodes(tree):
    """The ids of the nodes that build text (f-strings, string concatenation such as a parameter's
    name): a message's wording or a dictionary key is not where array code slips."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) or isinstance(node, ast.BinOp) and any(
                isinstance(side, ast.JoinedStr) or isinstance(side, ast.Constant)
                and isinstance(side.value, str) for side in (node.left, node.right)):
            found |= {id(n) for n in ast.walk(node)}
    return found


def node_mutants(src, rules):
    owner = {}
    for stmt, _ in statements(src.tree):
        for node in ast.walk(stmt):
            owner[id(node)] = stmt        # the innermost statement wins: visited last
    text = text_nodes(src.tree)
    for node, parent, field, index in list(slots(src.tree)):
        stmt = node if isinstance(node, ast.stmt) else owner.get(id(node))
        if stmt is None or id(node) in text or not src.alone(stmt, header_end(stmt)):
            continue
        if not isinstance(node, ast.stmt) and getattr(node, "lineno", stmt.lineno) > header_end(stmt):
            continue
        before = header_text(stmt, src.lines)
        for rule, new in rules.at(node):
            if isinstance(node, ast.stmt):
                stmt_new = new
            else:
                put(parent, field, index, new)
                stmt_new = stmt
            try:
                after = header_text(stmt_new, src.lines)
            finally:
                if not isinstance(node, ast.stmt):
                    put(parent, field, index, node)
            yield Mutant(rule, stmt.lineno, before, after, src.rewritten(stmt, after))


def put(parent, field, index, value):
    if index is None:
        setattr(parent, field, value)
    else:
        getattr(parent, field)[index] = value


def bound(node):
    """The names a statement binds."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def read(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def unbound_after_swap(a, b, function):
    """Whether `b`, moved before `a`, reads a name that only `a` has bound by then: Python's own
    UnboundLocalError, not a slip worth grading."""
    before = {arg.arg for arg in ast.walk(function.args) if isinstance(arg, ast.arg)}
    before |= {n.id for n in ast.walk(function) if isinstance(n, ast.Name)
               and isinstance(n.ctx, ast.Store) and n.lineno < a.lineno}
    return bool((read(b) & bound(a)) - before)


def reorder_mutants(src):
    functions = [f for f in ast.walk(src.tree) if isinstance(f, ast.FunctionDef)]
    for block in ast.walk(src.tree):
        for name in ("body", "orelse"):
            stmts = getattr(block, name, None)
            if not isinstance(stmts, list):
                continue
            for a, b in zip(stmts, stmts[1:]):
                if isinstance(a, JUMPS) or isinstance(b, JUMPS) or not (
                        src.alone(a, a.end_lineno) and src.alone(b, b.end_lineno)):
                    continue
                function = max((f for f in functions if f.lineno < a.lineno <= f.end_lineno),
                               key=lambda f: f.lineno)      # the innermost holding both
                if unbound_after_swap(a, b, function):
                    continue
                yield Mutant("reorder", a.lineno, header_text(a, src.lines),
                             f"after {header_text(b, src.lines)}", src.swapped(a, b))


def mutants(text, tensor_library="numpy"):
    """Every distinct mutant of a reference's solution regions, in line order, each compiling.

    tensor_library: "numpy" or "torch", the library a float32 cast or an added transpose uses."""
    src = Source(text)
    found, seen = [], {text}
    for m in list(node_mutants(src, Rules(tensor_library))) + list(reorder_mutants(src)):
        if m.source in seen:
            continue
        try:
            compile(m.source, "mutant.py", "exec")
        except SyntaxError:
            continue
        seen.add(m.source)
        found.append(m)
    return sorted(found, key=lambda m: m.line)
