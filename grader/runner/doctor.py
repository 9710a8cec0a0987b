"""`grader doctor`: whether class grading's sandbox works on this machine for this user (or, with
`fallback`, the unprivileged-user isolation the Gradescope bundle falls back to), and how each
job's memory and processes are bounded here."""
import os

from . import cgroups, isolation
from .run import Limits
from grader.errors import GraderError


def report(limits=Limits(), fallback=False):
    """(lines, exit status): 1 when jobs cannot be isolated here."""
    root = os.geteuid() == 0
    try:
        chosen = isolation.choose(True, fallback)
        if chosen.kind == "sandbox":
            lines = [f"Sandbox: bubblewrap ({chosen.bwrap}) works, run by "
                     + ("root: each job runs as an unprivileged user of its own." if root else
                        "an ordinary user: each job runs in user and PID namespaces of its own.")]
        else:
            lines = ["Sandbox: bubblewrap cannot start here; jobs run as an unprivileged user "
                     "instead.", chosen.describe()]
        code = 0
    except GraderError as exc:
        lines, code = [f"Sandbox: {exc}"], 1
    group, why = cgroups.open_group()
    if group:
        group.close()
    lines.append("Job limits: " + cgroups.describe(group, why, limits.memory_mb, limits.processes)
                 + ".")
    return lines, code
