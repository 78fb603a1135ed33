"""Transport records to course values: one small state machine per played response.

Every record arrives as an unknown value (already frozen into plain JSON)
and is inspected field by field before any course chunk or response is made.
The per-record path raises ``FixtureProviderError`` (only on failure, so
the happy path builds no result wrapper); :func:`parse_wire_usage`,
:func:`parse_wire_stop_reason` and :func:`parse_records` wrap it in ``Result``
at the boundary.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NoReturn

from returns.result import Failure, Result, Success

from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseProtocolError,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    JsonError,
    is_blank,
    terminal_semantics_error,
)
from course_protocol.untrusted import ABSENT, described
from course_provider_fixture import _wire
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode
from course_provider_fixture._fixture import is_flat_record, snapshot_record
from course_provider_fixture._reads import (
    KNOWN_TYPES,
    is_object,
    non_blank_text,
    raise_error,
    shown,
    stop_reason_from,
    usage_from,
)

__all__ = ["ResponseParser", "freeze_record", "parse_records"]

_Code = FixtureProviderErrorCode


class ResponseParser:
    """The state of one response being played: start id, content, Tool-call ids, terminal.

    Feed it each record in order with :meth:`feed`, then call :meth:`end`
    once the source is exhausted. Both raise ``FixtureProviderError`` with
    the stable code and the ``record_index`` of the offending record.
    """

    __slots__ = ("_content", "_path", "_request_id", "_response_id", "_terminal", "_tool_ids")

    def __init__(self, request_id: str, response_index: int) -> None:
        self._request_id = request_id
        self._path = f"{_wire.RESPONSES_KEY}[{response_index}].{_wire.RECORDS_KEY}"
        self._response_id: str | None = None
        self._content: list[CourseAssistantContent] = []
        self._tool_ids: set[str] = set()
        self._terminal: CourseModelResponse | None = None

    @property
    def records_path(self) -> str:
        """Where this response's records live, e.g. ``responses[0].records``."""
        return self._path

    def record_path(self, index: int) -> str:
        """Where record ``index`` of this response lives, e.g. ``responses[0].records[3]``."""
        return f"{self._path}[{index}]"

    def feed(self, record: object, index: int) -> CourseModelChunk | None:
        """Advance the state by one frozen record; return the chunk it emits, if any."""
        # The dominant record, a well-formed text delta inside an open response,
        # takes the short path; everything else, failures included, the full one.
        if (
            type(record) is dict
            and self._terminal is None
            and self._response_id is not None
            and record.get(_wire.TYPE_KEY) == _wire.TEXT_DELTA
        ):
            text = record.get(_wire.TEXT_KEY)
            if type(text) is str:
                self._content.append(CourseTextBlock(text))
                return CourseTextDeltaChunk(self._request_id, text)
        return self._feed(record, index)

    def _feed(self, record: object, index: int) -> CourseModelChunk | None:
        # The reference course's order of checks: each record is judged by the
        # first rule that applies, so codes and record indexes match it exactly.
        path = self.record_path(index)
        if not is_object(record):
            raise_error(
                _Code.PROVIDER_INVALID_EVENT,
                path,
                f"must be an object, got {described(record)}",
                index,
            )
        kind = record.get(_wire.TYPE_KEY, ABSENT)
        if type(kind) is not str or is_blank(kind):
            raise_error(
                _Code.PROVIDER_INVALID_EVENT,
                f"{path}.{_wire.TYPE_KEY}",
                f"must be a non-blank string, got {shown(kind)}",
                index,
            )
        if self._terminal is not None:
            if kind == _wire.RESPONSE_END:
                raise_error(
                    _Code.PROVIDER_DUPLICATE_TERMINAL, path, "is a second response end", index
                )
            raise_error(
                _Code.PROVIDER_INVALID_TERMINAL,
                path,
                "follows the response end; nothing may",
                index,
            )
        if kind == _wire.RESPONSE_START:
            self._start(record, path, index)
            return None
        if kind == _wire.TRANSPORT_ERROR:
            self._transport_error(record, path, index)
        if kind != _wire.TEXT_DELTA and kind != _wire.TOOL_CALL and kind != _wire.RESPONSE_END:
            raise_error(
                _Code.PROVIDER_UNKNOWN_EVENT,
                f"{path}.{_wire.TYPE_KEY}",
                f"{kind!r} names no known record type; the known types are {KNOWN_TYPES}",
                index,
            )
        if self._response_id is None:
            raise_error(
                _Code.PROVIDER_MISSING_START, path, "comes before the response start", index
            )
        if kind == _wire.TEXT_DELTA:
            return self._text_delta(record, path, index)
        if kind == _wire.TOOL_CALL:
            return self._tool_call(record, path, index)
        self._end(record, self._response_id, path, index)
        return None

    def end(self, record_count: int) -> CourseModelResponse:
        """The terminal response, once the source ended after ``record_count`` records.

        Raises ``PROVIDER_MISSING_TERMINAL`` (``record_index`` = ``record_count``)
        when no response end was read.
        """
        if self._terminal is None:
            raise_error(
                _Code.PROVIDER_MISSING_TERMINAL,
                self._path,
                f"ended after {record_count} record(s) without a response end",
                record_count,
            )
        return self._terminal

    def _start(self, record: Mapping[str, object], path: str, index: int) -> None:
        if self._response_id is not None:
            raise_error(_Code.PROVIDER_DUPLICATE_START, path, "is a second response start", index)
        response_id = non_blank_text(record, _wire.RESPONSE_ID_KEY, path, index)
        role = record.get(_wire.ROLE_KEY, ABSENT)
        if role != _wire.ASSISTANT_ROLE or type(role) is not str:
            raise_error(
                _Code.PROVIDER_INVALID_EVENT,
                f"{path}.{_wire.ROLE_KEY}",
                f"must be {_wire.ASSISTANT_ROLE!r}, got "
                + (repr(role) if type(role) is str else described(role)),
                index,
            )
        self._response_id = response_id

    def _text_delta(
        self, record: Mapping[str, object], path: str, index: int
    ) -> CourseTextDeltaChunk:
        text = record.get(_wire.TEXT_KEY, ABSENT)
        if type(text) is not str:
            raise_error(
                _Code.PROVIDER_INVALID_EVENT,
                f"{path}.{_wire.TEXT_KEY}",
                f"must be a string, got {described(text)}",
                index,
            )
        self._content.append(CourseTextBlock(text))
        return CourseTextDeltaChunk(self._request_id, text)

    def _tool_call(
        self, record: Mapping[str, object], path: str, index: int
    ) -> CourseToolCallChunk:
        call_id = non_blank_text(record, _wire.TOOL_CALL_ID_KEY, path, index)
        name = non_blank_text(record, _wire.TOOL_NAME_KEY, path, index)
        arguments = record.get(_wire.ARGUMENTS_KEY, ABSENT)
        if not is_object(arguments):
            raise_error(
                _Code.PROVIDER_INVALID_EVENT,
                f"{path}.{_wire.ARGUMENTS_KEY}",
                f"must be an object, got {described(arguments)}",
                index,
            )
        if call_id in self._tool_ids:
            raise_error(
                _Code.PROVIDER_INVALID_EVENT,
                f"{path}.{_wire.TOOL_CALL_ID_KEY}",
                f"repeats the Tool-call id {call_id!r}",
                index,
            )
        try:
            tool_call = CourseToolCall(call_id, name, arguments)
        except CourseProtocolError as error:
            raise_error(_Code.PROVIDER_INVALID_EVENT, f"{path}.{error.path}", error.message, index)
        self._tool_ids.add(call_id)
        self._content.append(tool_call)
        return CourseToolCallChunk(self._request_id, tool_call)

    def _end(self, record: Mapping[str, object], started: str, path: str, index: int) -> None:
        response_id = non_blank_text(record, _wire.RESPONSE_ID_KEY, path, index)
        if response_id != started:
            raise_error(
                _Code.PROVIDER_RESPONSE_MISMATCH,
                f"{path}.{_wire.RESPONSE_ID_KEY}",
                f"is {response_id!r} but the response started as {started!r}",
                index,
            )
        stop_reason = stop_reason_from(
            record.get(_wire.STOP_REASON_KEY, ABSENT), f"{path}.{_wire.STOP_REASON_KEY}", index
        )
        usage = usage_from(record.get(_wire.USAGE_KEY, ABSENT), f"{path}.{_wire.USAGE_KEY}", index)
        message = CourseAssistantMessage(
            _wire.ASSISTANT_MESSAGE_ID_PREFIX + started, tuple(self._content)
        )
        problem = terminal_semantics_error(stop_reason, message)
        if problem is not None:
            raise_error(_Code.PROVIDER_INVALID_TERMINAL, path, problem, index)
        self._terminal = CourseModelResponse(started, self._request_id, message, stop_reason, usage)

    def _transport_error(self, record: Mapping[str, object], path: str, index: int) -> NoReturn:
        code = non_blank_text(record, _wire.ERROR_CODE_KEY, path, index)
        message = non_blank_text(record, _wire.ERROR_MESSAGE_KEY, path, index)
        raise FixtureProviderError(
            _Code.PROVIDER_TRANSPORT_ERROR,
            f"{path} reports a transport failure {code}: {message}",
            record_index=index,
            provider_code=code,
            path=path,
        )


