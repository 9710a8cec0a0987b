"""Checking the values a course file gives: numbers in range, tables, known keys."""
import math

from .table import CourseError


def number(value, where, low=0.0, high=math.inf):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not low <= value <= high:
        bound = f"from {low:g} to {high:g}" if high < math.inf else f"at least {low:g}"
        raise CourseError(f"{where} must be a number {bound}, not {value!r}")
    return float(value)


def flag(value, where):
    if not isinstance(value, bool):
        raise CourseError(f"{where} must be true or false, not {value!r}")
    return value


def table(value, where):
    if not isinstance(value, dict):
        raise CourseError(f"{where} must be a table ([...] or {{ ... }}), not {value!r}")
    return value


def unknown_keys(found, allowed, where):
    extra = sorted(set(found) - allowed)
    if extra:
        raise CourseError(f"{where}: unknown setting {', '.join(map(repr, extra))} (known: "
                          f"{', '.join(sorted(allowed))})")
