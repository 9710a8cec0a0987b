"""What the names in a learner's file refer to, read from its syntax tree.

A reference is a library's object named by its dotted path (`torch.optim.AdamW`), wherever the
file reaches it: an import (`from torch.optim import AdamW as A`), an alias (`F =
torch.nn.functional`), an attribute chain on a module, or a route that takes a string, when the
string is a constant (`getattr(torch.optim, "Ada" + "mW")`, `importlib.import_module("torch")`,
`__import__`, `sys.modules["torch"]`, `vars(m)["name"]`, the code given to `exec` or `eval`).
A route whose string is computed at run time is listed apart, for the child's guard to decide when
it runs. Whatever the file binds itself (its functions, classes, methods, parameters and
assignments of its own values) is its own, and text in strings and comments is never a reference.
"""
import ast
import builtins
from dataclasses import dataclass, field

IMPORTERS = {"importlib.import_module", "builtins.__import__", "importlib.__import__",
             "importlib._bootstrap._gcd_import", "pkgutil.resolve_name", "pydoc.locate",
             "runpy.run_module", "importlib.util.find_spec"}
LOOKUPS = {"builtins.getattr", "inspect.getattr_static", "builtins.object.__getattribute__",
           "builtins.type.__getattribute__"}
CODE = {"builtins.exec", "builtins.eval", "builtins.compile"}
GUARDED = {"builtins.getattr", "builtins.__import__", "importlib.import_module",
           "importlib.__import__", "importlib._bootstrap._gcd_import"}   # the child's guard sees these
MAPPINGS = ("sys.modules", ".__dict__")     # a subscript or .get() on these names an object
STR_METHODS = {"upper", "lower", "strip", "lstrip", "rstrip", "capitalize", "title", "replace",
               "format", "removeprefix", "removesuffix", "swapcase", "casefold"}
MAX_DEPTH = 40


@dataclass(frozen=True)
class Reference:
    path: str        # "torch.optim.AdamW"
    line: int


@dataclass
class Scope:
    node: ast.AST
    parent: "Scope" = None
    bindings: dict = field(default_factory=dict)   # name -> [("lib", path) | ("expr", node, scope) | ("own", node)]
    declared_global: set = field(default_factory=set)
    stars: list = field(default_factory=list)      # modules imported with `*`

    @property
    def is_class(self):
        return isinstance(self.node, ast.ClassDef)

    def bind(self, name, value):
        target = self.module() if name in self.declared_global else self
        target.bindings.setdefault(name, []).append(value)

    def module(self):
        s = self
        while s.parent:
            s = s.parent
        return s


@dataclass
class Found:
    """What a file reaches: library references, computed routes, attributes of values whose origin
    is not known (a parameter's method), and the names the file binds itself."""
    references: list = field(default_factory=list)
    computed: list = field(default_factory=list)    # (route, line): a string decided at run time
    attributes: list = field(default_factory=list)  # (name, line) on values of unknown origin
    own: set = field(default_factory=set)


