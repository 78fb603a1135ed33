"""The one error of real-provider adapters and its flat set of stable codes.

Every vendor adapter (Anthropic Messages, OpenAI Chat Completions, OpenAI
Responses) fails with `VendorError`, so a loop that swaps one provider for
another handles failures by the same codes.
"""

from __future__ import annotations

from enum import StrEnum, unique

from course_protocol import CourseError

__all__ = ["VendorError", "VendorErrorCode"]


@unique
class VendorErrorCode(StrEnum):
    """Why a call to a real provider failed; values never change.

    ``HTTP_*`` codes happen before or under the event stream, ``VENDOR_*``
    codes are about what the vendor sent.
    """

    VENDOR_MISSING_API_KEY = "VENDOR_MISSING_API_KEY"
    """A live call needs an API key: none was given, and the vendor's variable holds none.

    Unset, empty, or not a usable key (a space, a line break, non-ASCII).
    """

    VENDOR_INVALID_REQUEST = "VENDOR_INVALID_REQUEST"
    """The course request cannot be put in the vendor's terms; nothing was sent."""

    VENDOR_UNKNOWN_WIRE = "VENDOR_UNKNOWN_WIRE"
    """No installed vendor package registers the wire asked for (a ``course.vendors`` name)."""

    VENDOR_PLUGIN_BROKEN = "VENDOR_PLUGIN_BROKEN"
    """A wire's plug-in cannot be used: its entry point fails to import, or is no plug-in."""

    VENDOR_WIRE_CONFLICT = "VENDOR_WIRE_CONFLICT"
    """Two registrations claim one wire name, or one recorded endpoint alike: none is picked."""

    VENDOR_WIRE_MISMATCH = "VENDOR_WIRE_MISMATCH"
    """A recorded call's wire is not the one asked for (``--wire``): neither is picked."""

    HTTP_CONNECT_FAILED = "HTTP_CONNECT_FAILED"
    """No connection: refused, name resolution, TLS, or a proxy failure."""

    HTTP_TIMEOUT = "HTTP_TIMEOUT"
    """A connect, write, pool or read timeout expired, before or during the stream."""

    HTTP_UNAUTHORIZED = "HTTP_UNAUTHORIZED"
    """The vendor refused the credentials (HTTP 401 or 403)."""

    HTTP_RATE_LIMITED = "HTTP_RATE_LIMITED"
    """The vendor asked to slow down (HTTP 429); ``retry_after`` says when, if it did."""

    HTTP_OVERLOADED = "HTTP_OVERLOADED"
    """The vendor is overloaded or unavailable (HTTP 503 or 529)."""

    HTTP_SERVER_ERROR = "HTTP_SERVER_ERROR"
    """The vendor failed (any other HTTP 5xx); served cassettes: the responder failed to answer."""

    HTTP_REQUEST_REJECTED = "HTTP_REQUEST_REJECTED"
    """The vendor rejected the request (any other HTTP 4xx: bad body, unknown model, too large)."""

    HTTP_UNEXPECTED_STATUS = "HTTP_UNEXPECTED_STATUS"
    """A status that is neither success nor an error (1xx, 3xx: redirects are not followed)."""

    HTTP_NOT_EVENT_STREAM = "HTTP_NOT_EVENT_STREAM"
    """A success status whose body is not ``text/event-stream``."""

    HTTP_STREAM_INTERRUPTED = "HTTP_STREAM_INTERRUPTED"
    """The connection failed or was closed in the middle of the body."""

    HTTP_RECORDING_EXHAUSTED = "HTTP_RECORDING_EXHAUSTED"
    """A call after every recorded response was used (served cassettes: of its method and path)."""

    HTTP_REQUEST_MISMATCH = "HTTP_REQUEST_MISMATCH"
    """A replayed call sent a request that differs from the recorded one (method, path or body)."""

    HTTP_RECORDING_INVALID = "HTTP_RECORDING_INVALID"
    """A cassette cannot be used: unreadable, not strict JSON, or not the documented format."""

    HTTP_PROMPT_CACHE_MOVED = "HTTP_PROMPT_CACHE_MOVED"
    """A cassette call changed the request prefix its wire cached for an earlier call."""

    VENDOR_INVALID_EVENT = "VENDOR_INVALID_EVENT"
    """An event's data is not a JSON object, or a field has the wrong type or value."""

    VENDOR_UNKNOWN_EVENT = "VENDOR_UNKNOWN_EVENT"
    """An event type (or a block, item or delta type inside one) the adapter does not know."""

    VENDOR_EVENT_ORDER = "VENDOR_EVENT_ORDER"
    """An event out of place: before the start, for a block that is not open, after the end."""

    VENDOR_MISSING_TERMINAL = "VENDOR_MISSING_TERMINAL"
    """The stream ended without the vendor's terminal event (or without usage)."""

    VENDOR_ERROR_EVENT = "VENDOR_ERROR_EVENT"
    """The vendor reported an error inside the stream, even under HTTP 200."""

    VENDOR_INCOMPLETE = "VENDOR_INCOMPLETE"
    """The vendor stopped for a reason the course cannot express (``max_tokens``, ``length``)."""

    VENDOR_REFUSAL = "VENDOR_REFUSAL"
    """The model refused to answer; the message carries the refusal text when there is one."""

    VENDOR_UNSUPPORTED_CONTENT = "VENDOR_UNSUPPORTED_CONTENT"
    """Content the course protocol cannot carry and the adapter does not skip on purpose."""

    VENDOR_INVALID_TOOL_ARGUMENTS = "VENDOR_INVALID_TOOL_ARGUMENTS"
    """A Tool call's arguments are not valid JSON text, or not a JSON object."""

    VENDOR_INVALID_TERMINAL = "VENDOR_INVALID_TERMINAL"
    """The stop reason contradicts the content: Tool use without a Tool call, or the reverse."""


