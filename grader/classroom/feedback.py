"""Feedback for one learner, from the gradebook: per lesson the score, each case passed or failed in
the words `grader check` uses, the diagnoses, broken rules and the hint tier to read; as Markdown
(also what `grader feedback` prints) and as one self-contained HTML page (no scripts, no links out).

Only what the gradebook stores for learners' eyes is shown: hidden cases by name, probe and verdict.
Every string goes through escape's layer of its format (Markdown or HTML): learner text can make
no markup in either.
"""
from pathlib import PurePath

from grader.judge import points
from .escape import html as e, html_prose as prose, md, md_block, md_code, md_prose

STYLE = """
body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.6rem;margin-bottom:.2rem} h2{font-size:1.2rem;margin:2rem 0 .4rem;padding-top:1rem;
border-top:1px solid #d8dce3} .score{float:right;font-weight:600} .ok{color:#17743a} .bad{color:#b3261e}
.muted{color:#5b6474} ul.cases{list-style:none;padding-left:0} ul.cases li{margin:.25rem 0}
pre{background:#f3f5f8;padding:.4rem .6rem;border-radius:4px;white-space:pre-wrap;margin:.2rem 0 .2rem 1.4rem}
.why{background:#fff6db;border-left:4px solid #e0a800;padding:.4rem .8rem;margin:.6rem 0}
.rule{background:#fdecea;border-left:4px solid #b3261e;padding:.4rem .8rem;margin:.6rem 0}
.hint{background:#e8f1fd;border-left:4px solid #2a6fdb;padding:.4rem .8rem;margin:.6rem 0}
code{background:#f3f5f8;padding:0 .2rem;border-radius:3px} table{border-collapse:collapse}
.sub{margin-left:1.4rem} .tag{font-size:.75rem;border:1px solid #9aa3b2;border-radius:3px;
padding:0 .3rem;margin-right:.3rem} td,th{padding:.2rem .8rem;border-bottom:1px solid #e3e6eb;text-align:left}
"""


def shown_path(path, learner):
    """The submission's path from the learner's own folder on (never the instructor's paths)."""
    parts = PurePath(path).parts
    if learner in parts:
        return "/".join(parts[len(parts) - parts[::-1].index(learner):]) or PurePath(path).name
    return PurePath(path).name


def hint_step(lesson, cur):
    """Which hint tier to read next, as `grader check` words it."""
    tier = cur.hint or 1
    title = lesson.hints[tier - 1] if tier <= len(lesson.hints) else ""
    about = f" ({title})" if title else ""
    return (f"Stuck? Read hint {tier}{about}: `make hint L={lesson.number:02d}` reveals one tier "
            f"per call" + (", starting with hint 1." if tier > 1 else "."))


def when(at):
    return at[:16].replace("T", " ")


def instructor_blocks(view, learner, lesson):
    """The instructor's override and comments on learner x lesson, as feedback blocks."""
    blocks = []
    override = view.overrides.get((learner, lesson.id))
    if override is not None:
        text = (f"Your instructor set this lesson's score to {override.score:g} of "
                f"{lesson.points:g} points ({override.by}, {when(override.at)})"
                + (f": {override.comment}" if override.comment else "."))
        if view.override_stale(learner, lesson.id):
            text += (" This was set for an earlier version of your submission, which has changed "
                     "since.")
        blocks.append(("override", text, None))
    for c in view.comments.get((learner, lesson.id), []):
        blocks.append(("comment", f"Comment from {c.by} ({when(c.at)}): {c.text}", None))
    for n in view.notes_on_mistakes(learner, lesson.id):
        blocks.append(("comment", f"Comment from {n.by} ({when(n.at)}) on a mistake found in "
                       f"your submission: {n.text}" + mistake_points(n, override), None))
    return blocks


def mistake_points(note, override):
    """What a mistake note's points did to the lesson's (nothing under an override)."""
    if not note.points or override is not None:
        return ""
    return f" ({note.points:+g} points)"


