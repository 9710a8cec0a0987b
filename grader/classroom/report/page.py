"""The class report as one self-contained HTML page: figures embedded as PNG data, no script, no
link out (its Content-Security-Policy forbids both). Every learner-controlled string (folder names,
error text) is escaped. The numbers also sit in data- attributes, for tools and tests to read."""
import base64
import re

from ..escape import html as e, html_prose as prose
from . import plots
from .data import KINDS

STYLE = """
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.7rem;margin-bottom:.2rem} h2{font-size:1.3rem;margin:2.2rem 0 .5rem;padding-top:1rem;
border-top:2px solid #d8dce3} h3{font-size:1.15rem;margin:1.8rem 0 .3rem} h4{font-size:1rem;margin:1rem 0 .3rem}
.muted{color:#5b6474} .ok{color:#17743a} .bad{color:#b3261e} img{max-width:100%;height:auto}
table{border-collapse:collapse;margin:.4rem 0} td,th{padding:.25rem .7rem;border-bottom:1px solid #e3e6eb;
text-align:left;vertical-align:top} th{background:#f3f5f8} td.n,th.n{text-align:right}
.tag{font-size:.75rem;border-radius:3px;padding:.05rem .35rem;margin-right:.4rem;color:#fff;white-space:nowrap}
.known{background:#3b6fb6} .symptom{background:#9a6fb0} .hidden{background:#6b7280} .public{background:#2e7d4f}
ul.mistakes{list-style:none;padding-left:0} ul.mistakes li{margin:.35rem 0}
summary{cursor:pointer} .why{background:#fff6db;border-left:4px solid #e0a800;padding:.4rem .8rem;margin:.4rem 0 .4rem 1.2rem}
pre{background:#f3f5f8;padding:.4rem .6rem;border-radius:4px;white-space:pre-wrap;word-break:break-word;
max-height:16rem;overflow:auto;margin:.2rem 0} code{background:#f3f5f8;padding:0 .2rem;border-radius:3px}
.lesson{border-top:1px solid #d8dce3} .names{font-size:.9rem} td.what{white-space:nowrap}
#lessons{font-size:.88rem;width:100%} #lessons td,#lessons th{padding:.25rem .45rem} #lessons td:first-child{min-width:12rem}
"""
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
MAX_DETAIL = 2000
CASES_SHOWN = 8         # failed cases listed before the rest are folded
FILES_SHOWN = 500       # files not graded listed on the page
COUNTED = ("timeout", "crash", "error", "rule", "stub")


def anchor(*parts):
    return "-".join(re.sub(r"[^A-Za-z0-9_]+", "-", p) for p in parts)


def figure(data, alt):
    if data is None:
        return ""
    encoded = base64.b64encode(data).decode()
    return f'<p><img width="900" alt="{e(alt)}" src="data:image/png;base64,{encoded}"></p>'


def names(learners):
    return ", ".join(e(l) for l in learners) or "—"


def percent(x):
    return "—" if x is None else f"{x:.0%}"


def summary_table(report):
    rows = ['<table id="lessons"><tr><th>Lesson</th><th class="n">Submitted</th><th class="n">Passed'
            '</th><th class="n">Pass rate</th><th class="n">Mean score</th><th class="n">Time-outs</th>'
            '<th class="n">Crashes</th><th class="n">Not gradable</th><th class="n">Broke a rule</th>'
            '<th class="n">Untouched stub</th><th class="n">Nothing submitted</th></tr>']
    for l in report.lessons:
        counts = [len({p.learner for p in l.problems_of(k)}) for k in COUNTED]
        rows.append(
            f'<tr data-lesson="{e(l.id)}" data-submitted="{l.submitted}" data-passed="{len(l.passed)}"'
            f' data-pass-rate="{"" if l.pass_rate is None else f"{l.pass_rate:.4f}"}"'
            f' data-missing="{len(l.missing)}" data-timeouts="{counts[0]}" data-crashes="{counts[1]}"'
            f' data-errors="{counts[2]}" data-rules="{counts[3]}" data-stubs="{counts[4]}">'
            f'<td><a href="#{anchor("lesson", l.id)}">{l.number:02d} · {e(l.title)}</a></td>'
            f'<td class="n">{l.submitted}</td><td class="n">{len(l.passed)}</td>'
            f'<td class="n">{percent(l.pass_rate)}</td><td class="n">{percent(l.mean_score)}</td>'
            + "".join(f'<td class="n">{c or ""}</td>' for c in counts)
            + f'<td class="n">{len(l.missing) or ""}</td></tr>')
    rows.append("</table>")
    return "".join(rows)


