"""A lesson's rules as the learner's code runs: what a string computed at run time reaches (an
import by name, a getattr) cannot be read from the source, so the child refuses it when it happens.

Installed before the learner's module runs, from the rules the parent sends: `banned`, names that no
module path or library object may have as a part, and `libraries`, the only libraries a numpy
lesson may import beyond the standard library. The routes that take a string are wrapped where they
start: `__import__`, importlib's `_gcd_import` (behind `import_module` and `importlib.__import__`),
`getattr`, and a finder for modules not loaded yet. A call is the learner's when the nearest frame
that is not the standard library's (which only passes a request on) is the learner's file; an
`import` statement of that file is left to the static check, which reads it. A refusal records the
learner's line, and every frame the child sends carries what was refused. Installing touches a few
objects only: nothing is removed from sys.modules, so a fork pays for no page it did not use.
"""
import builtins
import dis
import importlib
import os
import sys
import types

OWN = ("grader", "solution", "__main__")    # the child's own code and the learner's module
STDLIB = os.path.dirname(os.__file__) + os.sep
IMPORT_NAME = dis.opmap["IMPORT_NAME"]
real_import, real_getattr = builtins.__import__, builtins.getattr


class RuleBroken(ImportError):
    """What the learner's code gets where it reached what the lesson forbids."""


def passes_on(filename):
    """Whether a frame of this file only passes a request on: the standard library, frozen
    importlib, or code compiled from a string (the learner's exec)."""
    return filename.startswith("<") or filename.startswith(STDLIB) and "-packages" not in filename


class Guard:
    def __init__(self, rules, path):
        self.banned = [key.split(".") for key in rules.get("banned") or ()]
        self.last = {key[-1]: ".".join(key) for key in self.banned}
        libraries = rules.get("libraries")
        self.libraries = None if libraries is None else set(libraries) | set(OWN)
        self.path = path
        self.broken = []

    def key(self, name):
        """The rule a dotted module or object name breaks: a banned part, or "numpy-only"."""
        parts = name.split(".")
        for key in self.banned:
            if any(parts[i:i + len(key)] == key for i in range(len(parts))):
                return ".".join(key)
        if self.libraries is not None and parts[0] not in self.libraries \
                and parts[0] not in sys.stdlib_module_names:
            return "numpy-only"
        return None

    def learner_frame(self, depth):
        """The learner's frame a call `depth` frames up came from, or None (a library's own)."""
        frame = sys._getframe(depth + 1)
        while frame is not None:
            filename = frame.f_code.co_filename
            if filename == self.path:
                return frame
            if not passes_on(filename):
                return None
            frame = frame.f_back
        return None

    def refuse(self, key, name, frame):
        self.broken.append([key, frame.f_lineno, name.split(".")[0]])
        raise RuleBroken(f"`{name}` is not allowed in this lesson")

    def take(self):
        """What was refused since the last frame."""
        taken, self.broken = self.broken, []
        return taken

    def imported(self, name, fromlist, depth):
        """Refuse an import of `name` (absolute) or of `fromlist` from it, if the learner asked."""
        names = [name] + [f"{name}.{n}" for n in fromlist or () if isinstance(n, str)]
        found = [(k, n) for n in names if (k := self.key(n))]
        if found:
            frame = self.learner_frame(depth + 1)
            if frame is not None:
                self.refuse(*found[0], frame)

    def find_spec(self, name, path=None, target=None):
        """The import system's question about a module not loaded yet: refused when forbidden and
        asked by the learner, else left to the finders after this one."""
        self.imported(name, (), 1)
        return None

    def attribute(self, obj, name, value, depth):
        """Refuse a forbidden object that a getattr by the learner reached."""
        if isinstance(obj, types.ModuleType):
            key = self.key(f"{obj.__name__}.{name}")
        elif isinstance(value, types.ModuleType):
            key = self.key(value.__name__)
        elif "solution" in (own_module(value), own_module(obj), own_module(type(obj))):
            key = None          # the file's own object, or an attribute of one
        else:
            key = self.last.get(name)
        if key:
            frame = self.learner_frame(depth + 1)
            if frame is not None:
                self.refuse(key, name, frame)


def own_module(value):
    """The module a function, method or class was defined in (None if it does not say)."""
    try:
        return object.__getattribute__(real_getattr(value, "__func__", value), "__module__")
    except Exception:
        return None


def install(rules, path):
    """Refuse what `rules` forbid to the code of the file `path`; the Guard, or None when the
    lesson forbids nothing."""
    if not rules:
        return None
    guard = Guard(rules, path)
    bootstrap = importlib._bootstrap
    real_gcd = bootstrap._gcd_import

    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        caller = sys._getframe(1)
        statement = (caller.f_code.co_filename == path
                     and caller.f_code.co_code[caller.f_lasti] == IMPORT_NAME)
        if level == 0 and not statement:
            guard.imported(name, fromlist, 1)
        return real_import(name, globals, locals, fromlist, level)

    def guarded_gcd_import(name, package=None, level=0):
        if level == 0:
            guard.imported(name, (), 1)
        return real_gcd(name, package, level)

    def guarded_getattr(obj, name, *default):
        value = real_getattr(obj, name, *default)
        if type(name) is str:
            filename = sys._getframe(1).f_code.co_filename
            if filename == path or passes_on(filename):
                guard.attribute(obj, name, value, 1)
        return value

    builtins.__import__, builtins.getattr = guarded_import, guarded_getattr
    bootstrap._gcd_import = guarded_gcd_import
    sys.meta_path.insert(0, guard)
    return guard
