"""The collusion evidence page (collusion.html beside the gradebook): for the instructor only, never
linked from or copied into the learners' feedback or Gradescope's results. Self-contained HTML (no
scripts, no links out); every learner-given string is escaped."""
import hashlib
from pathlib import Path

from grader.files import write_atomic
from grader.lessons.build import stub_text
from ..escape import html as e
from . import evidence

NAME = "collusion.html"
STYLE = """
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h2{font-size:1.2rem;margin-top:2rem} td,th{padding:.2rem .8rem;border-bottom:1px solid #e3e6eb;
text-align:left;vertical-align:top} table{border-collapse:collapse} .muted{color:#5b6474}
code{background:#f3f5f8;padding:0 .2rem;border-radius:3px}
"""


def given_files(lessons):
    """{lesson id: the SHA-256s of its stub and its reference}: files no learner wrote."""
    return {l.id: {hashlib.sha256(stub_text(l).encode()).hexdigest(),
                   hashlib.sha256((l.folder / "solution.py").read_bytes()).hexdigest()}
            for l in lessons}


def rows_html(head, rows):
    return ("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
            + "</table>")


def html(files, outputs):
    body = ["<h1>Collusion evidence</h1>",
            '<p class="muted">For the instructor only: evidence to look into, not a verdict. '
            "Learners may share a file or a wrong answer for innocent reasons (a study group, "
            "the same tutorial, the same slip).</p>",
            "<h2>Identical files</h2>",
            '<p class="muted">Byte-identical submissions (same SHA-256) that are neither the '
            "lesson's stub nor its reference.</p>"]
    body.append(rows_html(["Lesson", "Learners", "File (SHA-256)", "Shared by"], [
        (e(f.lesson), ", ".join(e(l) for l in f.learners), f"<code>{e(f.sha256[:16])}</code>",
         e(f"{len(f.learners)} of {f.graded} learners")) for f in files])
                if files else "<p>None.</p>")
    body += ["<h2>Shared wrong outputs</h2>",
             '<p class="muted">Pairs of learners with different files whose outputs agree on '
             "every hidden case they fail (the same cases, the same outputs), where few learners "
             "give those outputs.</p>"]
    body.append(rows_html(["Lesson", "Pair", "Hidden cases failed alike", "How rare",
                           "Diagnosed in both"], [
        (e(s.lesson), " and ".join(e(l) for l in s.pair), ", ".join(e(c) for c in s.cases),
         e(f"these outputs on all {len(s.cases)} cases: shared by {s.shared_by} of {s.graded} "
           f"learners; the rarest single one by {s.rarest}"),
         e(", ".join(s.diagnosis) or "nothing")) for s in outputs])
                if outputs else "<p>None.</p>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'\"><title>Collusion evidence</title>"
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def write(db, folder, lessons):
    """Write folder/collusion.html from the gradebook `db`; `lessons`: the Lesson objects whose
    stub and reference are known (others' files are compared as they are). Returns its path and
    (identical file groups, shared output pairs)."""
    known = given_files(lessons)
    files, outputs = evidence.gather(db, lambda lesson_id: known.get(lesson_id, set()))
    path = Path(folder) / NAME
    write_atomic(path, html(files, outputs))
    return path, files, outputs
