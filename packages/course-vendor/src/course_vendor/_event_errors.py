"""The one shape of a vendor parser's errors, and the field reads that raise them.

Every message starts ``event N:`` and every error carries ``event_index``
N and the vendor's wire-format name; the vendor's own fields (its type,
code, message) are passed through. A parser binds its vendor once, in an
`EventFailures`, and raises and reads through it: `EventFailures.object_at`
and `EventFailures.text_at` read one field of a decoded event, and a bad
value is named by ``course_protocol.untrusted.described`` (``missing`` for
an absent key, ``null`` for a null one), never by its text.
"""

from __future__ import annotations

from typing import Any, NoReturn

from course_http import VendorError, VendorErrorCode
from course_protocol import JsonObject, freeze_json_object
from course_protocol.untrusted import ABSENT, described, is_blank

__all__ = ["EventFailures", "event_error", "invalid_event"]


def event_error(
    code: VendorErrorCode,
    message: str,
    *,
    vendor: str,
    index: int,
    vendor_type: str | None = None,
    vendor_code: str | None = None,
    vendor_message: str | None = None,
) -> VendorError:
    """The `VendorError` ``code`` about event ``index``: ``message`` prefixed ``event N:``.

    ``event_index`` is ``index``; the vendor's own fields are passed through.
    Returns the error (the caller raises it); raises nothing itself.
    """
    return VendorError(
        code,
        f"event {index}: {message}",
        vendor=vendor,
        vendor_type=vendor_type,
        vendor_code=vendor_code,
        vendor_message=vendor_message,
        event_index=index,
    )


def invalid_event(message: str, *, vendor: str, index: int) -> VendorError:
    """A ``VENDOR_INVALID_EVENT`` error for event ``index``, ``message`` saying what is wrong."""
    return event_error(VendorErrorCode.VENDOR_INVALID_EVENT, message, vendor=vendor, index=index)


class EventFailures:
    """The failures of one vendor's events: `fail` raises a `VendorError` naming ``vendor``.

    A vendor parser makes one per wire format and raises through it, so
    every error names the vendor and the event the same way; a vendor
    package subclasses it to add the failures of its own vocabulary.
    """

    __slots__ = ("vendor",)

    def __init__(self, vendor: str) -> None:
        self.vendor = vendor

    def invalid(self, index: int, path: str, expected: str, value: object) -> NoReturn:
        """Raise ``VENDOR_INVALID_EVENT``: ``path`` of event ``index`` is not ``expected``.

        The message is ``event N: <path> must be <expected>, got <described(value)>``.
        """
        self.fail(
            VendorErrorCode.VENDOR_INVALID_EVENT,
            index,
            f"{path} must be {expected}, got {described(value)}",
        )

    def fail_invalid(self, message: str, index: int) -> NoReturn:
        """Raise ``VENDOR_INVALID_EVENT`` for event ``index``, ``message`` saying what is wrong."""
        self.fail(VendorErrorCode.VENDOR_INVALID_EVENT, index, message)

    def fail_order(self, message: str, index: int) -> NoReturn:
        """Raise ``VENDOR_EVENT_ORDER`` for event ``index``, ``message`` saying what came when."""
        self.fail(VendorErrorCode.VENDOR_EVENT_ORDER, index, message)

    def object_at(
        self, data: dict[str, Any], key: str, index: int, *, parent: str = ""
    ) -> dict[str, Any]:
        """``data[key]`` as a JSON object (a plain ``dict``).

        Raises `invalid` (``VENDOR_INVALID_EVENT``) naming ``parent.key`` (or
        ``key`` alone) when it is absent (said as ``got missing``) or anything else.
        """
        value = data.get(key, ABSENT)
        if type(value) is not dict:
            self.invalid(index, f"{parent}.{key}" if parent else key, "an object", value)
        return value

    def text_at(
        self,
        data: dict[str, Any],
        key: str,
        index: int,
        *,
        parent: str = "",
        non_blank: bool = False,
    ) -> str:
        """``data[key]`` as a ``str``, empty allowed unless ``non_blank`` (an id, a name, a type).

        Raises `invalid` (``VENDOR_INVALID_EVENT``) naming ``parent.key`` (or
        ``key`` alone) when it is absent, not a string, or empty or blank
        where it must not be (said as ``got an empty string``, ``got a blank
        string``).
        """
        value = data.get(key, ABSENT)
        if type(value) is not str or (non_blank and is_blank(value)):
            path = f"{parent}.{key}" if parent else key
            self.invalid(index, path, "a non-blank string" if non_blank else "a string", value)
        return value

    def frozen_object(self, value: object, index: int, path: str) -> JsonObject:
        """The decoded object ``value`` (at ``path`` of event ``index``), frozen.

        Raises `invalid` (``VENDOR_INVALID_EVENT``) naming ``path`` when it
        is not a JSON object (a plain ``dict``), and naming the bad part
        (``path.part nests more than ...``) when the course's JSON rules
        refuse it (nesting past ``JSON_MAX_DEPTH``, a float that is not finite).
        """
        if type(value) is not dict:
            self.invalid(index, path, "an object", value)
        result = freeze_json_object(value, path)
        if not isinstance(result.value_or(None), dict):
            problem = result.failure()
            self.fail_invalid(f"{problem.path} {problem.message}", index)
        return result.unwrap()

    def fail(
        self,
        code: VendorErrorCode,
        index: int,
        message: str,
        *,
        vendor_type: str | None = None,
        vendor_code: str | None = None,
        vendor_message: str | None = None,
    ) -> NoReturn:
        """Raise `event_error` ``code`` about event ``index``, the vendor's own fields given."""
        raise event_error(
            code,
            message,
            vendor=self.vendor,
            index=index,
            vendor_type=vendor_type,
            vendor_code=vendor_code,
            vendor_message=vendor_message,
        )
