"""A course's due dates and late policies as the per-submission routes carry them, for the lessons
they grade: Gradescope's bundle (its autograder.json) and an nbgrader course (its
workbook_dates.json). Each grades one submission at a time, reads its hand-in time as the class
route does (course.handed_in) and applies the same policy (course.schedule); extensions.csv is
the class route's alone.

    {"due": {lesson id: ISO moment}, "late": {lesson id: course.late.Late as JSON}}
"""
import datetime as dt

from .late import Late
from .schedule import timing


def dates(course, lessons):
    """What `course` (a course.config.Course, or None) says of `lessons`' due dates and late
    policies; {} when none of them is due."""
    if course is None:
        return {}
    due = {l.id: course.due[l.id].isoformat() for l in lessons if l.id in course.due}
    return {"due": due, "late": {i: course.late_policy(i).to_json() for i in due}} if due else {}


def due_and_late(data, lesson_id):
    """(the lesson's due moment, its late.Late), or (None, None), from what `dates` wrote."""
    due = data.get("due", {}).get(lesson_id)
    if not due:
        return None, None
    return dt.datetime.fromisoformat(due), Late.of_json(data.get("late", {}).get(lesson_id))


def applied(data, course):
    """`course` (a course.config.Course) given the due dates and late policies `data` carries."""
    for lesson_id in data.get("due", {}):
        course.due[lesson_id], course.late[lesson_id] = due_and_late(data, lesson_id)
    return course


def lesson_timing(data, learner, lesson_id, when, source):
    """The course.schedule.Timing of one submission handed in `when` (from `source`)."""
    due, late = due_and_late(data, lesson_id)
    return timing(due, late, {}, learner, lesson_id, when, source)
