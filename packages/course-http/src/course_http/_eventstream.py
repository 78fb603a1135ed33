"""The AWS event-stream encoding (``application/vnd.amazon.eventstream``), read and written.

A body is a run of binary messages. Each is a prelude (the message's total
length and its headers' length, big-endian 32-bit, then the prelude's CRC32),
its headers, its payload and the CRC32 of everything before it. A header is
its name's length (one byte), the name (UTF-8), a type byte and the value in
that type's layout. `EventStreamDecoder` reads a body strictly and
incrementally, a message at a time, and names the byte a fault is at;
`encode_event_message` writes one message, so a message read re-encodes to
the bytes that came. Both are pure: no vendor's vocabulary lives here (which
headers a wire expects is that wire's business).

Over 300 lines on purpose: the reader and the writer are one layout, kept
side by side so that each header type is read and written the same way.
"""

from __future__ import annotations

import struct
import uuid
import zlib
from typing import Final, NamedTuple, TypeAlias, final

from course_http._errors import VendorError, VendorErrorCode

__all__ = [
    "EVENTSTREAM_MEDIA_TYPE",
    "MAX_HEADERS_LENGTH",
    "MAX_MESSAGE_LENGTH",
    "EventStreamDecoder",
    "EventStreamHeader",
    "EventStreamMessage",
    "HeaderValue",
    "encode_event_message",
]

EVENTSTREAM_MEDIA_TYPE: Final = "application/vnd.amazon.eventstream"
MAX_MESSAGE_LENGTH: Final = 16 * 1024 * 1024
"""The longest message the encoding allows, prelude and CRCs included (16 MiB)."""
MAX_HEADERS_LENGTH: Final = 128 * 1024
"""The longest headers section the encoding allows (128 KiB)."""

_PRELUDE = struct.Struct(">III")
_CRC = struct.Struct(">I")
_OVERHEAD: Final = 16
"""The prelude (8 bytes), its CRC (4) and the message CRC (4)."""

HeaderValue: TypeAlias = bool | int | bytes | str | uuid.UUID
"""A header's value: ``bool`` (types 0 and 1), ``int`` (byte, short, integer, long, and the
timestamp in milliseconds), ``bytes``, ``str``, ``uuid.UUID``."""

TRUE, FALSE, BYTE, SHORT, INTEGER, LONG, BYTES, STRING, TIMESTAMP, UUID = range(10)
_FIXED = {
    BYTE: struct.Struct(">b"),
    SHORT: struct.Struct(">h"),
    INTEGER: struct.Struct(">i"),
    LONG: struct.Struct(">q"),
    TIMESTAMP: struct.Struct(">q"),
}
_LENGTH = struct.Struct(">H")


class EventStreamHeader(NamedTuple):
    """One header: its ``name``, its ``type`` byte (0 to 9) and its ``value``.

    The type is kept beside the value because two types share a Python
    value (an ``int`` is a byte, short, integer, long or timestamp), and
    the message must re-encode to its own bytes. Immutable (a named tuple,
    cheap to make for every header of every message).
    """

    name: str
    type: int
    value: HeaderValue


class EventStreamMessage(NamedTuple):
    """One message: its ``headers`` in the order sent, and its ``payload`` bytes."""

    headers: tuple[EventStreamHeader, ...]
    payload: bytes

    def header(self, name: str) -> HeaderValue | None:
        """The value of the header ``name``, or ``None`` when the message has none."""
        for header in self.headers:
            if header.name == name:
                return header.value
        return None


def encode_event_message(headers: tuple[EventStreamHeader, ...], payload: bytes) -> bytes:
    """One message of ``headers`` (in order) and ``payload``, CRCs computed.

    Raises ``ValueError`` for a header whose value does not fit its type
    (a name longer than 255 bytes, a string or bytes value longer than
    65535, an integer out of its type's range, an unknown type), and for a
    message past `MAX_MESSAGE_LENGTH` or headers past `MAX_HEADERS_LENGTH`.
    """
    encoded = b"".join(_encoded_header(header) for header in headers)
    if len(encoded) > MAX_HEADERS_LENGTH:
        raise ValueError(f"the headers take {len(encoded)} bytes, past {MAX_HEADERS_LENGTH}")
    total = _OVERHEAD + len(encoded) + len(payload)
    if total > MAX_MESSAGE_LENGTH:
        raise ValueError(f"the message takes {total} bytes, past {MAX_MESSAGE_LENGTH}")
    prelude = struct.pack(">II", total, len(encoded))
    head = prelude + _CRC.pack(zlib.crc32(prelude)) + encoded + payload
    return head + _CRC.pack(zlib.crc32(head))


