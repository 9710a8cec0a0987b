"""`grader doctor`: whether class grading's sandbox works on this machine for this user, and how
each job's memory and processes are bounded here."""
import os

from . import cgroups, sandbox
from .run import Limits
from grader.errors import GraderError


def report(limits=Limits()):
    """(lines, exit status): 1 when the sandbox cannot run here."""
    root = os.geteuid() == 0
    try:
        path = sandbox.bwrap()
        lines = [f"Sandbox: bubblewrap ({path}) works, run by "
                 + ("root: each job runs as an unprivileged user of its own." if root else
                    "an ordinary user: each job runs in user and PID namespaces of its own.")]
        code = 0
    except GraderError as exc:
        lines, code = [f"Sandbox: {exc}"], 1
    group, why = cgroups.open_group()
    if group:
        group.close()
    lines.append("Job limits: " + cgroups.describe(group, why, limits.memory_mb, limits.processes)
                 + ".")
    return lines, code
