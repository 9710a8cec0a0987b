"""`grader export gradescope`: the autograder bundle Gradescope runs for every submission.

The zip holds setup.sh (installs Python, bubblewrap and the grader's pinned dependencies), the
grader's code, the chosen lessons' sources, autograder.json (which lessons, hidden cases'
visibility) and run_autograder, which grades /autograder/submission as one learner in the sandbox and
writes /autograder/results/results.json.
"""
import json
import stat
import zipfile
from pathlib import Path

from grader.runner.workers import GRADER_HOME, preload_for
from .gradebook import grader_sources

RUNTIME = ("numpy", "rich", "click")       # with torch when a lesson needs it
TORCH_INDEX = "https://download.pytorch.org/whl/cpu"

SETUP = """\
#!/usr/bin/env bash
# Gradescope runs this once, in /autograder/source, when it builds the autograder's image.
set -euo pipefail
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq python3 python3-venv python3-pip bubblewrap >/dev/null
python3 -m venv .venv
{torch}.venv/bin/pip install --quiet -r requirements.txt
.venv/bin/pip install --quiet --no-deps --no-build-isolation -e .
"""
TORCH = f".venv/bin/pip install --quiet --index-url {TORCH_INDEX} torch=={{version}}\n"
RUN = """\
#!/usr/bin/env bash
# Gradescope runs this for every submission. AUTOGRADER_ROOT (default /autograder, holding
# submission/, results/ and source/) and AUTOGRADER_PYTHON can be overridden to try the bundle
# elsewhere.
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
PY="${AUTOGRADER_PYTHON:-$SOURCE/.venv/bin/python}"
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


def build_bundle(root, lessons, zip_path, hidden_cases="after_published"):
    """Write the Gradescope autograder zip for `lessons` of the workbook at `root`."""
    root, home = Path(root), Path(GRADER_HOME)
    versions = pins(home)
    torch = "torch" in preload_for(lessons)
    requirements = "".join(f"{name}=={versions[name]}\n" for name in RUNTIME)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = zip_path.with_name(f".{zip_path.name}.tmp")
    with zipfile.ZipFile(tmp, "w") as zf:
        add(zf, "setup.sh", SETUP.format(torch=TORCH.format(version=versions["torch"]) if torch
                                         else ""), executable=True)
        add(zf, "run_autograder", RUN, executable=True)
        add(zf, "requirements.txt", requirements)
        add(zf, "pyproject.toml", (home / "pyproject.toml").read_text())
        add(zf, "autograder.json", json.dumps({"lessons": [l.id for l in lessons],
                                               "hidden_cases": hidden_cases}, indent=1))
        for path in grader_sources(home / "grader"):
            add(zf, path.relative_to(home).as_posix(), path.read_text())
        add(zf, "solutions/roadmap.toml", (root / "solutions" / "roadmap.toml").read_text())
        for lesson in lessons:
            for path in sorted(lesson.folder.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    add(zf, f"solutions/{lesson.id}/{path.relative_to(lesson.folder).as_posix()}",
                        path.read_bytes())
    tmp.replace(zip_path)
