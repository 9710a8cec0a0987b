"""The class report's figures, drawn with matplotlib (no display: Figure objects on the Agg canvas)
and returned as PNG bytes, from a data.ClassReport."""
import io

from matplotlib.figure import Figure
from matplotlib.patches import Patch

WIDTH = 9.0                     # inches, at DPI: the page shows them at WIDTH * 100 pixels
DPI = 150
PASSED, FAILED, STUB, MISSING = "#2e7d4f", "#d9822b", "#8d96a8", "#c5cad3"
KNOWN, SYMPTOM = "#3b6fb6", "#9a6fb0"
TOP_MISTAKES = 15


def png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def lesson_label(lesson, width=38):
    title = lesson.title if len(lesson.title) <= width else lesson.title[:width - 1] + "…"
    return f"{lesson.number:02d} · {title}"


def score_distribution(report):
    """A histogram of the learners' totals, as a share of every lesson in the gradebook."""
    fig = Figure(figsize=(WIDTH, 3.2), layout="constrained")
    ax = fig.add_subplot()
    n = max(report.lesson_count, 1)
    shares = [100 * t / n for t in report.totals.values()]
    edges = list(range(0, 101, 10))
    counts, _, bars = ax.hist(shares, bins=edges, color=KNOWN, edgecolor="white")
    ax.bar_label(bars, labels=[str(int(c)) if c else "" for c in counts], padding=2)
    ax.set_xticks(edges, [f"{e}%" for e in edges])
    ax.set_xlim(0, 100)
    ax.set_ylim(0, max([*counts, 1]) * 1.2)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel(f"total score (sum of lesson scores, out of {report.lesson_count} lessons)")
    ax.set_ylabel("learners")
    ax.spines[["top", "right"]].set_visible(False)
    return png(fig)


def pass_rates(report):
    """Per lesson, the class split into passed, submitted but not passed, the stub handed in
    untouched, and nothing submitted."""
    lessons = report.lessons[::-1]                  # the first lesson on top
    fig = Figure(figsize=(WIDTH, 0.8 + 0.42 * len(lessons)), layout="constrained")
    ax = fig.add_subplot()
    labels = [lesson_label(l) for l in lessons]
    passed = [len(l.passed) for l in lessons]
    failed = [l.submitted - len(l.passed) for l in lessons]
    stubs = [len(l.stubs) for l in lessons]
    missing = [len(l.missing) for l in lessons]
    ax.barh(labels, passed, color=PASSED, label="passed")
    ax.barh(labels, failed, left=passed, color=FAILED, label="submitted, not passed")
    ax.barh(labels, stubs, left=[p + f for p, f in zip(passed, failed)], color=STUB,
            label="stub, untouched")
    ax.barh(labels, missing, left=[p + f + t for p, f, t in zip(passed, failed, stubs)],
            color=MISSING, label="nothing submitted")
    total = max(len(report.learners), 1)
    for y, l in enumerate(lessons):
        rate = "—" if l.pass_rate is None else f"{l.pass_rate:.0%} of {l.submitted}"
        ax.text(total * 1.01, y, rate, va="center", fontsize=10)
    ax.set_xlim(0, total * 1.16)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("learners (right: pass rate among those who submitted)")
    legend_above(fig, ncol=4)
    ax.spines[["top", "right"]].set_visible(False)
    return png(fig)


def common_mistakes(report):
    """The diagnoses most learners made, across lessons, as PNG (None when there is none)."""
    fig = mistakes_figure(report)
    return None if fig is None else png(fig)


def mistakes_figure(report):
    """The chart of the diagnoses most learners made, each labelled with what it found, the legend
    above the bars (None when there is no diagnosis)."""
    found = sorted(((len(m.learners), l.number, m) for l in report.lessons for m in l.mistakes),
                   key=lambda t: (-t[0], t[1], t[2].id))[:TOP_MISTAKES]
    if not found:
        return None
    found.reverse()                                  # the most common on top
    fig = Figure(figsize=(WIDTH, 1.2 + 0.34 * len(found)), layout="constrained")
    ax = fig.add_subplot()
    labels = [f"{number:02d} · {m.name}" for _, number, m in found]    # what each one found
    counts = [n for n, _, _ in found]
    bars = ax.barh(range(len(found)), counts, color=[SYMPTOM if m.symptom else KNOWN
                                                     for _, _, m in found])
    ax.set_yticks(range(len(found)), labels, fontsize=10, parse_math=False)
    ax.bar_label(bars, padding=3, fontsize=10)
    ax.set_xlim(0, max(counts) * 1.15)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel("learners diagnosed with it")
    legend_above(fig, ncol=2, handles=[
        Patch(color=KNOWN, label="known mistake (the lesson's own)"),
        Patch(color=SYMPTOM, label="likely cause (what the grader read from the answers)")])
    ax.spines[["top", "right"]].set_visible(False)
    return fig


def legend_above(fig, **options):
    """The figure's legend above its axes, centred on the whole figure and inside it: it covers no
    bar, and long tick labels on the left do not push it past the right edge."""
    fig.legend(loc="outside upper center", frameon=False, fontsize=10, **options)