_RETRYABLE = frozenset(
    {
        VendorErrorCode.HTTP_CONNECT_FAILED,
        VendorErrorCode.HTTP_TIMEOUT,
        VendorErrorCode.HTTP_RATE_LIMITED,
        VendorErrorCode.HTTP_OVERLOADED,
        VendorErrorCode.HTTP_SERVER_ERROR,
        VendorErrorCode.HTTP_STREAM_INTERRUPTED,
    }
)


class VendorError(CourseError):
    """A call to a real provider failed, with a stable ``code``.

    ``vendor`` names the wire format (``"anthropic-messages"``,
    ``"openai-chat"``, ``"openai-responses"``). The other fields are ``None``
    when they do not apply: ``status`` is the HTTP status the vendor sent;
    ``vendor_type`` is the vendor's own name for what happened (an error type
    such as ``overloaded_error``, or a stop reason such as ``max_tokens``);
    ``vendor_code`` the vendor's error code when it sends one besides the
    type; ``vendor_message`` the vendor's own message; ``retry_after`` the
    seconds the vendor asked to wait; ``event_index`` the zero-based index
    of the offending server-sent event (for a missing terminal: the number
    of events read). ``provider_code`` (the course errors' common name for
    it) is ``vendor_code``, or ``vendor_type`` when the vendor sent no code.
    No field ever holds an API key.
    """

    code: VendorErrorCode
    vendor: str
    status: int | None
    vendor_type: str | None
    vendor_code: str | None
    vendor_message: str | None
    retry_after: float | None
    event_index: int | None

    def __init__(
        self,
        code: VendorErrorCode,
        message: str,
        *,
        vendor: str,
        status: int | None = None,
        vendor_type: str | None = None,
        vendor_code: str | None = None,
        vendor_message: str | None = None,
        retry_after: float | None = None,
        event_index: int | None = None,
    ) -> None:
        super().__init__(VendorErrorCode(code), message)
        self.vendor = vendor
        self.status = status
        self.vendor_type = vendor_type
        self.vendor_code = vendor_code
        self.provider_code = vendor_code if vendor_code is not None else vendor_type
        self.vendor_message = vendor_message
        self.retry_after = retry_after
        self.event_index = event_index

    @property
    def retryable(self) -> bool:
        """Whether the same request may succeed later: connection, timeout, 429, 5xx, cut streams.

        The adapters never retry by themselves; this tells the caller whether
        retrying makes sense.
        """
        return self.code in _RETRYABLE

    def with_message(self, message: str) -> VendorError:
        """A new error with this one's code and vendor fields, and ``message`` as its message."""
        return VendorError(self.code, message, **self._fields())  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return (
            f"VendorError(code={self.code.value!r}, message={self.message!r}, "
            f"vendor={self.vendor!r}, status={self.status!r}, vendor_type={self.vendor_type!r}, "
            f"retry_after={self.retry_after!r}, event_index={self.event_index!r})"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.code.value, self.message, self._fields()))

    def _fields(self) -> dict[str, object]:
        return {
            "vendor": self.vendor,
            "status": self.status,
            "vendor_type": self.vendor_type,
            "vendor_code": self.vendor_code,
            "vendor_message": self.vendor_message,
            "retry_after": self.retry_after,
            "event_index": self.event_index,
        }


def _rebuild(code: str, message: str, fields: dict[str, object]) -> VendorError:
    return VendorError(VendorErrorCode(code), message, **fields)  # type: ignore[arg-type]
