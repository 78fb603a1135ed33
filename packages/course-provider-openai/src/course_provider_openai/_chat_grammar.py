"""ChatGrammar: the whole streamed Chat Completions language (``chat.completion.chunk``), strictly.

Every frame is untrusted and judged before anything is kept, in the order
OpenAI sends them and its official SDK reads them: unnamed chunks
(`ChunkEnvelope` holds their shared fields, `StreamedChoice` each choice);
once every choice has ended, the usage chunk, which OpenAI sends only when
the request asked for it; then ``data: [DONE]``. The usage chunk and
``[DONE]`` are optional (the SDK stops at ``[DONE]`` and reads a body that
ends without it to its end). The vendor's error (an ``event: error``
frame, or a chunk with an ``error`` member: the SDK raises at either) ends
the stream; only ``[DONE]`` may follow it. What the course port can carry
is `ChatMapping`'s concern, not this module's.

A compatible server's `ChatDialect` changes exactly what it declares: where
usage may arrive (beside the finishing choices, on every chunk, in Groq's
``x_groq``, whose ``error`` ends the stream as the vendor's error), whether
each chunk stamps its own ``created``, and, through `StreamedChoice`, its
reasoning fields, content parts, finish reasons and repeated finish. Its
errors name its wire.

Over 300 lines on purpose: every order rule of the stream (the chunks,
usage in each place a dialect allows, Azure's annotations, the end) reads
and moves the same few fields of one fold; apart, each would reach into
the others' state.
"""

from __future__ import annotations

from typing import Any, Final, NoReturn, cast, final

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import JsonObject
from course_protocol.untrusted import shown
from course_provider_openai._chat_choice import StreamedChoice
from course_provider_openai._chat_dialect import OPENAI_CHAT, ChatDialect, UsagePlace
from course_provider_openai._chat_dialect_reads import prompt_filters
from course_provider_openai._chat_envelope import ChunkEnvelope
from course_provider_openai._chat_reads import chat_usage, check_chat_usage, moderation
from course_provider_openai._chat_result import ChatChoice, ChatResult, ChatStreamError, ChatUsage
from course_provider_openai._chat_wire import DONE_DATA
from course_provider_openai._errors import error_fields
from course_provider_openai._failures import OpenAIFailures
from course_vendor import ToolCallIds, WireEvent, WireGrammar, event_object

__all__ = ["ChatGrammar"]

_Code = VendorErrorCode
_UNNAMED: Final = "message"
"""The name SSE gives a frame that has no ``event:`` line: every chunk's."""
_USAGE: Final = "usage"
_ERROR: Final = "error"
_FOLLOWS: Final = {
    DONE_DATA: f"follows {DONE_DATA}; nothing may",
    _USAGE: f"follows the usage chunk; only {DONE_DATA} may",
    _ERROR: f"follows the vendor's error; only {DONE_DATA} may",
}


