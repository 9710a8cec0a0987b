"""What the gradebook exports for the rest of a course's tools."""
import csv


def write_grades_csv(path, learners, lessons, scores):
    """A row per learner: each lesson's score from 0 to 1 (empty where nothing was submitted), then
    the total of the scores."""
    tmp = path.with_suffix(".csv.tmp")
    with open(tmp, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["learner", *(l.id for l in lessons), "total"])
        for learner in learners:
            row = [scores.get((learner, l.id)) for l in lessons]
            total = sum(s for s in row if s is not None)
            out.writerow([learner, *("" if s is None else f"{s:.4g}" for s in row), f"{total:.4g}"])
    tmp.replace(path)
