"""ChatMapping: a Chat Completions stream its grammar judged, as course chunks and one response.

The port half of the ``openai-chat`` wire. `ChatGrammar` has judged every
frame before it gets here; this module decides what the course protocol can
carry of it. It carries choice 0's text (a chunk per text delta, as it
comes) with the URL citations of a search model on it (each annotation a
``CourseOpaque`` of the wire), its function Tool calls (complete, at the
finish, after the text the finish chunk carried), its refusal (the text of
the message, stopped with ``REFUSAL``), every finish reason but the
deprecated ``function_call`` (``length`` is ``LENGTH``, ``content_filter``
is ``REFUSAL``; a Tool call either cut is never emitted) and the usage
counts (cached input as ``cache_read_tokens``, reasoning as
``reasoning_tokens``, ``None`` where not sent). It refuses, at the event
where each first appears, what the protocol cannot carry
(``VENDOR_UNSUPPORTED_CONTENT``): a second choice, audio output, the
deprecated ``function_call``, a custom tool's call, a role other than
``assistant``. Log probabilities and moderation results are not content:
they are left out. The adapter's own rule lives here too: the request it
sends asks for usage (``stream_options.include_usage``), so a stream that
ends without the usage chunk fails, though the grammar accepts one. A compatible
server's `ChatDialect` adds its reasoning (`_chat_dialect_mapping`):
reasoning chunks as they come, and a reasoning block before the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import (
    CourseAssistantContent,
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    CourseOpaque,
    CourseProtocolError,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    terminal_semantics_error,
)
from course_protocol.untrusted import shown
from course_provider_openai._chat_dialect import OPENAI_CHAT, ChatDialect
from course_provider_openai._chat_dialect_mapping import (
    output_tokens,
    reasoning_block,
)
from course_provider_openai._chat_grammar import ChatGrammar
from course_provider_openai._chat_result import ChatChoice, ChatResult
from course_provider_openai._chat_wire import INCLUDE_USAGE_KEY, STREAM_OPTIONS_KEY, WIRE
from course_provider_openai._failures import OpenAIFailures
from course_vendor import WireEvent, WireMapping

__all__ = ["ChatMapping"]

_Code = VendorErrorCode
_Push = Callable[[CourseModelChunk], None]
_MESSAGE_ID_PREFIX: Final = "message-"
_STOP_REASONS: Final = {
    "stop": CourseStopReason.STOP,
    "tool_calls": CourseStopReason.TOOL_CALL,
    "length": CourseStopReason.LENGTH,
    "content_filter": CourseStopReason.REFUSAL,
}


@final
class ChatMapping(WireMapping[ChatResult]):
    """One streamed Chat Completions response for the request ``request_id``, as course values.

    A ``course_vendor.WireMapping`` over a fresh `ChatGrammar`:
    ``OpenAIChatModel`` plays it as a ``course_stream.SourcePlay``
    (`item`, `end`, `source_failed`); by hand, `feed` each server-sent
    event in order, then `end`. Both raise `course_http.VendorError` (``vendor``
    the dialect's wire, ``"openai-chat"`` for OpenAI's own) at the event's
    index: what `ChatGrammar` raises for a frame off the grammar, and

    - ``VENDOR_ERROR_EVENT`` at the vendor's in-stream error, its type, code
      and message in ``vendor_type``, ``vendor_code``, ``vendor_message``;
    - ``VENDOR_UNSUPPORTED_CONTENT`` where a second choice, audio, a
      ``function_call``, a custom tool's call or a role other than
      ``assistant`` first appears;
    - at choice 0's finish: ``VENDOR_INCOMPLETE`` for the deprecated
      ``function_call`` finish, which the course cannot express (the reason
      in ``vendor_type``), ``VENDOR_INVALID_TERMINAL`` when the reason
      contradicts the content (a refusal beside Tool calls);
    - from `end`, ``VENDOR_MISSING_TERMINAL`` for a stream without the
      usage chunk the request asked for, ``VENDOR_INVALID_EVENT`` (at the
      usage chunk) for counts the course cannot hold (more cached input
      than input, more reasoning than output).

    Chunks pushed before a failure stay valid; after one, the mapping is
    spent. Raises ``CourseProtocolError`` when ``request_id`` is not a
    non-blank ``str``.
    """

    __slots__ = ("_chat", "_dialect", "_failures", "_message", "_stop", "_usage_index")

    def __init__(self, request_id: str, dialect: ChatDialect = OPENAI_CHAT) -> None:
        chat = ChatGrammar(dialect)
        super().__init__(chat, request_id)
        self._chat = chat
        self._dialect = None if dialect is OPENAI_CHAT else dialect
        self._failures = OpenAIFailures(dialect.wire)
        self._message: CourseAssistantMessage | None = None
        self._stop = CourseStopReason.STOP
        self._usage_index = 0

    def _map(self, event: WireEvent, index: int, push: _Push) -> None:
        if self._chat.error is not None:
            self._vendor_error(index)
        if event.get("usage") is not None:
            self._usage_index = index
        for choice in event["choices"]:
            if choice["index"]:
                self._unsupported(
                    f"choices[].index {choice['index']} is a second choice (n > 1): "
                    "the course protocol has one answer per call",
                    index,
                )
            if self._message is not None:
                continue  # a dialect's repeated finish, which the grammar let pass empty
            delta = choice.get("delta")
            if delta is None:  # an Azure content-filter annotation: no text, maybe the finish
                if choice.get("finish_reason") is not None:
                    self._finish(None, index, push)
                continue
            content, reasoning, plain = self._chat.said(0)
            if not plain:
                self._check_delta(delta, index)
            if reasoning:
                push(CourseReasoningDeltaChunk(self._request_id, reasoning))
            if choice.get("finish_reason") is not None:
                self._finish(content, index, push)
            elif content:
                push(CourseTextDeltaChunk(self._request_id, content))

    def _respond(self, result: ChatResult, event_count: int) -> CourseModelResponse:
        usage = result.usage
        if usage is None:
            self._failures.fail(
                _Code.VENDOR_MISSING_TERMINAL,
                event_count,
                f"the stream ended without usage, which the request asked for "
                f"({STREAM_OPTIONS_KEY}.{INCLUDE_USAGE_KEY})",
            )
        message = self._message
        # The grammar ended every choice; choice 0 can only end by its finish here,
        # since audio (the other way to end) was refused where it started.
        assert message is not None
        assert result.id is not None
        try:
            counts = CourseModelUsage(
                usage.prompt_tokens,
                output_tokens(usage, self._dialect),
                cache_read_tokens=usage.cached_tokens,
                reasoning_tokens=usage.reasoning_tokens,
            )
        except CourseProtocolError as error:
            self._failures.fail_invalid(f"usage: {error}", self._usage_index)
        return CourseModelResponse(result.id, self._request_id, message, self._stop, counts)

    def _unsupported(self, what: str, index: int) -> NoReturn:
        self._failures.fail(
            _Code.VENDOR_UNSUPPORTED_CONTENT,
            index,
            f"{what}; the course protocol cannot carry it ({self._failures.vendor})",
        )

    def _vendor_error(self, index: int) -> NoReturn:
        error = self._chat.error
        assert error is not None  # called only once the grammar read it
        self._failures.error_event((error.type, error.code, error.message), index)

    def _check_delta(self, delta: dict[str, Any], index: int) -> None:
        role = delta.get("role")
        if role is not None and role != "assistant":
            self._unsupported(f"delta.role {shown(role)!r} is not the assistant's answer", index)
        if delta.get("audio") is not None:
            self._unsupported("delta.audio is audio output", index)
        if delta.get("function_call") is not None:
            self._unsupported("delta.function_call is the deprecated function call", index)
        for fragment in delta.get("tool_calls") or ():
            if fragment.get("type") == "custom":
                self._unsupported("delta.tool_calls[].type 'custom' is a custom tool's call", index)

    def _finish(self, content: str | None, index: int, push: _Push) -> None:
        choice = self._chat.choice(0)
        assert choice is not None  # the grammar closed choice 0 at this finish
        reason = choice.finish_reason
        meant = (
            reason
            if self._dialect is None or reason is None
            else self._dialect.finish_meaning(reason)
        )
        stop = _STOP_REASONS.get(meant or "")
        if stop is None:
            self._failures.fail(
                _Code.VENDOR_INCOMPLETE,
                index,
                f"choices[0].finish_reason is {shown(str(reason))!r}, "
                "which the course protocol cannot express",
                vendor_type=reason,
            )
        if choice.refusal:
            stop = CourseStopReason.REFUSAL
        calls = self._calls(choice)
        blocks: list[CourseAssistantContent] = []
        if (choice.reasoning or choice.reasoning_details) and self._dialect is not None:
            blocks.append(reasoning_block(choice, self._dialect))
        if choice.content or choice.annotations:
            blocks.append(
                CourseTextBlock(
                    choice.content,
                    citations=tuple(CourseOpaque(WIRE, cited) for cited in choice.annotations),
                )
            )
        if choice.refusal:
            blocks.append(CourseTextBlock(choice.refusal))
        blocks.extend(calls)
        message = CourseAssistantMessage(
            f"{_MESSAGE_ID_PREFIX}{self._chat.response_id}", tuple(blocks)
        )
        problem = terminal_semantics_error(stop, message)
        if problem is not None:
            self._failures.fail(
                _Code.VENDOR_INVALID_TERMINAL,
                index,
                f"choices[0].finish_reason {reason!r}: {problem}",
            )
        self._message = message
        self._stop = stop
        if content:
            push(CourseTextDeltaChunk(self._request_id, content))
        if choice.refusal:
            # The refusal is the message's last text: one delta, after every content delta.
            push(CourseTextDeltaChunk(self._request_id, choice.refusal))
        for call in calls:
            push(CourseToolCallChunk(self._request_id, call))

    @staticmethod
    def _calls(choice: ChatChoice) -> list[CourseToolCall]:
        # The grammar parses a call's arguments only when the finish says they are
        # whole; under length or content_filter none is known whole, so none is a call.
        return [
            CourseToolCall(call.id, call.name, call.parsed_arguments)
            for call in choice.tool_calls
            if call.parsed_arguments is not None
        ]
