"""The errors the course protocol reports: one exception, two result errors."""

from __future__ import annotations

from dataclasses import dataclass


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
