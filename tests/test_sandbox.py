"""`grader check --sandbox`: the learner's code runs unprivileged, offline, and blind to the repo;
no command line or environment it can read names the grader's folder."""
import socket

from conftest import ROOT, grader

PROBE = """\
import os, socket
import numpy as np

assert os.getuid() != 0, "the child runs as root"
assert not os.path.exists({solutions!r}), "the lesson sources are visible"
assert len([p for p in os.listdir("/proc") if p.isdigit()]) < 8, "the host's processes are visible"
for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    for part in ("cmdline", "environ"):
        try:
            seen = open(f"/proc/{{pid}}/{{part}}", "rb").read().decode(errors="replace")
        except OSError:
            continue
        assert {home!r} not in seen, f"the grader's folder shows in /proc/{{pid}}/{{part}}: {{seen}}"
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=1).close()
    raise AssertionError("the network is reachable")
except OSError:
    pass

def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
"""


def test_sandboxed_code_is_unprivileged_offline_and_blind(workbook, tmp_path):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        probe = tmp_path / "probe.py"
        probe.write_text(PROBE.format(solutions=str(workbook / "solutions"), home=str(ROOT),
                                      port=server.getsockname()[1]))
        inside = grader(workbook, "check", "01", "--file", str(probe), "--sandbox")
        outside = grader(workbook, "check", "01", "--file", str(probe))
    assert inside.returncode == 0, inside.stdout
    assert outside.returncode == 1 and "could not be imported" in outside.stdout


def test_a_python_installation_under_tmp_stays_visible(monkeypatch):
    """The private /tmp is mounted first, so a virtual environment kept under /tmp is shown in it."""
    from grader.runner import sandbox
    monkeypatch.setattr(sandbox, "python_roots", lambda: ["/tmp/somewhere/.venv"])
    argv = sandbox.options(str(ROOT))
    tmpfs = argv.index("--tmpfs")
    bind = max(i for i, a in enumerate(argv) if a == "/tmp/somewhere/.venv")
    assert argv[tmpfs + 1] == "/tmp" and tmpfs < bind and argv[bind - 2] == "--ro-bind"


def test_the_command_line_names_no_host_folder():
    """bubblewrap's options (every mount's source) travel through a file descriptor; the command
    line holds only the interpreter's path inside the sandbox and its arguments."""
    import os
    import sys
    from grader.runner import sandbox
    argv, fds = sandbox.command("bwrap", str(ROOT), ["-m", "grader.runner.child"])
    try:
        options = os.pread(fds[-1], 1 << 20, 0).split(b"\0")
    finally:
        for fd in fds:
            os.close(fd)
    assert not any(str(ROOT) in part for part in argv), argv
    assert argv[1] == "--args" and argv[-2:] == ["-m", "grader.runner.child"]
    assert sys.prefix.encode() in options or sys.prefix == sys.base_prefix   # the mounts' sources
    assert not any(part.startswith(f"{ROOT}/grader".encode()) for part in options)   # copied in


def test_each_job_has_its_own_tmp_and_still_sees_the_installation_under_tmp(monkeypatch):
    """A job's /tmp is a fresh one of its own, yet a folder of the Python installation that lies
    under /tmp is still shown inside it; a file one job leaves in /tmp is not there for the next."""
    import os
    import tempfile
    from pathlib import Path
    from grader.lessons import lesson, roadmap
    from grader.runner import run, sandbox
    from grader.runner.workers import Pool
    softmax = lesson.load(roadmap.load(ROOT), "01")
    with tempfile.TemporaryDirectory(dir="/tmp") as site:
        Path(site, "helper_under_tmp.py").write_text("VALUE = 7\n")
        os.chmod(site, 0o755)
        roots = sandbox.python_roots()
        monkeypatch.setattr(sandbox, "python_roots", lambda: roots + [site])
        source = ("import os, sys\nsys.path.append(%r)\nimport helper_under_tmp\n"
                  "LEFT = os.path.exists('/tmp/left-by-a-job')\n"
                  "open('/tmp/left-by-a-job', 'w').close()\n"
                  "def softmax(x, axis=-1):\n    raise ValueError(f'{helper_under_tmp.VALUE} {LEFT}')\n"
                  % site)
        with Pool(1, sandboxed=True, preload=("numpy",)) as pool:
            said = [pool.run(lambda w: run.run_job(w, source, softmax.cases[:1], run.Limits()))
                    .outcomes[0].error["message"] for _ in range(2)]
    assert said == ["7 False", "7 False"], said
