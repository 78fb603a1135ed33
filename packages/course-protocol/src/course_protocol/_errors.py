"""The errors the course protocol reports: the one error base, and the protocol's own errors."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class CourseError(Exception):
    """The base of every error a course package raises on purpose.

    ``code`` is a member of the raising package's ``StrEnum`` of stable codes
    and ``message`` the human-readable explanation, without the code. The
    string form is ``"<code>: <message>"``. Catch ``CourseError`` to handle
    any course failure; match on ``code`` to handle one.
    """

    code: StrEnum
    message: str

    def __init__(self, code: StrEnum, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class CourseProtocolError(ValueError):
    """A protocol value was constructed from a bad field.

    Raised by every protocol constructor (and by :func:`thaw_json`) when a
    field has the wrong type or an invalid value. ``path`` names the bad
    value, for example ``arguments.items[3].x`` or ``messages[2].content[0]``;
    ``message`` says what is wrong with it. The string form is
    ``"<path>: <message>"``.
    """

    path: str
    message: str

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message

    def __reduce__(self) -> tuple[type[CourseProtocolError], tuple[str, str]]:
        return (type(self), (self.path, self.message))


@dataclass(frozen=True, slots=True)
class JsonError:
    """Why a value is not a JSON value: the path of the bad part and what is wrong."""

    path: str
    message: str


@dataclass(frozen=True, slots=True)
class CourseCodecError:
    """Why a course JSON document does not parse: the path of the bad part and what is wrong."""

    path: str
    message: str
