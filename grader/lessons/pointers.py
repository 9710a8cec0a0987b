"""Hint pointers that lead somewhere: a mistake or case naming hint N must be about what tier N
addresses.

Each lesson declares, per tier, the topics the tier is about (`Spec.hint_topics`): words that
appear in the tier's text. A mistake's message, or a case's name or probe, must mention one of the
topics of the tier it names. Matching is by case-insensitive substring.
"""


def mentions(text, topics):
    text = text.lower()
    return [t for t in topics if t.lower() in text]


def pointers(lesson):
    """(what, tier, its text) for every mistake and case that names a hint tier."""
    found = [(f"mistake '{m.id}'", m.hint, m.message or "") for m, _ in lesson.mistakes if m.hint]
    found += [(f"case '{c.name}'", c.hint, f"{c.name} {c.probe}") for c in lesson.cases if c.hint]
    return found


def check(lesson):
    """Problems with a lesson's hint pointers, as sentences."""
    tiers, topics = lesson.prose.hints, lesson.spec.hint_topics
    named = [p for p in pointers(lesson) if p[1] in range(1, len(tiers) + 1)]
    if not named:
        return []
    if len(topics) != len(tiers) or not all(topics):
        return [f"cases or mistakes name hint tiers, so SPEC needs hint_topics: {len(tiers)} tuples "
                "of words, one per tier, saying what each tier is about"]
    problems = []
    for n, ((title, body), words) in enumerate(zip(tiers, topics), 1):
        missing = [w for w in words if not mentions(f"{title}\n{body}", [w])]
        if missing:
            problems.append(f"hint {n} ({title}) never mentions its topic(s) {', '.join(missing)}")
    for what, tier, text in named:
        if mentions(text, topics[tier - 1]):
            continue
        better = [str(n) for n, words in enumerate(topics, 1) if mentions(text, words)]
        problems.append(
            f"{what} points at hint {tier} ({tiers[tier - 1][0]}), but mentions none of its topics "
            f"({', '.join(topics[tier - 1])})"
            + (f"; it mentions those of hint {' and '.join(better)}" if better else ""))
    return problems
