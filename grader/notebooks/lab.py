"""`make lab`: JupyterLab on the lesson notebooks. nbgrader is installed for instructors; a learner
gets Lab without its menus, sidebar and config warnings (`--instructor` keeps them).

Lab is given a Jupyter config folder of its own, `.workbook/jupyter/`, in which every extension of
nbgrader's (the server's, found in the installed config, and Lab's) is turned off.
"""
import json
import os
import sys
from pathlib import Path

from jupyter_core.paths import jupyter_config_path, jupyter_path

from grader.files import write_atomic
from grader.runner.workers import GRADER_HOME

NBGRADER = "nbgrader"


def server_extensions():
    """The names of nbgrader's server extensions that the installed Jupyter config enables."""
    names = set()
    for folder in map(Path, jupyter_config_path()):
        for path in [folder / "jupyter_server_config.json",
                     *sorted(folder.glob("jupyter_server_config.d/*.json"))]:
            try:
                config = json.loads(path.read_text())
            except (OSError, ValueError):
                continue
            found = config.get("ServerApp", {}).get("jpserver_extensions", {})
            names |= {name for name in found if name.split(".")[0] == NBGRADER}
    return sorted(names)


def lab_extensions():
    """The names of nbgrader's JupyterLab (front-end) extensions that are installed."""
    names = set()
    for folder in map(Path, jupyter_path("labextensions")):
        for package in folder.glob("**/package.json"):
            try:
                name = json.loads(package.read_text()).get("name", "")
            except (OSError, ValueError):
                continue
            if NBGRADER in name.split("/")[-1]:
                names.add(name)
    return sorted(names)


def learner_config(root):
    """Write `.workbook/jupyter/`, a Jupyter config folder with nbgrader's extensions off."""
    folder = Path(root) / ".workbook" / "jupyter"
    server = {"ServerApp": {"jpserver_extensions": dict.fromkeys(server_extensions(), False)}}
    page = {"disabledExtensions": dict.fromkeys(lab_extensions(), True)}
    write_atomic(folder / "jupyter_server_config.json", json.dumps(server, indent=1) + "\n")
    write_atomic(folder / "labconfig" / "page_config.json", json.dumps(page, indent=1) + "\n")
    return folder


def environment(root, instructor=False):
    """The environment Lab runs in: a learner's sees nbgrader's extensions turned off."""
    env = dict(os.environ)
    if not instructor:
        env["JUPYTER_CONFIG_DIR"] = str(learner_config(root))
    return env


def main(argv):
    """`python -m grader.notebooks.lab [--instructor] -- LAB ARGUMENTS`: run JupyterLab."""
    ours, lab = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    root = os.environ.get("WORKBOOK_ROOT") or GRADER_HOME
    env = environment(root, "--instructor" in ours)
    if os.geteuid() == 0 and "--allow-root" not in lab:     # Jupyter refuses root without it
        lab.append("--allow-root")
    os.execvpe(sys.executable, [sys.executable, "-m", "jupyter", "lab", *lab], env)


if __name__ == "__main__":
    main(sys.argv[1:])
