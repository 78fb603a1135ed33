"""Reads of one record's fields: ids, text, usage and stop reasons, in the transport's vocabulary.

Each read raises ``FixtureProviderError`` with the stable code, the path of
the bad value and the record's index; only failures build anything, so the
happy path stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NoReturn, TypeGuard

from frozendict import frozendict
from returns.result import Failure, Result, Success

from course_protocol import CourseModelUsage, CourseStopReason, freeze_json, is_blank, untrusted
from course_protocol.untrusted import ABSENT, described, token_count_of
from course_provider_fixture import _wire
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode

__all__ = [
    "FORMAT_HINT",
    "KNOWN_TYPES",
    "is_object",
    "non_blank_text",
    "parse_wire_stop_reason",
    "parse_wire_usage",
    "raise_error",
    "shown",
    "stop_reason_from",
    "usage_from",
]

_Code = FixtureProviderErrorCode

KNOWN_TYPES = ", ".join(
    (
        _wire.RESPONSE_START,
        _wire.TEXT_DELTA,
        _wire.TOOL_CALL,
        _wire.RESPONSE_END,
        _wire.TRANSPORT_ERROR,
    )
)
_STOP_REASONS = {
    _wire.WIRE_STOP: CourseStopReason.STOP,
    _wire.WIRE_TOOL_CALL_STOP: CourseStopReason.TOOL_CALL,
}


def is_object(value: object) -> TypeGuard[Mapping[str, object]]:
    """A JSON object of a snapshot: a ``frozendict``, or a private ``dict`` copy."""
    kind = type(value)
    return kind is dict or kind is frozendict


FORMAT_HINT: Final = (
    "; every record's fields are under 'Fixture format' in the course-provider-fixture README"
)
"""Ends the message of a missing field: where a hand-written fixture's author should look."""


def raise_error(
    code: FixtureProviderErrorCode, path: str, reason: str, record_index: int | None
) -> NoReturn:
    if reason.endswith("got missing"):
        reason += FORMAT_HINT
    raise FixtureProviderError(code, f"{path} {reason}", record_index=record_index, path=path)


def shown(value: object) -> str:
    """A wrong value as an error message shows it: a string by its repr, anything else described.

    ``course_protocol.untrusted.described`` says what the other values are,
    in JSON's words (``missing`` for ``ABSENT``, an absent key).
    """
    return repr(untrusted.shown(value)) if type(value) is str else described(value)


def non_blank_text(record: Mapping[str, object], key: str, path: str, index: int) -> str:
    value = record.get(key, ABSENT)
    if type(value) is not str or is_blank(value):
        raise_error(
            _Code.PROVIDER_INVALID_EVENT,
            f"{path}.{key}",
            f"must be a non-blank string, got {shown(value)}",
            index,
        )
    return value


def _count(
    usage: Mapping[str, object], aliases: tuple[str, str], path: str, index: int | None
) -> int:
    camel, snake = aliases
    if camel in usage and snake in usage:
        raise_error(
            _Code.PROVIDER_INVALID_EVENT,
            path,
            f"has both {camel} and {snake}; use one alias per count",
            index,
        )
    key = camel if camel in usage else snake
    value = usage.get(key, ABSENT)
    count = token_count_of(value)
    if count is None:
        raise_error(
            _Code.PROVIDER_INVALID_EVENT,
            f"{path}.{key}",
            f"must be an integer from 0 to 2**53 - 1, got {described(value)}",
            index,
        )
    return count


def usage_from(value: object, path: str, index: int | None) -> CourseModelUsage:
    """Normalize camel- or snake-case usage; raises ``FixtureProviderError`` when invalid."""
    if not is_object(value):
        raise_error(
            _Code.PROVIDER_INVALID_EVENT,
            path,
            f"must be an object, got {described(value)}",
            index,
        )
    input_tokens = _count(value, _wire.INPUT_TOKENS_ALIASES, path, index)
    output_tokens = _count(value, _wire.OUTPUT_TOKENS_ALIASES, path, index)
    return CourseModelUsage(input_tokens, output_tokens)


def stop_reason_from(value: object, path: str, index: int | None) -> CourseStopReason:
    """Map a wire stop reason to the course one; raises ``FixtureProviderError`` when unknown."""
    reason = _STOP_REASONS.get(value) if type(value) is str else None
    if reason is None:
        raise_error(
            _Code.PROVIDER_INVALID_EVENT,
            path,
            f"must be {_wire.WIRE_STOP!r} or {_wire.WIRE_TOOL_CALL_STOP!r}, got {value!r}"
            if type(value) is str
            else f"must be a string, got {described(value)}",
            index,
        )
    return reason


def parse_wire_usage(
    value: object, path: str = _wire.USAGE_KEY
) -> Result[CourseModelUsage, FixtureProviderError]:
    """Normalize untrusted usage into one frozen ``CourseModelUsage``.

    Accepts ``inputTokens`` or ``input_tokens`` and ``outputTokens`` or
    ``output_tokens`` (one alias per count; the two counts may use different
    spellings), each an integer from 0 to 2**53 - 1: an int (not bool), or
    a float with no fraction, which counts as the int it equals (``12.0``
    is 12, as the reference's ``Number.isSafeInteger`` reads it). Returns
    ``Failure`` with ``PROVIDER_INVALID_EVENT`` when ``value`` is not a JSON
    object, a count is missing or out of range, or both aliases of one count
    are present, even when one of them is None. Never raises.
    """
    try:
        frozen = freeze_json(value, path)
        if isinstance(frozen, Failure):
            error = frozen.failure()
            raise_error(_Code.PROVIDER_INVALID_EVENT, error.path, error.message, None)
        return Success(usage_from(frozen.unwrap(), path, None))
    except FixtureProviderError as error:
        return Failure(error)


def parse_wire_stop_reason(
    value: object, path: str = _wire.STOP_REASON_KEY
) -> Result[CourseStopReason, FixtureProviderError]:
    """Map the wire stop reason (``stop`` or the Tool-call one) to ``CourseStopReason``.

    Returns ``Failure`` with ``PROVIDER_INVALID_EVENT`` for anything else,
    including the course spelling ``toolCall``. Never raises.
    """
    try:
        return Success(stop_reason_from(value, path, None))
    except FixtureProviderError as error:
        return Failure(error)