def _encoded_header(header: EventStreamHeader) -> bytes:
    name = header.name.encode()
    if not 0 < len(name) < 256:
        raise ValueError(f"header name {header.name!r} must take 1 to 255 bytes")
    kind, value = header.type, header.value
    head = bytes((len(name),)) + name + bytes((kind,)) if 0 <= kind < 256 else b""
    try:
        if kind in (TRUE, FALSE) and value is (kind == TRUE):
            return head
        if kind in _FIXED and type(value) is int:
            return head + _FIXED[kind].pack(value)
        if kind == BYTES and type(value) is bytes:
            return head + _LENGTH.pack(len(value)) + value
        if kind == STRING and type(value) is str:
            text = value.encode()
            return head + _LENGTH.pack(len(text)) + text
        if kind == UUID and type(value) is uuid.UUID:
            return head + value.bytes
    except struct.error as error:
        raise ValueError(f"header {header.name!r}: {error}") from None
    raise ValueError(f"header {header.name!r}: {value!r} is not a value of type {kind}")


@final
class EventStreamDecoder:
    """Incremental, strict reader of an event-stream body: bytes in, `EventStreamMessage` s out.

    `feed` takes the next chunk of the body and returns the messages it
    completes, in order; `close` ends the body. A fault is a `VendorError`
    ``VENDOR_INVALID_EVENT`` (``vendor``, ``event_index`` the number of
    messages before it) whose message names the byte offset in the body
    where the faulty message starts and what is wrong: a prelude CRC or
    message CRC that does not match, a total length under 16 bytes or past
    `MAX_MESSAGE_LENGTH`, a headers length past `MAX_HEADERS_LENGTH` or
    past the message, a header that overruns its section, an unknown header
    type, a name or string that is not UTF-8, a header name given twice,
    and (at `close`) a body that ends inside a message. The prelude is
    checked before the decoder waits for the rest of a message, so a
    corrupt length never makes it wait for bytes that will not come.
    Messages before the fault are returned; the fault is kept in `failure`
    and raised by the next call.
    """

    __slots__ = ("_buffer", "_consumed", "_failure", "_message_count", "_vendor")

    def __init__(self, *, vendor: str) -> None:
        self._vendor = vendor
        self._buffer = b""
        self._consumed = 0
        self._message_count = 0
        self._failure: VendorError | None = None

    @property
    def message_count(self) -> int:
        """The number of messages returned so far."""
        return self._message_count

    @property
    def failure(self) -> VendorError | None:
        """The fault the next call raises, or ``None`` while the body is well formed."""
        return self._failure

    def feed(self, data: bytes) -> list[EventStreamMessage]:
        """The messages the next chunk ``data`` completes, in order.

        Raises the kept fault, if any; a fault found in ``data`` is kept and
        the messages before it returned.
        """
        if self._failure is not None:
            raise self._failure
        buffer = self._buffer + data if self._buffer else bytes(data)
        view = memoryview(buffer)
        messages: list[EventStreamMessage] = []
        position = 0
        end = len(buffer)
        crc32, prelude = zlib.crc32, _PRELUDE.unpack_from
        try:
            while end - position >= 12:
                total, headers_length, prelude_crc = prelude(buffer, position)
                if crc32(view[position : position + 8]) != prelude_crc:
                    raise self._fault(position, messages, "the prelude CRC does not match")
                if total > end - position or not _OVERHEAD <= total <= MAX_MESSAGE_LENGTH:
                    self._check_lengths(total, headers_length, position, messages)
                    break
                last = position + total - 4
                if crc32(view[position:last]) != int.from_bytes(buffer[last : last + 4]):
                    raise self._fault(position, messages, "the message CRC does not match")
                if headers_length > total - _OVERHEAD or headers_length > MAX_HEADERS_LENGTH:
                    self._check_lengths(total, headers_length, position, messages)
                start = position + 12
                headers = self._headers(buffer, start, start + headers_length, position, messages)
                messages.append(EventStreamMessage(headers, buffer[start + headers_length : last]))
                position += total
        except VendorError as error:
            self._failure = error
            self._buffer = b""
        else:
            self._buffer = buffer[position:]
        self._consumed += position
        self._message_count += len(messages)
        return messages

    def close(self) -> None:
        """End of body. Raises the kept fault, or a fault for a body that ends inside a message."""
        if self._failure is not None:
            raise self._failure
        if self._buffer:
            self._failure = self._fault(
                0,
                [],
                f"the body ends inside a message, {len(self._buffer)} byte(s) into it",
            )
            raise self._failure

    def _check_lengths(
        self, total: int, headers_length: int, position: int, before: list[EventStreamMessage]
    ) -> None:
        if total < _OVERHEAD:
            raise self._fault(position, before, f"the total length {total} is under 16")
        if total > MAX_MESSAGE_LENGTH:
            raise self._fault(
                position, before, f"the total length {total} is past {MAX_MESSAGE_LENGTH}"
            )
        if headers_length > MAX_HEADERS_LENGTH:
            raise self._fault(
                position,
                before,
                f"the headers length {headers_length} is past {MAX_HEADERS_LENGTH}",
            )
        if headers_length > total - _OVERHEAD:
            raise self._fault(
                position,
                before,
                f"the headers length {headers_length} is past the message's {total} bytes",
            )

    def _headers(
        self,
        buffer: bytes,
        position: int,
        end: int,
        message_start: int,
        before: list[EventStreamMessage],
    ) -> tuple[EventStreamHeader, ...]:
        headers: list[EventStreamHeader] = []
        try:
            while position < end:
                name_end = position + 1 + buffer[position]
                if name_end >= end or name_end == position + 1:
                    raise ValueError("a header runs past the headers section")
                name = buffer[position + 1 : name_end].decode()
                kind = buffer[name_end]
                position = name_end + 1
                if kind == STRING:
                    length = (buffer[position] << 8) | buffer[position + 1]
                    value: HeaderValue = buffer[position + 2 : position + 2 + length].decode()
                    position += 2 + length
                elif kind in _FIXED:
                    layout = _FIXED[kind]
                    value = layout.unpack_from(buffer, position)[0]
                    position += layout.size
                elif kind == BYTES:
                    length = _LENGTH.unpack_from(buffer, position)[0]
                    value = buffer[position + 2 : position + 2 + length]
                    position += 2 + length
                elif kind in (TRUE, FALSE):
                    value = kind == TRUE
                elif kind == UUID:
                    value = uuid.UUID(bytes=buffer[position : position + 16])
                    position += 16
                else:
                    raise ValueError(f"header {name!r} has the unknown type {kind}")
                if position > end:
                    raise ValueError(f"header {name!r} runs past the headers section")
                for earlier in headers:
                    if earlier.name == name:
                        raise ValueError(f"header {name!r} is given twice")
                headers.append(EventStreamHeader(name, kind, value))
        except UnicodeDecodeError:
            problem = "a header holds text that is not UTF-8"
            raise self._fault(message_start, before, problem) from None
        except (ValueError, struct.error, IndexError) as error:
            problem = str(error)
            if not problem.startswith("header"):
                problem = "a header runs past the headers section"
            raise self._fault(message_start, before, problem) from None
        return tuple(headers)

    def _fault(self, position: int, before: list[EventStreamMessage], problem: str) -> VendorError:
        index = self._message_count + len(before)
        offset = self._consumed + position
        return VendorError(
            VendorErrorCode.VENDOR_INVALID_EVENT,
            f"event {index}: the event-stream message at byte {offset}: {problem}",
            vendor=self._vendor,
            event_index=index,
        )