def top_mistakes(report):
    """Every diagnosis of the class, most learners first, each linking to its message below."""
    found = sorted(((m, l) for l in report.lessons for m in l.mistakes),
                   key=lambda t: (-len(t[0].learners), t[1].number, t[0].id))
    if not found:
        return "<p>No submission was diagnosed with a known mistake or a likely cause.</p>"
    rows = ['<table id="mistakes"><tr><th>Lesson</th><th>Diagnosis</th><th class="n">Learners</th>'
            "</tr>"]
    for m, l in found:
        rows.append(f'<tr data-lesson="{e(l.id)}" data-mistake="{e(m.id)}" '
                    f'data-finding="{e(m.name)}" data-learners="{len(m.learners)}">'
                    f'<td>{l.number:02d}</td><td>{kind_tag(m)}'
                    f'<a href="#{mistake_anchor(l, m)}">{e(m.name)}</a></td>'
                    f'<td class="n">{len(m.learners)}</td></tr>')
    rows.append("</table>")
    return "".join(rows)


def mistake_anchor(lesson, mistake):
    return anchor("mistake", lesson.id, mistake.id, mistake.name)


def kind_tag(mistake):
    return ('<span class="tag symptom">likely cause</span>' if mistake.symptom
            else '<span class="tag known">known mistake</span>')


def mistakes_list(lesson):
    items = []
    for m in lesson.mistakes:
        messages = "".join(f'<div class="why">{prose(text)}</div>' for text in m.messages)
        items.append(
            f'<li id="{mistake_anchor(lesson, m)}" data-mistake="{e(m.id)}" '
            f'data-finding="{e(m.name)}" data-learners="{len(m.learners)}"><details><summary>'
            f'{kind_tag(m)}<b>{e(m.name)}</b>'
            f' — {len(m.learners)} learner{"" if len(m.learners) == 1 else "s"}</summary>'
            f'{messages}<p class="names muted">Learners: {names(m.learners)}</p></details></li>')
    return '<ul class="mistakes">' + "".join(items) + "</ul>"


def failed_cases(lesson):
    head = ('<table class="cases"><tr><th>Case</th><th>What it probes</th><th class="n">Failed by'
            '</th><th>Learners</th></tr>')
    shown, rest = lesson.failed_cases[:CASES_SHOWN], lesson.failed_cases[CASES_SHOWN:]
    out = head + "".join(case_row(lesson, c) for c in shown) + "</table>"
    if rest:
        out += (f"<details><summary>{len(rest)} more failed case{'s' if len(rest) > 1 else ''}"
                f"</summary>{head}{''.join(case_row(lesson, c) for c in rest)}</table></details>")
    return out


def case_row(lesson, c):
    kind = ('<span class="tag public">example</span>' if c.public
            else '<span class="tag hidden">hidden</span>')
    return (f'<tr data-case="{e(c.name)}" data-failed="{len(c.learners)}"><td>{kind}{e(c.name)}</td>'
            f'<td>{e(c.probe)}</td><td class="n">{len(c.learners)} of {lesson.ran}</td>'
            f'<td class="names">{names(c.learners)}</td></tr>')


def detail_html(problem):
    """A problem's details: a traceback folds under its first line; rules keep one per line."""
    text = problem.detail
    if len(text) > MAX_DETAIL:
        text = text[:MAX_DETAIL] + " …"
    lines = text.splitlines() or [""]
    if problem.kind in ("error", "fault") and len(lines) > 1:
        return f"<details><summary>{e(lines[0])}</summary><pre>{e(text)}</pre></details>"
    shown = prose if problem.kind == "rule" else e      # rules are the grader's words
    return "<br>".join(shown(line) for line in lines)


