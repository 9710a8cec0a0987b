"""`grader export gradescope`: the autograder bundle Gradescope runs for every submission.

The zip holds setup.sh, the grader's code, the chosen lessons' sources, autograder.json (which
lessons, hidden cases' visibility, the course's points, due dates and late policies) and
run_autograder, which grades /autograder/submission as one
learner and writes /autograder/results/results.json.

setup.sh is written for Gradescope's Ubuntu base images, 22.04 (Python 3.10, so it installs the
distribution's python3.11) and 24.04 (Python 3.12): it installs bubblewrap and a virtual
environment outside /autograder/source (the jobs may not read that folder, but do import from the
environment) holding only the pinned runtime libraries; the grader itself is imported from the
source folder (no install of it), and `grader doctor --fallback` makes a bundle that cannot
isolate its jobs fail when the autograder is built, not when students submit. pip's own settings
(PIP_INDEX_URL, PIP_FIND_LINKS, PIP_NO_INDEX) choose where packages come from.
"""
import json
import stat
import zipfile
from pathlib import Path

from grader.runner.workers import GRADER_HOME, preload_for
from grader.sources import grader_sources

RUNTIME = ("numpy", "rich", "click")       # with torch when a lesson needs it
TORCH_INDEX = "https://download.pytorch.org/whl/cpu"

VENV = "/opt/workbook-venv"
SETUP = f"""\
#!/usr/bin/env bash
# Gradescope runs this once, as root in /autograder/source, when it builds the autograder's image
# (written for its Ubuntu 22.04 and 24.04 base images). AUTOGRADER_VENV (default {VENV}) says
# where the virtual environment goes.
set -euo pipefail
cd "$(dirname "$0")"
VENV="${{AUTOGRADER_VENV:-{VENV}}}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq bubblewrap python3 >/dev/null
# numpy needs Python 3.11 or later: Ubuntu 22.04's python3 is 3.10, so there take its python3.11
if python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then PY=python3; else PY=python3.11; fi
apt-get install -y -qq "$PY" "$PY-venv" >/dev/null
"$PY" -m venv "$VENV"
@TORCH@"$VENV/bin/pip" install --quiet -r requirements.txt
PYTHONPATH="$PWD" "$VENV/bin/python" -P -m grader doctor --fallback
"""
TORCH = f'"$VENV/bin/pip" install --quiet --index-url {TORCH_INDEX} torch=={{version}}\n'
RUN = f"""\
#!/usr/bin/env bash
# Gradescope runs this for every submission. AUTOGRADER_ROOT (default /autograder, holding
# submission/, results/ and source/), AUTOGRADER_VENV (as in setup.sh) and AUTOGRADER_PYTHON
# can be overridden to try the bundle elsewhere.
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
SOURCE="$ROOT/source"
PY="${{AUTOGRADER_PYTHON:-${{AUTOGRADER_VENV:-{VENV}}}/bin/python}}"
cd "$SOURCE" && PYTHONPATH="$SOURCE" exec "$PY" -P -m grader.classroom.autograder "$ROOT"
"""


def pins(root):
    """The pinned requirements, by package name."""
    found = {}
    for line in (Path(root) / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            found[line.split("==")[0].strip().lower()] = line.split("==")[1].strip()
    return found


def add(zf, name, text, executable=False):
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, text)


def build_bundle(root, lessons, zip_path, hidden_cases="after_published", rules=None, dates=None):
    """Write the Gradescope autograder zip for `lessons` of the workbook at `root`, each worth
    what `rules` (lesson id -> points.Rule; default: the default rule) gives it, due when `dates`
    (course.portable.dates) says, under its late policy."""
    rules = rules or {}
    root, home = Path(root), Path(GRADER_HOME)
    versions = pins(home)
    torch = "torch" in preload_for(lessons)
    requirements = "".join(f"{name}=={versions[name]}\n" for name in RUNTIME)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = zip_path.with_name(f".{zip_path.name}.tmp")
    with zipfile.ZipFile(tmp, "w") as zf:
        add(zf, "setup.sh", SETUP.replace("@TORCH@", TORCH.format(version=versions["torch"])
                                          if torch else ""), executable=True)
        add(zf, "run_autograder", RUN, executable=True)
        add(zf, "requirements.txt", requirements)
        config = {"lessons": [l.id for l in lessons], "hidden_cases": hidden_cases}
        if rules:
            config["rules"] = {l.id: rules[l.id].to_json() for l in lessons if l.id in rules}
        config.update(dates or {})
        add(zf, "autograder.json", json.dumps(config, indent=1))
        for path in grader_sources(home / "grader"):
            add(zf, path.relative_to(home).as_posix(), path.read_text())
        add(zf, "solutions/roadmap.toml", (root / "solutions" / "roadmap.toml").read_text())
        for lesson in lessons:
            for path in sorted(lesson.folder.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    add(zf, f"solutions/{lesson.id}/{path.relative_to(lesson.folder).as_posix()}",
                        path.read_bytes())
    tmp.replace(zip_path)
