"""The one exception of this package and its flat set of stable codes."""

from __future__ import annotations

from enum import StrEnum, unique

from course_protocol import CourseError

__all__ = ["FixtureProviderError", "FixtureProviderErrorCode"]


@unique
class FixtureProviderErrorCode(StrEnum):
    """Why a fixture was rejected or a replayed response failed; values never change."""

    PROVIDER_INVALID_FIXTURE = "PROVIDER_INVALID_FIXTURE"
    """The fixture (or an async record source) is not a usable schema-1 fixture."""

    PROVIDER_EXHAUSTED = "PROVIDER_EXHAUSTED"
    """A call arrived when no queued response was left to play."""

    PROVIDER_UNKNOWN_EVENT = "PROVIDER_UNKNOWN_EVENT"
    """A record's ``type`` is a string that names no known transport record."""

    PROVIDER_INVALID_EVENT = "PROVIDER_INVALID_EVENT"
    """A record is not an object, lacks a string ``type``, or has a malformed field."""

    PROVIDER_MISSING_START = "PROVIDER_MISSING_START"
    """A text, Tool-call or terminal record arrived before the response start."""

    PROVIDER_DUPLICATE_START = "PROVIDER_DUPLICATE_START"
    """A second response start arrived in one response."""

    PROVIDER_MISSING_TERMINAL = "PROVIDER_MISSING_TERMINAL"
    """The record source ended without a response end."""

    PROVIDER_DUPLICATE_TERMINAL = "PROVIDER_DUPLICATE_TERMINAL"
    """A second response end arrived in one response."""

    PROVIDER_RESPONSE_MISMATCH = "PROVIDER_RESPONSE_MISMATCH"
    """The response end names another response id than the response start."""

    PROVIDER_INVALID_TERMINAL = "PROVIDER_INVALID_TERMINAL"
    """The stop reason contradicts the Tool calls, or a record followed the response end."""

    PROVIDER_ITERATOR_REUSED = "PROVIDER_ITERATOR_REUSED"
    """An async record source handed out an iterator that already fed a model call."""

    PROVIDER_TRANSPORT_ERROR = "PROVIDER_TRANSPORT_ERROR"
    """The fixture recorded a transport failure; ``provider_code`` carries its code."""

    PROVIDER_INVALID_REQUEST = "PROVIDER_INVALID_REQUEST"
    """With ``validate_requests=True``: the request's transcript fails ``validate_transcript``."""

    PROVIDER_REQUEST_MISMATCH = "PROVIDER_REQUEST_MISMATCH"
    """With ``match_requests=True``: the request differs from the one recorded with the response."""


class FixtureProviderError(CourseError):
    """A fixture was rejected or a replayed response failed, with a stable ``code``.

    ``record_index`` is the zero-based index of the offending record in its
    response (for a missing terminal: the number of records read), or
    ``None`` when no single record is at fault. ``provider_code`` is the code
    a recorded transport failure carried, and ``None`` for every other code.
    ``path`` names the bad value, such as ``responses[0].records[2].usage``,
    or is ``None`` when there is no single value to name.
    """

    code: FixtureProviderErrorCode
    record_index: int | None
    provider_code: str | None
    path: str | None

    def __init__(
        self,
        code: FixtureProviderErrorCode,
        message: str,
        *,
        record_index: int | None = None,
        provider_code: str | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(FixtureProviderErrorCode(code), message)
        self.record_index = record_index
        self.provider_code = provider_code
        self.path = path

    def __repr__(self) -> str:
        return (
            f"FixtureProviderError(code={self.code.value!r}, message={self.message!r}, "
            f"record_index={self.record_index!r}, provider_code={self.provider_code!r})"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _rebuild,
            (self.code.value, self.message, self.record_index, self.provider_code, self.path),
        )


def _rebuild(
    code: str,
    message: str,
    record_index: int | None,
    provider_code: str | None,
    path: str | None,
) -> FixtureProviderError:
    return FixtureProviderError(
        FixtureProviderErrorCode(code),
        message,
        record_index=record_index,
        provider_code=provider_code,
        path=path,
    )
