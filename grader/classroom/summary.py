"""The end of a class run in words: what was graded, what was not and why, what failed."""
from collections import defaultdict

from grader.display import plural

SHOWN = 12      # ungraded files listed per reason before "... and N more"


def summary(done, lessons, out, sandboxed):
    """(lines, exit status): 0 when every job was graded, 1 when the grader failed on some."""
    lines = [f"Graded {plural(len(done.graded), 'submission')} from "
             f"{plural(len(done.learners), 'learner')} on "
             f"{plural(len(lessons), 'lesson')}{'' if sandboxed else ' without the sandbox'}"
             + (f"; {done.unchanged} unchanged since they were graded were not graded again "
                "(--regrade grades them anew)" if done.unchanged else "") + "."]
    if not done.graded and done.unchanged:
        lines[0] = (f"Nothing to grade: all {plural(done.unchanged, 'submission')} from "
                    f"{plural(len(done.learners), 'learner')} are unchanged since they were graded (--regrade grades them anew).")
    missing = defaultdict(list)
    files = defaultdict(list)
    for u in done.ungraded:
        if u.path is None:
            missing[u.learner].append(u.lesson)
        else:
            files[u.reason].append(u)
    if missing:
        lines.append(f"\nNo submission ({sum(map(len, missing.values()))} learner x lesson):")
        lines += [f"  {learner}: {', '.join(ids)}" for learner, ids in missing.items()]
    if files:
        lines.append(f"\nNot graded ({sum(map(len, files.values()))} files):")
        for reason, notes in files.items():
            lines.append(f"  {reason}:")
            lines += [f"    {u.path}" for u in notes[:SHOWN]]
            if len(notes) > SHOWN:
                lines.append(f"    ... and {len(notes) - SHOWN} more (all in the gradebook's "
                             "`ungraded` table)")
    if done.faults:
        lines.append(f"\nThe grader could not grade {plural(len(done.faults), 'job')} (recorded as such; "
                     "the next run grades them again):")
        lines += [f"  {g.learner} x {g.lesson}: {g.row['error']}" for g in done.faults]
    lines.append(f"\nWritten from the gradebook: {out / 'gradebook.sqlite'}, {out / 'grades.csv'}, "
                 f"{out / 'feedback'}/, {out / 'gradescope'}/")
    return lines, 1 if done.faults else 0
