"""Every command README.md shows a learner in its `sh` code blocks works as typed, in order, in a
workbook of the test's own (the warm check server on, as a learner has it): a command that fails
fails the test. Commands that run until stopped are started, seen working, and stopped; the two
that cannot run inside the suite are named here with the reason, and make must know them."""
import os
import re
import select
import signal
import subprocess
import time

import pytest

from conftest import GOOD_SOFTMAX, ROOT, typed

BLOCK = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)
# command -> what it prints once it runs, before it is stopped as a learner stops it (Ctrl-C)
STARTED = {"make watch L=01": "watching exercises/01-softmax/solution.py",
           "make lab": "http://"}
# command -> why it is not run here (`make -n` shows make knows it, without running it)
NOT_RUN = {"make test": "it is this suite: run from a test it would run every test again",
           "make setup TORCH_INDEX=https://download.pytorch.org/whl/cpu":
               "it reinstalls torch from PyTorch's index over the network"}
# command -> what the learner did before typing it, as the page says
BEFORE = {"make check L=01": lambda root: (root / "exercises" / "01-softmax" / "solution.py")
          .write_text(GOOD_SOFTMAX)}


def shown_commands(text):
    """The shell commands of the page's `sh` blocks, in order, without their comments."""
    lines = [line.split("  #")[0].strip() for block in BLOCK.findall(text)
             for line in block.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def started(root, command, ready, seconds=180):
    """Start `command` in the workbook as `typed` would, wait for `ready` in its output, then
    interrupt it as Ctrl-C does; (whether it got ready, its output until then). It must then
    stop by itself."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
    env.update({"WORKBOOK_ROOT": str(root), "COLUMNS": "200", "MAKEFLAGS": " -- STAMP="})
    proc = subprocess.Popen(["bash", "-c", command], cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    out, deadline = b"", time.monotonic() + seconds
    try:
        while ready.encode() not in out and time.monotonic() < deadline:
            if select.select([proc.stdout], [], [], 0.2)[0]:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
        got_ready = ready.encode() in out
        os.killpg(proc.pid, signal.SIGINT)
        if command == "make lab":               # Jupyter asks to confirm; a second one stops it
            time.sleep(0.5)
            os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            got_ready = False
        return got_ready, out.decode(errors="replace")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_the_page_shows_the_learners_commands():
    shown = shown_commands((ROOT / "README.md").read_text())
    assert shown[:2] == ["make check", "make test"]
    assert {"make check L=01", "make hint L=01", "make status", "make watch L=01", "make stop",
            "make lab"} <= set(shown)


@pytest.mark.slow
def test_every_command_the_page_shows_works_as_typed(workbook, servers, monkeypatch):
    monkeypatch.delenv("WORKBOOK_CHECK_IDLE")        # as a learner has it: the server on
    servers.append(workbook)
    shown = shown_commands((ROOT / "README.md").read_text())
    first = typed(workbook, shown[0])
    assert first.returncode == 0 and "Next: lesson 01, A stable softmax" in first.stdout
    for command in shown[1:]:
        if command in NOT_RUN:
            known = typed(workbook, command.replace("make ", "make -n ", 1))
            assert known.returncode == 0, (command, known.stdout + known.stderr)
            continue
        BEFORE.get(command, lambda root: None)(workbook)
        if command in STARTED:
            ready, out = started(workbook, command, STARTED[command])
            assert ready and "Traceback" not in out, (command, out)
            continue
        result = typed(workbook, command)
        out = result.stdout + result.stderr
        assert result.returncode == 0 and "Traceback" not in out, (command, out)