def lesson_blocks(view, learner, lesson):
    """The lesson's feedback as (kind, text, extra) blocks, shared by every format."""
    cur = view.current.get((learner, lesson.id))
    notes = [u for u in view.notes(learner) if u[1] == lesson.id]
    blocks = []
    if cur is None:
        status = ("not graded" if any(u[2] for u in notes) else "not submitted")
        blocks.append(("status", status, None))
        blocks += [("note", (f"{u[2]}: " if u[2] else "") + u[3], None) for u in notes]
        return None, blocks + instructor_blocks(view, learner, lesson)
    total = cur.cases_total
    blocks.append(("status", "passed" if cur.passed else "not passed: a rule is broken"
                   if cur.violations else f"{cur.cases_passed}/{total} cases passed",
                   None))
    blocks += instructor_blocks(view, learner, lesson)
    kept = view.kept(learner, lesson.id)
    if kept is not None:
        blocks.append(("published", f"Your published score of {kept:.4g} is kept; this "
                       f"submission scores {view.scored(learner, lesson.id):.4g} since the lesson "
                       "was regraded (a regrade never lowers a published score).", None))
    if lesson.rule != points.DEFAULT:
        blocks.append(("points", points_text(lesson, cur), None))
    if cur.timing is not None and cur.timing.due is not None:
        blocks.append(("timing", " ".join(cur.timing.lines()), None))
    blocks.append(("file", shown_path(cur.path, learner), None))
    blocks += [("note", f"{u[2]}: {u[3]}", None) for u in notes if u[2]]
    blocks += [("note", note, None) for note in cur.notes]
    if cur.feedback_error:
        line = f" (line {cur.error_line})" if cur.error_line else ""
        blocks.append(("error", cur.feedback_error + line, None))
    for v in cur.violations:
        blocks.append(("rule", f"rule broken: {v['message']}", None))
    waiting = [c for c in cur.cases if c["verdict"] == "not implemented yet"]
    if cur.cases and len(waiting) == len(cur.cases):
        blocks.append(("error", f"not implemented yet ({len(waiting)} cases are waiting)", None))
    elif not (cur.feedback_error and cur.cases_passed == 0 and not cur.violations
              and all(c["verdict"].startswith("not run") for c in cur.cases)):
        for c in cur.cases:
            blocks.append(("case", c, None))
    for d in cur.diagnosis:
        blocks.append(("why", d["message"], None))
    if not cur.passed and not cur.fault:
        blocks.append(("hint", hint_step(lesson, cur), None))
    return cur, blocks


def points_text(lesson, cur):
    rule = lesson.rule
    broken = (f"; a broken rule keeps {rule.broken_rule:.0%} of them" if cur.violations else "")
    return f"{cur.earned:.4g} of {rule.points:g} points ({rule.describe()}{broken})"


def heading(view, learner, lesson):
    score = shown_score(view, learner, lesson)
    return f"Lesson {lesson.number:02d} · {lesson.title}", score


def shown_score(view, learner, lesson):
    """The share of the lesson's points earned ("" when nothing was graded)."""
    got = view.earned(learner, lesson.id)
    if got is None:
        cur = view.current.get((learner, lesson.id))
        return "" if cur is None else f"{cur.score:.0%}"
    return f"{got / lesson.points:.0%}" if lesson.points else f"{got:g}"


def other_notes(view, learner):
    return [u for u in view.notes(learner) if u[1] is None or (u[2] and u[1] not in
                                                               {l.id for l in view.lessons})]


def how_scored(view):
    if all(l.rule == points.DEFAULT for l in view.lessons):
        return "each lesson's share of its cases passed"
    return "each lesson's points as the course gives them"


def total(view, learner):
    """(points earned, points the lessons are worth) for `learner` (grader.judge.points)."""
    scores = [view.earned(learner, l.id) for l in view.lessons]
    return sum(s for s in scores if s is not None), sum(l.points for l in view.lessons)


# ---- Markdown (and the terminal) ----

def case_md(c):
    mark = "✓" if c["passed"] else "✗"
    lines = [f"- {mark} {md(c['name'])}" + ("" if c["passed"] else f": {md_prose(c['verdict'])}")]
    shown = c["shown"] if c["public"] else {}
    if c["public"] and not c["passed"]:
        for key in ("input", "expected", "got", "where"):
            if key in shown:
                lines.append(f"    - {key}: {md_code(shown[key])}")
    elif not c["public"] and not c["passed"] and c["probe"]:
        lines.append(f"    - probes: {md_prose(c['probe'])} (a hidden case: its input is not shown)")
    if shown.get("printed"):
        lines.append("    - your code printed:\n\n" + md_block(shown["printed"], "      ") + "\n")
    return lines


def block_md(kind, text):
    """One feedback block (see lesson_blocks) as Markdown lines."""
    if kind == "status":
        return [f"**{md(text)}**", ""]
    if kind == "file":
        return [f"File: {md_code(text)}", ""]
    if kind == "points":
        return [f"Points: {md_prose(text)}", ""]
    if kind in ("timing", "published"):
        return [md_prose(text), ""]
    if kind in ("override", "comment"):
        return ["", f"**{'Override' if kind == 'override' else 'Comment'}:** {md_prose(text)}", ""]
    if kind == "case":
        return case_md(text)
    if kind == "why":
        return ["", f"**Why:** {md_prose(text)}"]
    if kind == "hint":
        return ["", md_prose(text)]
    if kind == "rule":
        return [f"- ✗ {md_prose(text)}"]
    return [f"- {md_prose(text)}"]


