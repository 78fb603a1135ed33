"""Vendor-neutral reads of untrusted event data, shared by every vendor parser.

A vendor parser sees each server-sent event's ``data`` as untrusted text. These
helpers decode it and read the few kinds of values every vendor sends (an
object, a token count, a usage object's two counts, Tool arguments as JSON
text), failing with the right `VendorErrorCode` (the errors' shape is
`_event_errors`'); an error body's reader decodes its JSON with the same
rules (`body_object`). The field names stay in each vendor's own package.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, NoReturn, TypeGuard

from course_http import VendorErrorCode
from course_protocol import MAX_TOKEN_COUNT, CourseModelUsage, JsonObject, freeze_json_object
from course_protocol.untrusted import ABSENT, described, shown
from course_vendor._event_errors import event_error, invalid_event

__all__ = [
    "body_object",
    "event_object",
    "is_token_count",
    "token_count",
    "tool_arguments",
    "usage_counts",
]


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        # 1e400 overflows to inf: as unrepresentable as NaN.
        raise ValueError(f"number {shown(text)} is out of range")
    return value


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_float=_finite_float, parse_constant=_no_constants)
# typeshed leaves out the attribute ``JSONDecoder.__init__`` sets: its scanner.
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


def _decode(text: str) -> Any:
    # The decoder's scanner alone when one value fills the whole text, as in
    # every event a vendor sends: ``JSONDecoder.decode`` wraps the same scan
    # in two Python frames and two whitespace matches, about 1 µs per event
    # (the vendors rows of benchmarks/README.md). Anything else (whitespace
    # around the value, extra data, text that is not JSON) goes through
    # ``decode`` itself, which accepts or words it exactly as before.
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError, RecursionError):
        end = -1
    if end == len(text):
        return value
    # RecursionError: nesting deeper than the C decoder's stack; ValueError:
    # malformed text, NaN/Infinity, out-of-range floats, ints past str() limits.
    return _DECODER.decode(text)


def event_object(data: str, *, vendor: str, index: int) -> dict[str, Any]:
    """Decode one event's ``data`` into a plain ``dict``.

    Raises `VendorError` ``VENDOR_INVALID_EVENT`` when ``data`` is not JSON
    text, holds ``NaN``, ``Infinity`` or a number that overflows a float,
    nests past the decoder's limit, or is JSON but not an object.
    Duplicate keys keep the last value, as ``json.loads`` does.
    """
    try:
        value = _decode(data)
    except (ValueError, RecursionError) as error:
        raise invalid_event(f"data is not JSON ({error})", vendor=vendor, index=index) from None
    if type(value) is not dict:
        raise invalid_event(
            f"data must be a JSON object, got {described(value)}", vendor=vendor, index=index
        )
    return value


def body_object(body: bytes) -> dict[str, Any] | None:
    """An HTTP error body decoded as a JSON object, or ``None`` when it is not one.

    The body must be UTF-8 text of one JSON object, decoded with the rules of
    `event_object`; anything else (not UTF-8, not JSON, an array, nested past
    the decoder's limit) gives ``None``, so an ``ErrorBodyReader`` can fall
    back to the status alone. Never raises for ``bytes``.
    """
    try:
        value = _decode(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if type(value) is dict else None


def is_token_count(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a token count: an ``int`` (not ``bool``) from 0 to 2**53 - 1."""
    return type(value) is int and 0 <= value <= MAX_TOKEN_COUNT


def token_count(value: object, *, vendor: str, index: int, path: str) -> int:
    """``value`` as a token count (`is_token_count`).

    Raises `VendorError` ``VENDOR_INVALID_EVENT`` naming ``path`` otherwise
    (``course_protocol.untrusted.ABSENT``, a key that is not there, is said
    as ``got missing``).
    """
    if not is_token_count(value):
        raise invalid_event(
            f"{path} must be an integer from 0 to 2**53 - 1, got {described(value)}",
            vendor=vendor,
            index=index,
        )
    return value


def usage_counts(
    usage: dict[str, Any], input_key: str, output_key: str, *, vendor: str, index: int, path: str
) -> CourseModelUsage:
    """The course usage of a vendor's usage object ``usage``: its two counts, by their keys.

    ``path`` names ``usage`` in a message. Raises `VendorError`
    ``VENDOR_INVALID_EVENT`` naming ``path.input_key`` or ``path.output_key``
    when either is absent (``got missing``) or not a `token_count`.
    """
    return CourseModelUsage(
        token_count(
            usage.get(input_key, ABSENT), vendor=vendor, index=index, path=f"{path}.{input_key}"
        ),
        token_count(
            usage.get(output_key, ABSENT), vendor=vendor, index=index, path=f"{path}.{output_key}"
        ),
    )


def tool_arguments(text: str, *, vendor: str, index: int, path: str) -> JsonObject:
    """Parse a Tool call's complete argument text into a frozen JSON object.

    The empty string means ``{}``: a Tool without parameters streams no
    argument text at all. Raises `VendorError`
    ``VENDOR_INVALID_TOOL_ARGUMENTS`` naming ``path`` when the text is not
    JSON, is JSON but not an object, or is an object the course protocol
    refuses (nesting past ``JSON_MAX_DEPTH``).
    """
    if not text:
        return freeze_json_object({}).unwrap()
    try:
        value = _decode(text)
    except (ValueError, RecursionError) as error:
        _invalid_arguments(f"{path} is not valid JSON ({error})", vendor, index)
    if type(value) is not dict:
        _invalid_arguments(f"{path} must be a JSON object, got {described(value)}", vendor, index)
    frozen = freeze_json_object(value, path)
    if not isinstance(frozen.value_or(None), dict):
        problem = frozen.failure()
        _invalid_arguments(f"{problem.path}: {problem.message}", vendor, index)
    return frozen.unwrap()


def _invalid_arguments(message: str, vendor: str, index: int) -> NoReturn:
    raise event_error(
        VendorErrorCode.VENDOR_INVALID_TOOL_ARGUMENTS, message, vendor=vendor, index=index
    )
