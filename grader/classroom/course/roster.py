"""The class roster (roster.csv): who is in the course, whether or not they handed anything in.
A learner's id is the name of their folder in the class."""
from dataclasses import dataclass

from .table import CourseError, read_rows

COLUMNS = {"id": ("learner", "learner id", "student id", "username", "login"), "name": ("full name",),
           "email": ("e-mail", "email address"), "section": (), "sis_id": ("sis", "sis user id")}


@dataclass(frozen=True)
class Member:
    id: str
    name: str
    email: str
    section: str
    sis_id: str = ""

    def row(self):
        return (self.id, self.name, self.email, self.section, self.sis_id)


def read(path):
    """The roster's members, in the file's order; raises CourseError for a roster that cannot be
    used (a missing column, a learner without an id or listed twice, an e-mail without an @)."""
    members, seen = [], {}
    for line, row in read_rows(path, COLUMNS, ("id", "name", "email", "section"), "roster"):
        if not row["id"]:
            raise CourseError(f"{path}, line {line}: no learner id (the name of the learner's "
                              "folder in the class)")
        if row["id"] in seen:
            raise CourseError(f"{path}, line {line}: learner {row['id']!r} is on the roster "
                              f"already (line {seen[row['id']]})")
        if row["email"] and "@" not in row["email"]:
            raise CourseError(f"{path}, line {line}: {row['email']!r} is not an e-mail address")
        seen[row["id"]] = line
        members.append(Member(row["id"], row["name"], row["email"], row["section"],
                              row.get("sis_id", "")))
    if not members:
        raise CourseError(f"the roster {path} names no learner")
    return members