def problems_table(lesson):
    rows = ['<table class="problems"><tr><th>Learner</th><th>What happened</th><th>Details</th></tr>']
    for p in lesson.problems:
        rows.append(f'<tr data-learner="{e(p.learner)}" data-kind="{p.kind}"><td>{e(p.learner)}</td>'
                    f'<td class="what">{KINDS[p.kind]}</td><td>{detail_html(p)}</td></tr>')
    rows.append("</table>")
    return "".join(rows)


def clusters_table(lesson):
    rows = "".join(f'<tr data-cluster="{e(lesson.id)}" data-id="{e(c.name)}"><td><code>'
                   f"{e(c.name)}</code></td><td>{len(c.learners)}</td>"
                   f"<td>{names(c.learners)}</td><td><code>{e(c.representative)}</code></td>"
                   f"<td>{e(c.difference)}</td></tr>" for c in lesson.clusters)
    return ("<table><thead><tr><th>id</th><th>learners</th><th>who</th><th>one of their files</th>"
            f"<th>how it differs (its first failed case)</th></tr></thead><tbody>{rows}"
            "</tbody></table>")


def lesson_section(lesson):
    out = [f'<section class="lesson" id="{anchor("lesson", lesson.id)}" data-lesson="{e(lesson.id)}">',
           f"<h3>{lesson.number:02d} · {e(lesson.title)}</h3>"]
    if lesson.submitted:
        out.append(f"<p>Passed by <b>{len(lesson.passed)}</b> of the {lesson.submitted} learners who "
                   f"submitted it ({percent(lesson.pass_rate)}); mean score "
                   f"{percent(lesson.mean_score)}.</p>")
    else:
        out.append("<p>Nobody submitted this lesson.</p>")
    if lesson.stubs:
        out.append(f'<p class="muted" data-stubs="{e(lesson.id)}">Handed in the stub untouched '
                   f"(not counted as submitted): {names(lesson.stubs)}.</p>")
    if lesson.mistakes:
        out.append("<h4>Diagnosed mistakes</h4>")
        out.append(mistakes_list(lesson))
    if lesson.failed_cases:
        out.append(f"<h4>Cases most often failed</h4><p class=\"muted\">Among the {lesson.ran} "
                   "submissions whose code ran the cases.</p>")
        out.append(failed_cases(lesson))
    if lesson.clusters:
        out.append("<h4>Unexplained wrong answers, grouped by what they output</h4>"
                   "<p class=\"muted\">No known mistake or likely cause explains these; each group "
                   "gives the same outputs on every case, so it is most likely one bug. Comment on "
                   f"one for all its learners with <code>grader comment --mistake {lesson.number:02d}"
                   ":cluster:ID</code>; <code>grader cluster --promote</code> writes it into the "
                   "lesson's mistakes.py for its author to review.</p>")
        out.append(clusters_table(lesson))
    if lesson.alone:
        out.append(f'<p class="muted" data-alone="{e(lesson.id)}">{lesson.alone} more unexplained '
                   f"wrong answer{'s' if lesson.alone != 1 else ''}, each unlike any other.</p>")
    if lesson.problems:
        out.append("<h4>Time-outs, crashes, rules broken and files that could not be graded</h4>")
        out.append(problems_table(lesson))
    if lesson.missing:
        out.append(f'<h4>Nothing submitted</h4><p class="names" data-missing="{e(lesson.id)}">'
                   f"{names(lesson.missing)}</p>")
    out.append("</section>")
    return "\n".join(out)


