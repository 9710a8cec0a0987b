"""The end of a class run in words: what was graded, what was not and why, what failed. Lines are
plain text with learner names in them: the command prints them through escape.terminal."""
from collections import defaultdict

from grader.display import plural
from .submissions import printable

SHOWN = 12      # names or files listed per line or reason before "... and N more"


def names(items, shown=SHOWN):
    items = list(items)
    more = f", ... and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


def missing_lines(done, lessons):
    """Learner x lesson pairs with nothing submitted, grouped: the learners who handed in nothing
    for any lesson, then per lesson the others."""
    missing = defaultdict(list)
    for u in done.ungraded:
        if u.path is None:
            missing[u.learner].append(u.lesson)
    if not missing:
        return []
    graded = [l.id for l in lessons]
    nothing = [learner for learner, ids in missing.items() if len(ids) == len(graded)]
    lines = [f"\nNo submission ({sum(map(len, missing.values()))} learner x lesson):"]
    if nothing and len(graded) > 1:
        lines.append(f"  every lesson ({plural(len(nothing), 'learner')}): {names(nothing)}")
    else:
        nothing = []
    for lesson in graded:
        who = [learner for learner, ids in missing.items() if lesson in ids and learner not in nothing]
        if who:
            lines.append(f"  {lesson} ({plural(len(who), 'learner')}): {names(who)}")
    return lines


def link_lines(done):
    """Every symbolic link that was not followed: those that claimed a lesson (graded 0) and the
    rest."""
    links = dict.fromkeys((f"{s.learner}/{printable(s.entry.rel)}" if s.entry else s.learner,
                           s.link)
                          for s in done.submissions if s.link is not None)
    links.update(dict.fromkeys((u.path, u.link) for u in done.ungraded if u.link is not None))
    if not links:
        return []
    lines = [f"\nLinks not followed ({len(links)}; a submission is the regular files inside the "
             "learner's folder, so a link that names a lesson scores 0):"]
    lines += [f"  {path} -> {target}" for path, target in list(links)[:SHOWN * 4]]
    if len(links) > SHOWN * 4:
        lines.append(f"  ... and {len(links) - SHOWN * 4} more (all in the gradebook)")
    return lines


def summary(done, lessons, out, sandboxed, dropped=False):
    """(lines, exit status): 0 when every job was graded, 1 when the grader failed on some."""
    lines = [f"Graded {plural(len(done.graded), 'submission')} from "
             f"{plural(len(done.learners), 'learner')} on "
             f"{plural(len(lessons), 'lesson')}{'' if sandboxed else ' without the sandbox'}"
             + (f"; {done.unchanged} unchanged since they were graded were not graded again "
                "(--regrade grades them anew)" if done.unchanged else "") + "."]
    if not done.graded and done.unchanged:
        lines[0] = (f"Nothing to grade: all {plural(done.unchanged, 'submission')} from "
                    f"{plural(len(done.learners), 'learner')} are unchanged since they were graded (--regrade grades them anew).")
    lines += missing_lines(done, lessons)
    files = defaultdict(list)
    for u in done.ungraded:
        if u.path is not None and u.link is None:
            files[u.reason].append(u)
    if files:
        lines.append(f"\nNot graded ({sum(map(len, files.values()))} files):")
        for reason, notes in files.items():
            lines.append(f"  {reason}:")
            lines += [f"    {u.path}" for u in notes[:SHOWN]]
            if len(notes) > SHOWN:
                lines.append(f"    ... and {len(notes) - SHOWN} more (all in the gradebook's "
                             "`ungraded` table)")
    lines += link_lines(done)
    if done.faults:
        lines.append(f"\nThe grader could not grade {plural(len(done.faults), 'job')} (recorded as such; "
                     "the next run grades them again):")
        lines += [f"  {g.learner} x {g.lesson}: {g.row['error']}" for g in done.faults]
    if done.withdrawn:
        lines.append(f"\nNo folder in the class any more for {plural(len(done.withdrawn), 'learner')} "
                     "of the gradebook: "
                     + ("left out of the exports (--drop)" if dropped else
                        "marked withdrawn in grades.csv (--drop leaves them out)")
                     + f"; their results stay in the gradebook: {names(done.withdrawn)}")
    if done.absent:
        lines.append(f"\nOn the roster with no folder in the class ({plural(len(done.absent), 'learner')}; "
                     f"nothing submitted): {names(done.absent)}")
    if done.off_roster:
        lines.append(f"\nGraded, but not on the roster ({plural(len(done.off_roster), 'learner')}): "
                     f"{names(done.off_roster)}")
    lines.append(f"\nWritten from the gradebook: {out / 'gradebook.sqlite'}, {out / 'grades.csv'}, "
                 f"{out / 'feedback'}/, {out / 'gradescope'}/, {out / 'lms'}/ (Canvas and Moodle)")
    if done.collusion:
        path, files, outputs = done.collusion
        lines.append(f"For your eyes only: {path} ({plural(len(files), 'group')} of identical "
                     f"files, {plural(len(outputs), 'pair')} sharing rare wrong outputs)")
    return lines, 1 if done.faults else 0