def parse_records(
    records: Iterable[object], request_id: str, response_index: int = 0
) -> Result[tuple[tuple[CourseModelChunk, ...], CourseModelResponse], FixtureProviderError]:
    """Play a finite sequence of untrusted records synchronously.

    Returns ``Success((chunks, response))`` for a well-formed response, or
    ``Failure`` with the first record's error (the same codes and
    ``record_index`` a played stream reports). Records are frozen first;
    a record that is not JSON is ``PROVIDER_INVALID_EVENT``. Never raises,
    unless iterating ``records`` itself raises.
    """
    parser = ResponseParser(request_id, response_index)
    chunks: list[CourseModelChunk] = []
    count = 0
    try:
        for index, record in enumerate(records):
            chunk = parser.feed(freeze_record(record, parser, index), index)
            if chunk is not None:
                chunks.append(chunk)
            count = index + 1
        return Success((tuple(chunks), parser.end(count)))
    except FixtureProviderError as error:
        return Failure(error)


def freeze_record(record: object, parser: ResponseParser, index: int) -> object:
    """Make one record read from a source safe to feed, at its place in the played response.

    A flat record (see :func:`is_flat_record`) is returned as it is, checked
    but not copied: it is fed at once, in the same synchronous step, and the
    parser keeps only its immutable ``str``/``int``/``bool`` values, never
    the record, so a copy would protect nothing. Anything else is deeply
    snapshotted. Raises ``FixtureProviderError`` with
    ``PROVIDER_INVALID_EVENT`` and ``record_index`` = ``index`` when the
    record is not plain JSON.
    """
    if is_flat_record(record):
        return record
    frozen = snapshot_record(record, parser.records_path, index)
    if type(frozen) is JsonError:
        raise_error(_Code.PROVIDER_INVALID_EVENT, frozen.path, frozen.message, index)
    return frozen
