"""The grader's own source files and their digest, read with the standard library alone (the warm
check server's client computes it before anything heavier is imported)."""
import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
DEMO_CLASS = "demo_class"       # the demo class's learner files sit in the package; not grader code


def grader_sources(package=PACKAGE):
    """The grader's own Python files under the `grader` package folder `package`."""
    package = Path(package)
    return sorted(p for p in package.rglob("*.py") if DEMO_CLASS not in p.relative_to(package).parts)


def code_digest(package=PACKAGE):
    """The SHA-256 (hex) of the grader's code: every source file's bytes, in path order."""
    digest = hashlib.sha256()
    for path in grader_sources(package):
        digest.update(path.read_bytes())
    return digest.hexdigest()