class Binder(ast.NodeVisitor):
    """First pass: every scope of the file and what each name in it is bound to."""

    def __init__(self, found):
        self.found = found
        self.scope = None
        self.nodes = []         # the nodes that may stand for a library object, with that scope

    def visit(self, node):
        if isinstance(node, ast.Call) or isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) \
                and isinstance(node.ctx, ast.Load):
            self.nodes.append((node, self.scope))
        return super().visit(node)

    def run(self, tree, within=None):
        self.scope = Scope(tree, within)
        self.generic_visit(tree)
        return self.scope

    def enter(self, node, visit):
        outer, self.scope = self.scope, Scope(node, self.scope)
        visit()
        self.scope = outer

    def own(self, name, node):
        self.found.own.add(name)
        self.scope.bind(name, ("own", node))

    def visit_Global(self, node):
        self.scope.declared_global.update(node.names)

    def function(self, node, body):
        """A def or lambda: decorators and defaults run outside, parameters are its own."""
        for d in getattr(node, "decorator_list", []) + [
                a for a in node.args.defaults + node.args.kw_defaults if a]:
            self.visit(d)

        def inside():
            args = node.args
            for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if a:
                    self.own(a.arg, a)
            for part in body:
                self.visit(part)
        self.enter(node, inside)

    def visit_FunctionDef(self, node):
        self.own(node.name, node)
        self.function(node, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self.function(node, [node.body])

    def visit_ClassDef(self, node):
        for d in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(d)
        self.own(node.name, node)
        self.enter(node, lambda: [self.visit(s) for s in node.body])

    def comprehension(self, node, *parts):
        self.visit(node.generators[0].iter)       # evaluated in the enclosing scope

        def inside():
            for i, g in enumerate(node.generators):
                if i:
                    self.visit(g.iter)
                self.target(g.target, None)
                for cond in g.ifs:
                    self.visit(cond)
            for p in parts:
                self.visit(p)
        self.enter(node, inside)

    def visit_ListComp(self, node):
        self.comprehension(node, node.elt)

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node):
        self.comprehension(node, node.key, node.value)

    def visit_Import(self, node):
        for alias in node.names:
            if alias.asname:
                self.scope.bind(alias.asname, ("lib", alias.name))
            else:
                top = alias.name.split(".")[0]
                self.scope.bind(top, ("lib", top))
            self.found.references.append(Reference(alias.name, node.lineno))

    def visit_ImportFrom(self, node):
        if node.level or not node.module:      # the file's own package: nothing of a library
            for alias in node.names:
                if alias.name != "*":
                    self.own(alias.asname or alias.name, node)
            return
        for alias in node.names:
            if alias.name == "*":
                self.scope.stars.append(node.module)
                self.found.references.append(Reference(node.module, node.lineno))
                continue
            path = f"{node.module}.{alias.name}"
            self.scope.bind(alias.asname or alias.name, ("lib", path))
            self.found.references.append(Reference(path, node.lineno))

    def target(self, node, value):
        """Bind an assignment target to `value` (an expression node), or to the file's own."""
        if isinstance(node, ast.Name):
            if value is None:
                self.own(node.id, node)
            else:
                self.found.own.add(node.id)
                self.scope.bind(node.id, ("expr", value, self.scope))
        elif isinstance(node, (ast.Tuple, ast.List)):
            values = (value.elts if isinstance(value, (ast.Tuple, ast.List))
                      and len(value.elts) == len(node.elts) else [None] * len(node.elts))
            for t, v in zip(node.elts, values):
                self.target(t, v)
        elif isinstance(node, ast.Starred):
            self.target(node.value, None)
        elif isinstance(node, ast.Attribute):
            self.found.own.add(node.attr)       # self.name = ...: an attribute of its own
            self.visit(node.value)
        else:
            self.visit(node)

    def visit_Assign(self, node):
        self.visit(node.value)
        for t in node.targets:
            self.target(t, node.value)

    def visit_AnnAssign(self, node):
        if node.value:
            self.visit(node.value)
        self.target(node.target, node.value)

    def visit_AugAssign(self, node):
        self.visit(node.value)
        self.target(node.target, None)

    def visit_NamedExpr(self, node):
        self.visit(node.value)
        scope = self.scope
        while isinstance(scope.node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            scope = scope.parent
        self.found.own.add(node.target.id)
        scope.bind(node.target.id, ("expr", node.value, self.scope))

    def visit_For(self, node):
        self.visit(node.iter)
        self.target(node.target, None)
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    visit_AsyncFor = visit_For

    def visit_withitem(self, node):
        self.visit(node.context_expr)
        if node.optional_vars:
            self.target(node.optional_vars, None)

    def visit_ExceptHandler(self, node):
        if node.type:
            self.visit(node.type)
        if node.name:
            self.own(node.name, node)
        for stmt in node.body:
            self.visit(stmt)

    def visit_MatchAs(self, node):
        if node.name:
            self.own(node.name, node)
        self.generic_visit(node)

    def visit_MatchStar(self, node):
        if node.name:
            self.own(node.name, node)

    def visit_MatchMapping(self, node):
        if node.rest:
            self.own(node.rest, node)
        self.generic_visit(node)


class Resolver:
    """Second pass: the library paths each expression can stand for."""

    def __init__(self, found):
        self.found = found
        self.active = set()
        self.names = {}     # (name, id(scope)) -> paths: a name bound many times is read once

    def lookup(self, name, scope):
        start = scope
        if name in scope.declared_global:
            scope = scope.module()
        while scope is not None:
            if name in scope.bindings and (scope is start or not scope.is_class):
                return scope.bindings[name]
            scope = scope.parent
        if hasattr(builtins, name):
            return [("lib", f"builtins.{name}")]
        return [("lib", f"{m}.{name}") for m in start.module().stars]

    def paths(self, node, scope, depth=0):
        """The set of library paths `node` may stand for (empty: the file's own, or unknown)."""
        key = (id(node), id(scope))
        if depth > MAX_DEPTH or key in self.active:
            return set()
        self.active.add(key)
        try:
            return self._paths(node, scope, depth + 1)
        finally:
            self.active.discard(key)

    def _paths(self, node, scope, depth):
        if isinstance(node, ast.Name):
            key = (node.id, id(scope))
            if key not in self.names:
                found = self.names[key] = set()     # while it is read, a name is nothing
                for value in self.lookup(node.id, scope):
                    if value[0] == "lib":
                        found.add(value[1])
                    elif value[0] == "expr":
                        found |= self.paths(value[1], value[2], depth)
            return self.names[key]
        if isinstance(node, ast.Attribute):
            return {f"{p}.{node.attr}" for p in self.paths(node.value, scope, depth)}
        if isinstance(node, ast.Subscript):
            key = self.text(node.slice, scope, depth)
            return {self.entry(p, key) for p in self.paths(node.value, scope, depth)
                    if key and p.endswith(MAPPINGS)}
        if isinstance(node, ast.Call):
            return self.call(node, scope, depth)
        if isinstance(node, (ast.IfExp,)):
            return self.paths(node.body, scope, depth) | self.paths(node.orelse, scope, depth)
        if isinstance(node, ast.BoolOp):
            return set().union(*(self.paths(v, scope, depth) for v in node.values))
        if isinstance(node, ast.NamedExpr):
            return self.paths(node.value, scope, depth)
        return set()

    @staticmethod
    def entry(mapping, key):
        return key if mapping.endswith("sys.modules") else f"{mapping.removesuffix('.__dict__')}.{key}"

    def call(self, node, scope, depth):
        found = set()
        if isinstance(node.func, ast.Call) and node.args and node.func.args and \
                "operator.attrgetter" in self.paths(node.func.func, scope, depth):
            name = self.text(node.func.args[0], scope, depth)
            found |= {f"{p}.{name}" for p in self.paths(node.args[0], scope, depth) if name}
        for fn in self.paths(node.func, scope, depth):
            args = node.args
            if fn in LOOKUPS and len(args) >= 2:
                name = self.text(args[1], scope, depth)
                found |= {f"{p}.{name}" for p in self.paths(args[0], scope, depth) if name}
            elif fn in IMPORTERS and args:
                name = self.text(args[0], scope, depth)
                if name and not name.startswith("."):
                    found.add(name.replace(":", "."))
            elif fn == "builtins.vars" and args:
                found |= {f"{p}.__dict__" for p in self.paths(args[0], scope, depth)}
            elif fn.endswith(tuple(f"{m}.get" for m in MAPPINGS)) and args:
                name = self.text(args[0], scope, depth)
                if name:
                    found.add(self.entry(fn.removesuffix(".get"), name))
        return found

    def text(self, node, scope, depth=0):
        """The string an expression always gives, when it is built from constants alone."""
        if depth > MAX_DEPTH:
            return None
        depth += 1
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, (str, int)) and not isinstance(node.value, bool) else None
        if isinstance(node, ast.BinOp):
            left, right = self.text(node.left, scope, depth), self.text(node.right, scope, depth)
            if left is None or right is None:
                return None
            try:
                if isinstance(node.op, ast.Add) and type(left) is type(right):
                    return left + right
                if isinstance(node.op, ast.Mult) and {type(left), type(right)} == {str, int}:
                    return left * right if max(len(str(left)), len(str(right))) < 200 else None
            except (TypeError, OverflowError):
                return None
            return None
        if isinstance(node, ast.JoinedStr):
            parts = [self.text(v.value if isinstance(v, ast.FormattedValue) else v, scope, depth)
                     for v in node.values]
            return "".join(map(str, parts)) if None not in parts else None
        if isinstance(node, ast.Subscript):
            base = self.text(node.value, scope, depth)
            if not isinstance(base, str):
                return None
            s = node.slice
            if isinstance(s, ast.Slice):
                bounds = [self.text(b, scope, depth) if b else None for b in (s.lower, s.upper, s.step)]
                if any(b is not None and type(b) is not int for b in bounds) or bounds[2] == 0:
                    return None
                return base[slice(*bounds)]
            i = self.text(s, scope, depth)
            return base[i] if type(i) is int and -len(base) <= i < len(base) else None
        if isinstance(node, ast.Name):
            values = self.lookup(node.id, scope)
            texts = {self.text(v[1], v[2], depth) if v[0] == "expr" else None for v in values}
            return texts.pop() if len(texts) == 1 else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            base = self.text(node.func.value, scope, depth)
            if not isinstance(base, str):
                return None
            if node.func.attr == "join" and len(node.args) == 1 and isinstance(
                    node.args[0], (ast.List, ast.Tuple)):
                items = [self.text(e, scope, depth) for e in node.args[0].elts]
                return base.join(items) if all(isinstance(i, str) for i in items) else None
            if node.func.attr in STR_METHODS and not node.keywords:
                args = [self.text(a, scope, depth) for a in node.args]
                if None in args:
                    return None
                try:
                    return getattr(base, node.func.attr)(*args)
                except (TypeError, ValueError, IndexError, KeyError):
                    return None
        return None


