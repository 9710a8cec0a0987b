"""Gradescope's autograder results (results.json) for one learner, from the gradebook.

A lesson is one test, numbered as the lesson, worth the lesson's points (grader.judge.points, as the gradebook
stores them; its score as in grades.csv); each of its cases is a test worth nothing that shows passed or failed.
Hidden cases are shown `after_published` or kept `hidden`, as the instructor chooses; they carry
only their name, probe and the grader's verdict. Gradescope keeps a submission's total from the
student while any of its tests is `after_published`, until the instructor publishes the grades.
Every output is Markdown built by feedback's Markdown layer, so learner text in it is escaped.
"""
from . import feedback

VISIBILITIES = ("after_published", "hidden", "after_due_date", "visible")


def lesson_output(view, learner, lesson):
    """The lesson's feedback as Markdown (escaped as the feedback pages are), without its heading
    and cases (each case is a test of its own)."""
    cur, blocks = feedback.lesson_blocks(view, learner, lesson)
    return "\n\n".join("\n".join(feedback.block_md(kind, text)).strip()
                       for kind, text, _ in blocks if kind != "case")


def case_output(c):
    return "\n".join(feedback.case_md(c))


def results(view, learner, hidden_visibility="after_published", seconds=0):
    tests = []
    for lesson in view.lessons:
        n = lesson.number
        cur = view.current.get((learner, lesson.id))
        score = round(view.earned(learner, lesson.id) or 0.0, 6)
        tests.append({"name": f"Lesson {n:02d} · {lesson.title}", "number": str(n),
                      "score": score, "max_score": lesson.points,
                      "status": "passed" if cur is not None and cur.passed else "failed",
                      "output": lesson_output(view, learner, lesson), "output_format": "md",
                      "tags": [lesson.id], "visibility": "visible"})
        for k, c in enumerate(cur.cases if cur else [], 1):
            tests.append({"name": f"{lesson.number:02d} · {c['name']}", "number": f"{n}.{k}",
                          "score": 0.0, "max_score": 0.0,
                          "status": "passed" if c["passed"] else "failed",
                          "output": case_output(c), "output_format": "md", "tags": [lesson.id],
                          "visibility": "visible" if c["public"] else hidden_visibility})
    got, most = feedback.total(view, learner)
    return {"score": round(sum(t["score"] for t in tests), 6), "execution_time": int(seconds),
            "output": f"{got:.4g} of {most:.4g} points. Each lesson below shows its points; its "
                      "cases show what passed.", "output_format": "md", "visibility": "visible",
            "stdout_visibility": "hidden", "tests": tests}
