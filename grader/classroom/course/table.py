"""Reading a small CSV file an instructor wrote (a roster, extensions): a header naming the columns,
then one row a line. Every problem is a CourseError naming the file and the line."""
import csv
import io
from pathlib import Path

from grader.errors import GraderError

MAX_BYTES = 16 * 1024 * 1024


class CourseError(GraderError):
    """A course file (roster, course.toml, extensions) that cannot be used as it is."""


def header_key(name):
    return "_".join(name.strip().lower().replace("-", " ").split())


def read_rows(path, columns, required, what):
    """[(line number, {column: text})] of the CSV file at `path`. `columns` maps each column name
    to the header names it may go by (compared without case, spaces or dashes); the columns in
    `required` must be there, other columns of the file are ignored."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CourseError(f"the {what} {path} cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise CourseError(f"the {what} {path} is larger than {MAX_BYTES // 2**20} MiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CourseError(f"the {what} {path} is not UTF-8 text (byte {exc.start}): save it as "
                          "CSV UTF-8") from None
    if "\x00" in text:
        raise CourseError(f"the {what} {path} is not a CSV file (it holds NUL bytes)")
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as exc:
        raise CourseError(f"the {what} {path} is not valid CSV: {exc}") from None
    numbered = [(n, row) for n, row in enumerate(rows, 1) if any(cell.strip() for cell in row)]
    if not numbered:
        raise CourseError(f"the {what} {path} is empty: its first line names the columns "
                          f"({', '.join(columns)})")
    line, header = numbered[0]
    aliases = {header_key(a): name for name, names in columns.items() for a in (name, *names)}
    where = {}
    for i, cell in enumerate(header):
        name = aliases.get(header_key(cell))
        if name in where:
            raise CourseError(f"{path}, line {line}: the column {name!r} is named twice")
        if name:
            where[name] = i
    missing = [c for c in required if c not in where]
    if missing:
        raise CourseError(f"{path}, line {line}: the {what} has no column {', '.join(missing)} "
                          f"(its first line names the columns: {', '.join(columns)})")
    found = []
    for n, row in numbered[1:]:
        if len(row) > len(header):
            raise CourseError(f"{path}, line {n}: {len(row)} fields, but the header names "
                              f"{len(header)} columns (quote a field that holds a comma)")
        found.append((n, {name: (row[i].strip() if i < len(row) else "")
                          for name, i in where.items()}))
    return found
