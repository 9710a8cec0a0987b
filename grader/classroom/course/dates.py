"""Dates as a course file or extensions.csv gives them: a TOML date or datetime, or text in ISO form
(`2026-03-01`, `2026-03-01 23:59`, `2026-03-01T23:59:00+01:00`). A date alone means the end of
that day; a time without an offset is read in the course's time zone (UTC unless it names one)."""
import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .table import CourseError

UTC = dt.timezone.utc


def zone(name):
    if name is None:
        return UTC
    try:
        if not isinstance(name, str) or not name:
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise CourseError(f"{name!r} is not a time zone this machine knows (e.g. "
                          "'Europe/Berlin', 'America/New_York', 'UTC')") from None


def moment(value, tz=UTC, where="a date"):
    """`value` (a date, datetime or ISO text) as an aware datetime in UTC; raises CourseError."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = dt.date.fromisoformat(text) if len(text) == 10 else dt.datetime.fromisoformat(text)
        except ValueError:
            raise CourseError(f"{where}: {text!r} is not a date (write 2026-03-01 or "
                              "2026-03-01 23:59, optionally with an offset such as +01:00)") from None
    if isinstance(value, dt.datetime):
        pass
    elif isinstance(value, dt.date):
        value = dt.datetime.combine(value, dt.time(23, 59, 59))
    else:
        raise CourseError(f"{where}: {value!r} is not a date")
    if value.tzinfo is None:
        value = value.replace(tzinfo=tz)
    try:
        return value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise CourseError(f"{where}: {value!r} is out of range") from None


def shown(when):
    """How feedback writes a moment: UTC, to the minute."""
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def of_text(text):
    return dt.datetime.fromisoformat(text) if text else None