def note_md(path, reason):
    return f"- {md_code(path)}: {md_prose(reason)}"


def markdown(view, learner):
    got, most = total(view, learner)
    lines = [f"# Feedback for {md(learner)}", "", f"Total: {got:.4g} of {most:.4g} points "
             f"({how_scored(view)}).", ""]
    for lesson in view.lessons:
        cur, blocks = lesson_blocks(view, learner, lesson)
        title, score = heading(view, learner, lesson)
        lines += [f"## {md(title)}" + (f" — {score}" if score else ""), ""]
        for kind, text, _ in blocks:
            lines += block_md(kind, text)
        lines.append("")
    others = other_notes(view, learner)
    if others:
        lines += ["## Files that were not graded", ""]
        lines += [note_md(u[2], u[3]) for u in others]
    return "\n".join(lines).rstrip() + "\n"


# ---- HTML ----

def case_html(c):
    if c["passed"]:
        out = [f'<li><span class="ok">✓</span> {e(c["name"])}']
    else:
        out = [f'<li><span class="bad">✗ {e(c["name"])}</span>: {e(c["verdict"])}']
    shown = c["shown"] if c["public"] else {}
    if c["public"] and not c["passed"]:
        out += [f"<pre>{e(key)}: {e(shown[key])}</pre>" for key in ("input", "expected", "got",
                                                                      "where") if key in shown]
    elif not c["public"] and not c["passed"] and c["probe"]:
        out.append(f'<div class="sub muted"><span class="tag">hidden case</span> probes: '
                   f'{e(c["probe"])}</div>')
    if shown.get("printed"):
        out.append(f'<div class="sub muted">your code printed:</div><pre>{e(shown["printed"])}</pre>')
    return "".join(out) + "</li>"


def html_page(view, learner):
    got, most = total(view, learner)
    body = [f"<h1>Feedback for {e(learner)}</h1>",
            f'<p class="muted">Total: <b>{got:.4g}</b> of {most:.4g} points '
            f"({e(how_scored(view))}).</p>", "<table><tr><th>Lesson</th><th>Score</th></tr>"]
    for lesson in view.lessons:
        cur = view.current.get((learner, lesson.id))
        body.append(f"<tr><td>{lesson.number:02d} · {e(lesson.title)}</td><td>"
                    f"{shown_score(view, learner, lesson) or '—'}</td></tr>")
    body.append("</table>")
    for lesson in view.lessons:
        cur, blocks = lesson_blocks(view, learner, lesson)
        title, score = heading(view, learner, lesson)
        klass = "ok" if cur and cur.passed else "bad"
        body.append(f'<h2>{e(title)}<span class="score {klass}">{e(score)}</span></h2>')
        cases = []
        for kind, text, _ in blocks:
            if kind == "case":
                cases.append(case_html(text))
                continue
            if cases:
                body.append('<ul class="cases">' + "".join(cases) + "</ul>")
                cases = []
            if kind == "status":
                body.append(f'<p class="{klass}"><b>{e(text)}</b></p>')
            elif kind == "points":
                body.append(f"<p>Points: {e(text)}</p>")
            elif kind in ("override", "comment"):
                body.append(f'<div class="hint {kind}">{e(text)}</div>')
            elif kind in ("timing", "published"):
                body.append(f'<p class="{kind}">{e(text)}</p>')
            elif kind == "file":
                body.append(f'<p class="muted">File: <code>{e(text)}</code></p>')
            elif kind == "why":
                body.append(f'<div class="why"><b>Why:</b> {prose(text)}</div>')
            elif kind == "hint":
                body.append(f'<div class="hint">{prose(text)}</div>')
            elif kind in ("rule", "error"):
                body.append(f'<div class="rule">{prose(text)}</div>')
            else:
                body.append(f"<p>{e(text)}</p>")
        if cases:
            body.append('<ul class="cases">' + "".join(cases) + "</ul>")
    others = other_notes(view, learner)
    if others:
        body.append("<h2>Files that were not graded</h2><ul>"
                    + "".join(f"<li><code>{e(u[2])}</code>: {e(u[3])}</li>" for u in others)
                    + "</ul>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'\">"
            f"<meta name=\"viewport\" content=\"width=device-width\"><title>Feedback for {e(learner)}"
            f"</title><style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