@final
class ChatGrammar(WireGrammar[ChatResult]):
    """One streamed Chat Completions body, judged one frame at a time: a `WireGrammar`.

    ``dialect`` is the server's `ChatDialect` (OpenAI's own by default); its
    declared differences are on the grammar, and its wire names every error
    (each built in that name where it is raised).

    `feed` returns each chunk it judged (the mapping's `WireEvent`), the
    decoded object of an ``event: error`` frame, and ``None`` for
    ``[DONE]``; `end` returns the `ChatResult`. `finished` is true once
    every choice started has ended (or the vendor's error came): the body
    may end there. What each frame raises, as `course_http.VendorError`
    (``vendor`` the dialect's wire, ``openai-chat`` for OpenAI's own) at its index:

    - ``VENDOR_INVALID_EVENT``: data that is not a JSON object, a field of
      the wrong type or value (a blank or changing ``id``, another
      ``object``, a finish reason or role OpenAI does not document, a
      repeated Tool-call id, an empty ``choices`` that is not the usage chunk);
    - ``VENDOR_UNKNOWN_EVENT``: an event name other than ``error``, a Tool
      call ``type`` other than ``function`` and ``custom``, a moderation
      or annotation ``type`` OpenAI does not send;
    - ``VENDOR_EVENT_ORDER``: a choice or Tool call that starts before the
      one numbered before it, a fragment of one that never started, anything
      for a choice after it ended, usage before every choice ended or beside
      choices, a second usage, anything after ``[DONE]``, anything but
      ``[DONE]`` after the usage chunk or the vendor's error;
    - ``VENDOR_INVALID_TOOL_ARGUMENTS``: at a choice's finish, a function
      call whose arguments are not a JSON object (unless the finish says
      they were cut: ``length``, ``content_filter``);
    - ``VENDOR_MISSING_TERMINAL``: ``[DONE]``, or the end of the body, before
      every choice ended (or before any choice).
    """

    __slots__ = (
        "_after",
        "_choices",
        "_dialect",
        "_envelope",
        "_error",
        "_failures",
        "_ids",
        "_moderations",
        "_open",
        "_prompt_filters",
        "_usage",
        "_usage_so_far",
        "_usage_stream",
        "_wire",
        "_x_groq",
    )

    def __init__(self, dialect: ChatDialect = OPENAI_CHAT) -> None:
        super().__init__()
        self._dialect = dialect
        self._wire = dialect.wire
        # Asked on every chunk, of a frozenset of enum members whose hash is a Python
        # call: asked once (benchmarks/README.md, "Dialects and Azure").
        self._x_groq = UsagePlace.X_GROQ in dialect.usage
        self._usage_stream = UsagePlace.EVERY_CHUNK in dialect.usage
        self._failures = OpenAIFailures(dialect.wire)
        self._envelope = ChunkEnvelope(self._failures, created_varies=dialect.created_varies)
        self._choices: list[StreamedChoice] = []
        self._open = 0
        self._ids = ToolCallIds(dialect.wire)
        self._usage: ChatUsage | None = None
        # A server's usage so far, sent on every chunk: checked there, built at the end.
        self._usage_so_far: tuple[dict[str, Any], int] | None = None
        self._moderations: list[JsonObject] = []
        self._prompt_filters: list[JsonObject] = []
        self._error: ChatStreamError | None = None
        self._after: str | None = None
        """What ended the chunks: ``[DONE]``, the usage chunk, or the vendor's error."""

    @property
    def response_id(self) -> str | None:
        """The chunks' ``id``, once the first chunk was read."""
        return self._envelope.id

    @property
    def error(self) -> ChatStreamError | None:
        """The vendor's in-stream error, once it came (it ends the stream)."""
        return self._error

    def choice(self, index: int) -> ChatChoice | None:
        """Choice ``index`` as it finished, once its ``finish_reason`` was read; else ``None``."""
        if 0 <= index < len(self._choices):
            return self._choices[index].closed
        return None

    def said(self, index: int) -> tuple[str | None, str, bool]:
        """What the last entry read for choice ``index`` said (`StreamedChoice.said`).

        Its answer text (``None`` when none), its reasoning (``""`` when
        none), and whether its delta held nothing else; ``(None, "", False)``
        after a finish sent again or an Azure annotation. Raises
        ``IndexError`` for a choice that has not started (a negative
        ``index`` included).
        """
        if index < 0:
            raise IndexError(f"choice {index} does not exist")
        return self._choices[index].said

    @property
    def dialect(self) -> ChatDialect:
        """The server's dialect this grammar reads."""
        return self._dialect

    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        if self._after is not None:
            return self._after_chunks(frame, index)
        if frame.event != _UNNAMED:
            return self._named(frame, index)
        data = frame.data
        if data == DONE_DATA:
            self._done(index)
            return None
        chunk = event_object(data, vendor=self._wire, index=index)
        error = chunk.get("error")
        if error is not None:
            # The official SDK raises here, before it reads anything else of the chunk.
            self._reported(error)
            return chunk
        if self._dialect.content_filters:
            if chunk.get("id") == "":
                self._annotation(chunk, index)
                return chunk
            prompts = chunk.get("prompt_filter_results")
            if prompts is not None:
                self._prompt_filters.extend(
                    prompt_filters(self._failures, prompts, index, "prompt_filter_results")
                )
        self._envelope.check(chunk, index)
        obfuscation = chunk.get("obfuscation")
        if obfuscation is not None and type(obfuscation) is not str:
            self._failures.invalid(index, "obfuscation", "a string or null", obfuscation)
        moderated = chunk.get("moderation")
        if moderated is not None:
            self._moderations.append(moderation(self._failures, moderated, index))
        choices = chunk.get("choices")
        if type(choices) is not list:
            self._failures.invalid(index, "choices", "an array", choices)
        usage = chunk.get("usage")
        if usage is not None:
            self._read_usage(usage, choices, index)
        elif choices:
            self._take(choices, index)
        elif moderated is None:
            self._failures.fail_invalid(
                "choices is empty in a chunk that carries neither usage nor moderation", index
            )
        if self._x_groq:
            groq = chunk.get("x_groq")
            if groq is not None:
                self._read_x_groq(groq, index)
        return chunk

    def _result(self, frame_count: int) -> ChatResult:
        if not self._terminal:
            self._failures.fail(
                _Code.VENDOR_MISSING_TERMINAL,
                frame_count,
                f"the stream ended before {self._unfinished()}",
            )
        envelope = self._envelope
        if self._usage is None and self._usage_so_far is not None:
            self._usage = chat_usage(self._failures, *self._usage_so_far)
        return ChatResult(
            envelope.id,
            envelope.model,
            envelope.created,
            envelope.fingerprint,
            envelope.tier,
            tuple(
                choice.closed if choice.closed is not None else choice.close(None, frame_count)
                for choice in self._choices
            ),
            self._usage,
            tuple(self._moderations),
            self._error,
            self._after == DONE_DATA,
            tuple(self._prompt_filters),
        )

    def _take(self, choices: list[Any], index: int) -> None:
        started = self._choices
        for position, choice in enumerate(choices):
            if type(choice) is not dict:
                self._failures.invalid(index, f"choices[{position}]", "an object", choice)
            key = choice.get("index")
            if type(key) is not int or key < 0:
                self._failures.invalid(
                    index, f"choices[{position}].index", "a non-negative integer", key
                )
            if key >= len(started):
                self._start(key, position, index)
            elif position and any(entry.get("index") == key for entry in choices[:position]):
                self._failures.fail_invalid(
                    f"choices[{position}].index {key} names a choice this chunk already has", index
                )
            if started[key].take(choice, index, position):
                self._open -= 1
                if not self._open:
                    self._terminal = True

    def _start(self, key: int, position: int, index: int) -> None:
        if key != len(self._choices):
            self._failures.fail(
                _Code.VENDOR_EVENT_ORDER,
                index,
                f"choices[{position}].index is {key}: choice {len(self._choices)} has not started",
            )
        self._choices.append(StreamedChoice(key, self._ids, self._dialect, self._failures))
        self._open += 1
        self._terminal = False

    def _read_usage(self, usage: object, choices: list[Any], index: int) -> None:
        if choices:
            self._usage_beside(usage, choices, index)
            return
        if UsagePlace.LAST_CHUNK not in self._dialect.usage:
            self._failures.fail_order(
                f"usage comes in a chunk of its own; {self._dialect.wire} sends it beside choices",
                index,
            )
        if not self._terminal:
            self._failures.fail_order(f"usage comes before {self._unfinished()}", index)
        self._usage = chat_usage(self._failures, usage, index)
        self._after = _USAGE

    def _usage_beside(self, usage: object, choices: list[Any], index: int) -> None:
        places = self._dialect.usage
        if self._usage_stream:
            self._take(choices, index)
            check_chat_usage(self._failures, usage, index)
            self._usage = None
            self._usage_so_far = (cast("dict[str, Any]", usage), index)
            return
        if UsagePlace.FINISH_CHUNK in places:
            self._take(choices, index)
            if not self._terminal:
                self._failures.fail_order(
                    f"usage comes beside choices before {self._unfinished()}", index
                )
            self._usage = chat_usage(self._failures, usage, index)
            self._after = _USAGE
            return
        self._failures.fail_order(
            "usage comes in a chunk with choices; OpenAI sends it last, "
            "in a chunk of its own (choices: [])",
            index,
        )

    def _read_x_groq(self, groq: object, index: int) -> None:
        if type(groq) is not dict:
            self._failures.invalid(index, "x_groq", "an object or null", groq)
        stopped = groq.get("error")
        if stopped is not None:
            # Groq's SDK: why the stream stopped early; it ends the stream as the vendor's error.
            if type(stopped) is not str:
                self._failures.invalid(index, "x_groq.error", "a string or null", stopped)
            self._reported(stopped)
            return
        usage = groq.get("usage")
        if usage is None:
            return
        if self._after is not None or not self._terminal:
            self._failures.fail_order(
                "x_groq.usage comes before every choice finished, or after the usage", index
            )
        self._usage = chat_usage(self._failures, usage, index)
        self._after = _USAGE

    def _done(self, index: int) -> None:
        if not self._terminal:
            self._failures.fail(
                _Code.VENDOR_MISSING_TERMINAL,
                index,
                f"{DONE_DATA} arrived before {self._unfinished()}",
            )
        self._after = DONE_DATA

    def _unfinished(self) -> str:
        for choice in self._choices:
            if not choice.ended:
                return f"choice {choice.index} finished"
        return "any choice"

    def _after_chunks(self, frame: SseEvent, index: int) -> WireEvent | None:
        ended_by = self._after
        assert ended_by is not None  # only called once the chunks ended
        if frame.event == _UNNAMED:
            if frame.data == DONE_DATA:
                if ended_by != DONE_DATA:
                    self._after = DONE_DATA
                    return None
            else:
                # A frame that is not even a chunk says so first, wherever it is.
                chunk = event_object(frame.data, vendor=self._wire, index=index)
                if self._dialect.content_filters and ended_by == _USAGE and chunk.get("id") == "":
                    self._annotation(chunk, index)
                    return chunk
        return self._failures.fail_order(_FOLLOWS[ended_by], index)

    def _annotation(self, chunk: dict[str, Any], index: int) -> None:
        """Read an Azure content-filter annotation chunk (its ``id`` is ``""``)."""
        for field in ("object", "model"):
            value = chunk.get(field)
            if value is not None and value != "":
                self._failures.invalid(index, field, "'' in a content-filter annotation", value)
        for field in ("prompt_filter_results", "prompt_annotations"):
            prompts = chunk.get(field)
            if prompts is not None:
                self._prompt_filters.extend(prompt_filters(self._failures, prompts, index, field))
        choices = chunk.get("choices")
        if type(choices) is not list:
            self._failures.invalid(index, "choices", "an array", choices)
        started = self._choices
        for position, choice in enumerate(choices):
            if type(choice) is not dict:
                self._failures.invalid(index, f"choices[{position}]", "an object", choice)
            key = choice.get("index")
            if type(key) is not int or key < 0:
                self._failures.invalid(
                    index, f"choices[{position}].index", "a non-negative integer", key
                )
            if key >= len(started):
                self._failures.fail_order(
                    f"choices[{position}] annotates choice {key}, which has not started", index
                )
            if started[key].annotate(choice, index, position):
                self._open -= 1
                if not self._open:
                    self._terminal = True

    def _named(self, frame: SseEvent, index: int) -> WireEvent:
        if frame.event != _ERROR:
            self._unknown_name(frame, index)
        try:
            data: dict[str, Any] = event_object(frame.data, vendor=self._wire, index=index)
        except VendorError:
            # The vendor said "error"; that its data is broken too changes nothing.
            data = {}
        self._reported(data.get("error", data))
        return data

    def _unknown_name(self, frame: SseEvent, index: int) -> NoReturn:
        self._failures.fail(
            _Code.VENDOR_UNKNOWN_EVENT,
            index,
            f"event name {shown(frame.event)!r} is not one Chat Completions sends",
        )

    def _reported(self, error: object) -> None:
        self._error = ChatStreamError(*error_fields(error))
        self._after = _ERROR
        self._terminal = True