def nothing_section(report):
    out = ["<h2>Learners who submitted nothing</h2>"]
    if report.nothing:
        out.append('<p>Nothing at all, for any lesson: <span id="nothing">'
                   + ", ".join(f'<b data-learner="{e(l)}">{e(l)}</b>' for l in report.nothing)
                   + "</span>.</p>")
    if report.ungradable:
        out.append('<p>Nothing that could be graded (only the files below):</p><ul id="ungradable">'
                   + "".join(f'<li data-learner="{e(l)}"><b>{e(l)}</b>: '
                             + "; ".join(f"<code>{e(path)}</code> ({e(why)})" for path, why in files)
                             + "</li>" for l, files in report.ungradable.items()) + "</ul>")
    if report.only_stubs:
        out.append('<p>Only the lessons\' stubs, untouched: <span id="only-stubs">'
                   + names(report.only_stubs) + "</span>.</p>")
    if not (report.nothing or report.ungradable or report.only_stubs):
        out.append('<p id="nothing">Every learner submitted something.</p>')
    per = [l for l in report.lessons if l.missing]
    if per:
        out.append("<table><tr><th>Lesson</th><th class=\"n\">Learners</th><th>Who</th></tr>"
                   + "".join(f'<tr><td>{l.number:02d} · {e(l.title)}</td><td class="n">'
                             f'{len(l.missing)}</td><td class="names">{names(l.missing)}</td></tr>'
                             for l in per) + "</table>")
    if report.withdrawn:
        out.append(f'<p class="muted" id="withdrawn">Left out of this report, their folder being '
                   f"gone from the class (the gradebook keeps their results): "
                   f"{names(report.withdrawn)}.</p>")
    if report.handed_in_from:
        out.append('<h3>When work was handed in</h3><ul id="handed-in">' + "".join(
            f'<li data-source="{e(source)}">From {e(source)}: {names(who)}</li>'
            for source, who in report.handed_in_from.items()) + "</ul>")
    if report.off_roster:
        out.append(f'<p id="off-roster">Graded, but not on the roster (a folder in the class whose '
                   f"name is no roster id): {names(report.off_roster)}.</p>")
    return "\n".join(out)


def ungraded_section(report):
    """Every file handed in that was not graded, with the reason (archives, misnamed files,
    duplicates, links)."""
    out = ["<h2>Files not graded</h2>"]
    if not report.ungraded:
        out.append("<p>Every file handed in was graded.</p>")
        return "\n".join(out)
    out.append(f"<p>{len(report.ungraded)} file{'s' if len(report.ungraded) != 1 else ''} handed "
               "in could not be graded or were not graded:</p>")
    rows = ['<table id="ungraded"><tr><th>Learner</th><th>File</th><th>Why</th></tr>']
    for learner, lesson, path, why in report.ungraded[:FILES_SHOWN]:
        rows.append(f'<tr data-learner="{e(learner or "")}" data-file="{e(path)}"><td>'
                    f'{e(learner or "—")}</td><td><code>{e(path)}</code></td><td>{e(why)}</td></tr>')
    rows.append("</table>")
    if len(report.ungraded) > FILES_SHOWN:
        rows.append(f"<p>... and {len(report.ungraded) - FILES_SHOWN} more, in the gradebook's "
                    "<code>ungraded</code> table.</p>")
    return "\n".join(out) + "".join(rows)


def page(report, source, generated):
    """The whole report; `source` names the gradebook, `generated` the time it was drawn."""
    body = [
        "<h1>What the class got wrong</h1>",
        f'<p class="muted">{len(report.learners)} learners, {report.lesson_count} lessons; from '
        f"<code>{e(source)}</code>, {e(generated)}.</p>",
        "<h2>Lessons at a glance</h2>", summary_table(report),
        "<h2>Most common mistakes</h2>",
        "<p>Each failing submission is diagnosed: a <i>known mistake</i> is one the lesson's author "
        "described, with the message its learners read; a <i>likely cause</i> is the grader's own "
        "reading of how the answers differ from the expected ones. Follow a name to its message.</p>",
        figure(plots.common_mistakes(report), "The diagnoses most learners made"),
        top_mistakes(report),
        "<h2>Pass rate per lesson</h2>",
        figure(plots.pass_rates(report), "Passed, not passed and nothing submitted, per lesson"),
        "<h2>Score distribution</h2>",
        figure(plots.score_distribution(report), "Learners by total score"),
        nothing_section(report),
        ungraded_section(report),
        "<h2>Lesson by lesson</h2>",
        *(lesson_section(l) for l in report.lessons),
    ]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">"
            "<meta name=\"viewport\" content=\"width=device-width\"><title>Class report</title>"
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
