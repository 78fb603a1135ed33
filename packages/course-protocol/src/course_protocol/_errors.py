"""The one error base of every course package, and the protocol's own two errors."""

from __future__ import annotations

from enum import StrEnum, unique

__all__ = [
    "CourseError",
    "CourseProtocolError",
    "CourseProtocolErrorCode",
    "JsonError",
    "JsonErrorCode",
]


class CourseError(Exception):
    """The base of every error a course package raises on purpose.

    ``code`` is a member of the raising package's ``StrEnum`` of stable codes
    and ``message`` the human-readable explanation, without the code. The
    string form is ``"<code>: <message>"``. Catch ``CourseError`` to handle
    any course failure; match on ``code`` to handle one. ``provider_code`` is
    the code a provider itself reported, for a failure a provider reported (a
    recorded transport error, a vendor's error event or error body), and
    None otherwise.

    (``course_stream`` sits below the protocol and knows no domain: its
    ``EventStreamStateError`` is a ``RuntimeError`` for misuse, and
    ``AbortError`` the default reason of an abort; neither is a course error.)
    """

    code: StrEnum
    message: str
    provider_code: str | None = None

    def __init__(self, code: StrEnum, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __reduce__(self) -> tuple[object, ...]:
        # Exception pickles its args, which hold the message only; a subclass
        # with more fields than the code and the message overrides this.
        return (type(self), (self.code, self.message))


@unique
class CourseProtocolErrorCode(StrEnum):
    """Why a protocol value could not be built; values never change."""

    INVALID_FIELD = "INVALID_FIELD"
    """A constructor (or ``thaw_json``) was given a field of the wrong type or value."""


class CourseProtocolError(CourseError, ValueError):
    """A protocol value was constructed from a bad field.

    Raised by every protocol constructor (and by :func:`thaw_json`) when a
    field has the wrong type or an invalid value. ``path`` names the bad
    value, for example ``arguments.items[3].x`` or ``messages[2].content[0]``;
    ``message`` says what is wrong with it; ``code`` is always
    ``INVALID_FIELD``. The string form is ``"INVALID_FIELD: <path>: <message>"``. Also a
    ``ValueError``, as a bad argument value is in Python.
    """

    code: CourseProtocolErrorCode
    path: str

    def __init__(self, path: str, message: str) -> None:
        super().__init__(CourseProtocolErrorCode.INVALID_FIELD, message)
        self.path = path

    def __str__(self) -> str:
        return f"{self.code}: {self.path}: {self.message}"

    def __reduce__(self) -> tuple[type[CourseProtocolError], tuple[str, str]]:
        return (type(self), (self.path, self.message))


@unique
class JsonErrorCode(StrEnum):
    """Why a value is not the JSON asked for; values never change."""

    NOT_JSON = "NOT_JSON"
    """The value is not a JSON value: a foreign type, a non-finite float, a cycle, too deep."""

    NOT_COURSE_JSON = "NOT_COURSE_JSON"
    """The value is JSON, but not the course JSON form of the value asked for."""


class JsonError(CourseError):
    """Why a value is not (course) JSON: the ``path`` of the bad part and what is wrong.

    The ``Failure`` value of ``freeze_json`` (code ``NOT_JSON``) and of the
    course JSON parsers (``NOT_COURSE_JSON`` for a document that is JSON but
    not the course value, ``NOT_JSON`` for one that is not even JSON). Two
    errors are equal when code, path and message are, so a ``Result`` can be
    compared with an expected one. The string form is
    ``"<code>: <path> <message>"``.
    """

    code: JsonErrorCode
    path: str

    def __init__(self, code: JsonErrorCode, path: str, message: str) -> None:
        super().__init__(JsonErrorCode(code), message)
        self.path = path

    def __str__(self) -> str:
        return f"{self.code}: {self.path} {self.message}"

    def __repr__(self) -> str:
        return f"JsonError({self.code.value!r}, {self.path!r}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not JsonError:
            return NotImplemented
        return (self.code, self.path, self.message) == (other.code, other.path, other.message)

    def __hash__(self) -> int:
        return hash((self.code, self.path, self.message))

    def __reduce__(self) -> tuple[type[JsonError], tuple[str, str, str]]:
        return (JsonError, (self.code.value, self.path, self.message))
