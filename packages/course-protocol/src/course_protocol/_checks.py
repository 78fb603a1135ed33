"""Plain type checks shared by the constructors; cheap enough for the hot path."""

from __future__ import annotations

from typing import NoReturn

from course_protocol._errors import CourseProtocolError
from course_protocol.untrusted import is_blank, sequence_snapshot, type_name

__all__ = ["check_flag", "check_id", "check_text", "fail", "snapshot_sequence"]


def fail(path: str, message: str) -> NoReturn:
    """Raise the protocol's one construction error."""
    raise CourseProtocolError(path, message)


def check_id(value: object, path: str) -> None:
    """An id or name: an exact ``str`` that is not blank (see ``is_blank``)."""
    if type(value) is not str:
        fail(path, f"must be a str, not {type_name(value)}")
    if is_blank(value):
        fail(path, "must not be empty or whitespace-only")


def check_text(value: object, path: str) -> None:
    """Free text: an exact ``str`` (a subclass could carry mutable state or lie in ``==``)."""
    if type(value) is not str:
        fail(path, f"must be a str, not {type_name(value)}")


def check_flag(value: object, path: str) -> None:
    """A flag: exactly ``True`` or ``False`` (``1`` and ``0`` are not)."""
    if type(value) is not bool:
        fail(path, f"must be a bool, not {type_name(value)}")


def snapshot_sequence(value: object, path: str) -> tuple[object, ...]:
    """A ``list`` or ``tuple`` (subclasses read through the base type) as an exact tuple.

    ``str``, ``bytes``, mappings, iterators and everything else are rejected:
    a one-shot iterator would be consumed by the check itself.
    """
    items = sequence_snapshot(value)
    if items is None:
        fail(path, f"must be a list or tuple, not {type_name(value)}")
    return items
