"""The warm check server: a check it serves prints what the same check run in process prints; the
client imports neither numpy nor torch; the server restarts for changed grader code, ends itself
when idle and on `make stop`; and a socket it cannot use means the check runs in process. Every
server a test starts is ended in its teardown, with its workers."""
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from conftest import GOOD_SOFTMAX, ROOT, descendants, typed, wait_gone
from grader.checkserver import client, place

WRONG_SOFTMAX = "import numpy as np\n\ndef softmax(x, axis=-1):\n    return np.exp(x)\n"


def check(root, *args, idle="120", code=None, python=()):
    """`grader check ARGS` as a learner's command runs it on the workbook at `root` (a server's
    idle limit `idle`; "0": in process); `code`: the folder holding the grader package to run."""
    env = {**os.environ, "WORKBOOK_ROOT": str(root), "COLUMNS": "200", "WORKBOOK_CHECK_IDLE": idle}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    result = subprocess.run([sys.executable, *python, "-m", "grader", "check", *args], env=env,
                            capture_output=True, text=True, timeout=300, cwd=root)
    return result.returncode, result.stdout, result.stderr


def server(root):
    """{"pid", "served", ...} from the workbook's server, or None when none answers."""
    return client.message_to(root, {"served": True})


def exercise(root):
    return root / "exercises" / "01-softmax" / "solution.py"


def test_a_served_check_prints_what_the_check_in_process_prints(workbook, tmp_path, servers):
    cold = tmp_path / "cold"
    shutil.copytree(workbook, cold, symlinks=True)
    servers.append(workbook)
    runs = []
    for answer in (WRONG_SOFTMAX, GOOD_SOFTMAX, GOOD_SOFTMAX):     # a failing, then a passing one
        for root in (cold, workbook):
            exercise(root).write_text(answer)
        runs.append((check(cold, "01", idle="0"), check(workbook, "01")))
    runs.append((check(cold, "01", "--json", idle="0"), check(workbook, "01", "--json")))
    for in_process, served in runs:
        assert served == in_process
    assert [r[0][0] for r in runs] == [1, 0, 0, 0]
    assert server(workbook)["served"] == len(runs)
    assert server(cold) is None and not (cold / place.FOLDER / place.SOCKET).exists()


def test_the_client_imports_neither_numpy_nor_torch(workbook, servers):
    servers.append(workbook)
    first = check(workbook, "01")
    code, out, err = check(workbook, "01", python=("-X", "importtime"))
    imported = {line.split("|")[-1].strip() for line in err.splitlines()
                if line.startswith("import time:")}
    assert "grader.checkserver.client" in imported
    assert not {m for m in imported if m.split(".")[0] in ("numpy", "torch")}
    assert server(workbook)["served"] == 2 and (code, out) == first[:2]


def test_a_changed_grader_module_is_served_by_a_new_server(workbook, tmp_path, servers):
    code = tmp_path / "code"
    shutil.copytree(ROOT / "grader", code / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    servers.append(workbook)
    first = check(workbook, "01", code=code)
    before = server(workbook)
    with open(code / "grader" / "display.py", "a") as module:
        module.write("\n# changed after the server started\n")
    again = check(workbook, "01", code=code)
    after = server(workbook)
    assert again == first and first[0] == 1
    assert after["pid"] != before["pid"] and after["served"] == 1
    assert not wait_gone([before["pid"]])


def test_a_changed_lesson_is_loaded_again(workbook, tmp_path, servers):
    servers.append(workbook)
    exercise(workbook).write_text(GOOD_SOFTMAX)
    assert check(workbook, "01")[0] == 0
    reference = workbook / "solutions" / "01-softmax" / "solution.py"
    reference.write_text(reference.read_text().replace(
        "return e / np.sum(e, axis=axis, keepdims=True)", "return 2 * e / np.sum(e, axis=axis, keepdims=True)"))
    cold = tmp_path / "cold"
    shutil.copytree(workbook, cold, symlinks=True, ignore=shutil.ignore_patterns("checker"))
    served = check(workbook, "01")
    assert served == check(cold, "01", idle="0") and served[0] == 1
    assert server(workbook)["served"] == 2


def test_the_server_ends_itself_once_idle(workbook, servers):
    servers.append(workbook)
    assert check(workbook, "01", idle="1")[0] == 1
    pid = int((workbook / place.FOLDER / place.PID).read_text())
    assert not wait_gone([pid])
    assert not (workbook / place.FOLDER / place.SOCKET).exists()


def test_make_stop_ends_the_server(workbook, servers):
    servers.append(workbook)
    checked = typed(workbook, "WORKBOOK_CHECK_IDLE=120 make check L=01")
    assert "Lesson 01" in checked.stdout and checked.returncode == 2     # make's: the stub fails
    pid = server(workbook)["pid"]
    workers = descendants(pid)
    stopped = typed(workbook, "make stop")
    assert stopped.returncode == 0 and "Stopped the warm check server." in stopped.stdout
    assert not wait_gone([pid, *workers]) and server(workbook) is None
    again = typed(workbook, "make stop")
    assert "No warm check server is running for this workbook." in again.stdout


def stale_socket(path):
    with socket.socket(socket.AF_UNIX) as sock:        # bound, then closed: nobody listens
        fd, name = place.address(path)
        sock.bind(name)
        os.close(fd)


def regular_file(path):
    path.write_text("not a socket\n")


def open_folder(path):
    path.parent.chmod(0o755)


@pytest.mark.parametrize("spoil, served", [(stale_socket, True), (regular_file, False),
                                           (open_folder, False)])
def test_a_socket_the_check_cannot_use_costs_nothing(workbook, tmp_path, servers, spoil, served):
    cold = tmp_path / "cold"
    shutil.copytree(workbook, cold, symlinks=True)
    servers.append(workbook)
    folder = place.folder(workbook)
    spoil(folder / place.SOCKET)
    assert check(workbook, "01") == check(cold, "01", idle="0")
    assert (server(workbook) is not None) == served


@given(st.text(max_size=20))
def test_any_idle_setting_gives_a_length_of_time(text):
    saved = os.environ.get("WORKBOOK_CHECK_IDLE")
    os.environ["WORKBOOK_CHECK_IDLE"] = text.replace("\0", "")
    try:
        seconds = place.idle_seconds()
    finally:
        os.environ["WORKBOOK_CHECK_IDLE"] = saved
    assert seconds >= 0 and seconds == seconds


@pytest.mark.parametrize("text, seconds", [("", 900), ("0", 0), ("2.5", 2.5), ("-3", 0),
                                           ("soon", 900)])
def test_idle_settings(monkeypatch, text, seconds):
    monkeypatch.setenv("WORKBOOK_CHECK_IDLE", text)
    assert place.idle_seconds() == seconds