def read(tree, found=None, within=None):
    """Found: every reference the parsed file makes, its computed routes and its own names.
    `within`: the scope that code run by `exec` or `eval` sees (with the Found it adds to)."""
    found = found or Found()
    binder = Binder(found)
    binder.run(tree, within)
    resolver = Resolver(found)
    resolved = [(node, scope, resolver.paths(node, scope)) for node, scope in binder.nodes]
    inner = set()           # parts of a longer reference: only the longest is reported
    for node, _, paths in resolved:
        if not paths:
            continue
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            inner.add(id(node.value))
            if isinstance(node.value, ast.Call):
                inner.update(id(a) for a in node.value.args)
        elif isinstance(node, ast.Call):
            inner.update([id(node.func)] + [id(a) for a in node.args])
    for node, scope, paths in resolved:
        if isinstance(node, (ast.Call, ast.Subscript)):
            computed_route(node, scope, resolver, found)
        if id(node) in inner:
            continue
        found.references += [Reference(p, node.lineno) for p in sorted(paths)
                             if not p.startswith("builtins.")]
        if isinstance(node, ast.Attribute) and not paths:
            found.attributes.append((node.attr, node.lineno))
    found.references.sort(key=lambda r: r.line)
    return found


def computed_route(node, scope, resolver, found):
    """Note a string route whose string is computed at run time; read constant code given to
    exec or eval as the file's own."""
    if isinstance(node, ast.Subscript):
        mappings = [p for p in resolver.paths(node.value, scope) if p.endswith(MAPPINGS)]
        if mappings and resolver.text(node.slice, scope) is None:
            found.computed.append((f"{mappings[0]}[...]", node.lineno))
        return
    args = node.args
    if isinstance(node.func, ast.Call) and node.func.args and \
            "operator.attrgetter" in resolver.paths(node.func.func, scope) and \
            resolver.text(node.func.args[0], scope) is None:
        found.computed.append(("operator.attrgetter", node.lineno))
    for fn in resolver.paths(node.func, scope):
        if fn in LOOKUPS and len(args) >= 2 and resolver.paths(args[0], scope) \
                and resolver.text(args[1], scope) is None:
            found.computed.append((fn, node.lineno))
        elif (fn in IMPORTERS or fn.endswith(tuple(f"{m}.get" for m in MAPPINGS))) and args \
                and resolver.text(args[0], scope) is None:
            found.computed.append((fn, node.lineno))
        elif fn in CODE and args:
            code = resolver.text(args[0], scope)
            if not isinstance(code, str):
                found.computed.append((fn, node.lineno))
                continue
            try:
                sub = ast.parse(code, mode="exec")
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            for sub_node in ast.walk(sub):       # its lines are the call's line
                if hasattr(sub_node, "lineno"):
                    sub_node.lineno = node.lineno
            read(sub, found, scope)
