"""Trusted code runs in several threads of one grader at once (a lesson's answers are computed while
another lesson's jobs are diagnosed): it must leave the process's stdout alone, or the run's summary
is printed into a buffer nobody reads."""
import io
import os
import subprocess
import sys
import threading

import pytest

from grader.judge import trusted
from grader.lessons.authoring import Call, Case

NUMPY_LESSONS = ["01-softmax", "02-attention", "03-causal-mask", "04-sigmoid-gelu",
                 "05-layer-norm", "06-rmsnorm", "07-heads", "08-mha"]
SCALED = """

def _scaled(f):
    def scaled(*args, **kwargs):
        return 1.5 * f(*args, **kwargs)
    return scaled


for _name in {names!r}:
    globals()[_name] = _scaled(globals()[_name])
"""


def test_trusted_code_run_from_many_threads_leaves_stdout_alone(monkeypatch):
    source = ("import time\n\ndef noisy(x):\n    print('the reference talks')\n"
              "    time.sleep(0.001)        # as a torch op would, it lets other threads run\n"
              "    return x + 1.0\n")
    cases = [Case(f"c{i}", (Call("noisy", (float(i),), {}),)) for i in range(10)]
    before, start = io.StringIO(), threading.Barrier(8)
    monkeypatch.setattr(sys, "stdout", before)
    answers = []

    def work():
        start.wait()
        for _ in range(10):
            ns = {"__name__": "lesson_test_reference"}
            exec(source, ns)
            answers.append(trusted.run(ns, cases))
    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sys.stdout is before
    assert len(answers) == 80 and all(o.status == "ok" for a in answers for o in a)
    assert "the reference talks" not in before.getvalue()


@pytest.mark.slow
def test_twenty_parallel_class_runs_all_print_their_summary(lesson_sources, tmp_path):
    """Eight lessons, one learner right and one wrong in a way only the grader's own reading
    explains (so diagnosing runs trusted code while later lessons are prepared)."""
    from grader.lessons import lesson as lessons_, roadmap
    road = roadmap.load(lesson_sources)
    cls = tmp_path / "class"
    for lesson_id in NUMPY_LESSONS:
        lesson = lessons_.load(road, lesson_id)
        for learner, extra in (("right", ""), ("wrong", SCALED.format(names=lesson.spec.functions))):
            (cls / learner).mkdir(parents=True, exist_ok=True)
            (cls / learner / f"{lesson_id}.py").write_text(lesson.reference_source + extra)
    env = {**os.environ, "WORKBOOK_ROOT": str(lesson_sources), "COLUMNS": "200"}
    runs = [subprocess.Popen([sys.executable, "-m", "grader", "grade", str(cls), "--lessons",
                              ",".join(l[:2] for l in NUMPY_LESSONS), "--out",
                              str(tmp_path / f"out{k}"), "--no-sandbox", "--jobs", "2"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                             cwd=tmp_path) for k in range(20)]
    for run in runs:
        out, err = run.communicate(timeout=900)
        assert run.returncode == 0, out + err
        assert "Graded 16 submissions from 2 learners on 8 lessons" in out, out + err
        assert "Written from the gradebook" in out, out + err
