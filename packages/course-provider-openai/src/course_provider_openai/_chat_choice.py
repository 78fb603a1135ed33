"""One choice of a streamed Chat Completions response, read delta by delta: the grammar's part.

A chunk carries zero or more ``choices[]`` entries, each with the choice's
``index``, a ``delta``, its ``logprobs`` and ``finish_reason``. A choice
gathers its text, refusal, Tool calls, deprecated function call and audio
until it ends: at its ``finish_reason``, or, for an audio answer, at the
``delta.audio.expires_at`` that OpenAI may send instead of one (the official
Node SDK finishes such a stream; after it only the finish may still come).
Once it has its finish, `StreamedChoice.closed` holds everything it said as a
`ChatChoice`. A compatible server's `ChatDialect` adds what it declares
(reasoning fields, content-part arrays, finish reasons, a repeated finish);
`_chat_dialect_reads` reads those.

Over 300 lines on purpose: whatever a delta carries, and how the choice
ends (its finish, an expired audio answer, a repeated finish, an Azure
annotation), reads and sets the one choice's state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final, NoReturn, final

from course_http import VendorErrorCode
from course_protocol import JsonObject, is_blank
from course_protocol.untrusted import ABSENT, shown
from course_provider_openai._chat_audio import AudioPieces
from course_provider_openai._chat_content_parts import read_content_parts
from course_provider_openai._chat_dialect import ChatDialect
from course_provider_openai._chat_dialect_reads import DialectPieces, repeats_finish
from course_provider_openai._chat_reads import choice_path, token_logprobs, url_citations
from course_provider_openai._chat_result import (
    ChatChoice,
    ChatFunctionCall,
    ChatTokenLogprob,
)
from course_provider_openai._chat_tool_calls import ChatToolCalls, parsed_arguments
from course_provider_openai._failures import OpenAIFailures
from course_vendor import TextPieces, ToolCallIds

__all__ = ["StreamedChoice"]

_Code = VendorErrorCode
_FINISH_REASONS: Final = frozenset(
    {"stop", "length", "tool_calls", "content_filter", "function_call"}
)
_WHOLE_FINISHES: Final = frozenset({"stop", "tool_calls", "function_call"})
"""The finishes after which every Tool call's arguments are whole (not cut by a limit)."""
_ROLES: Final = frozenset({"developer", "system", "user", "assistant", "tool"})
_NOTHING_SAID: Final[tuple[str | None, str, bool]] = (None, "", False)


@final
class _FunctionCall:
    __slots__ = ("arguments", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.arguments = TextPieces()


@final
class StreamedChoice:
    """Choice ``index`` of a response so far; ``ids`` is the response's `ToolCallIds`.

    ``dialect`` is the server's (`OPENAI_CHAT` for OpenAI's own); ``failures``
    raises in its wire's name.

    `take` reads one ``choices[]`` entry for it; `ended` says that it ended,
    `closed` what it said once its ``finish_reason`` came (`close` makes it
    for a choice that ended otherwise, or was cut off).
    """

    __slots__ = (
        "_annotations",
        "_audio",
        "_calls",
        "_content_logprobs",
        "_dialect",
        "_dialected",
        "_expired",
        "_failures",
        "_function",
        "_reads_reasoning",
        "_refusal",
        "_refusal_logprobs",
        "_role",
        "_text",
        "closed",
        "index",
        "said",
    )

    def __init__(
        self, index: int, ids: ToolCallIds, dialect: ChatDialect, failures: OpenAIFailures
    ) -> None:
        self.index = index
        self._dialect = dialect
        self._failures = failures
        self._dialected = DialectPieces(failures)
        self._reads_reasoning = bool(dialect.reasoning_fields or dialect.reasoning_details)
        self._role: str | None = None
        self._text = TextPieces()
        self._refusal = TextPieces()
        self._calls = ChatToolCalls(ids, failures)
        self._function: _FunctionCall | None = None
        self._audio: AudioPieces | None = None
        self._content_logprobs: list[ChatTokenLogprob] | None = None
        self._refusal_logprobs: list[ChatTokenLogprob] | None = None
        self._annotations: list[JsonObject] = []
        self._expired = False
        self.closed: ChatChoice | None = None
        """Everything the choice said, from its ``finish_reason`` on (``None`` before)."""
        self.said: tuple[str | None, str, bool] = _NOTHING_SAID
        """What the last entry read said (nothing for a finish sent again, which says
        nothing new, or an Azure annotation, which has no delta): its answer text (``None`` when its
        ``delta.content`` was null or absent; a content-part array's text parts joined), its
        reasoning (``""`` when none), and whether its delta held nothing but those (its
        content and the dialect's reasoning fields), which the mapping then need not read."""

    @property
    def ended(self) -> bool:
        """Whether the choice ended: its ``finish_reason`` came, or its audio expired."""
        return self._expired or self.closed is not None

    def take(self, choice: dict[str, Any], index: int, position: int) -> bool:
        """Read the entry ``choice`` (at ``position`` in the ``choices`` of event ``index``).

        Returns whether this entry ended the choice.

        Raises `VendorError`: ``VENDOR_INVALID_EVENT`` for a field of the wrong
        type or value (a role or finish reason OpenAI does not document, an
        audio id that changes); ``VENDOR_EVENT_ORDER`` for anything after the
        choice ended but the finish of an expired audio answer, or a function
        call's name after its start; what `ChatToolCalls.add` raises; and at
        the finish ``VENDOR_INVALID_TOOL_ARGUMENTS`` for a function call's
        arguments that are not a JSON object (when the finish says they are whole).
        """
        ended_before = self.closed is not None or self._expired
        if ended_before:
            if self._dialect.repeated_finish and repeats_finish(choice, self.closed):
                self.said = _NOTHING_SAID  # a finish sent again says nothing new
                return False
            self._after_end(choice, index, position)
        delta = choice.get("delta")
        if type(delta) is not dict:
            self._failures.invalid(index, choice_path(position, "delta"), "an object", delta)
        content = delta.get("content", ABSENT)
        reasoning = ""
        read = 1
        if type(content) is str:
            self._text.append(content)
        elif content is ABSENT:
            content = None
            read = 0
        elif type(content) is list and self._dialect.content_parts:
            content, reasoning = read_content_parts(self._failures, content, index, position)
            self._text.append(content)
            self._dialected.reasoning.append(reasoning)
        elif content is not None:
            self._failures.invalid(
                index, choice_path(position, "delta", "content"), "a string or null", content
            )
        if self._reads_reasoning:
            fields, field_reasoning = self._dialected.read_reasoning(
                delta, self._dialect, index, position
            )
            read += fields
            reasoning += field_reasoning
        plain = len(delta) <= read
        if not plain:
            # A delta of its content and the dialect's reasoning fields holds nothing else.
            self._rest_of(delta, index, position)
        self.said = (content, reasoning, plain)
        if self._dialect.content_filters:
            self._dialected.read_filters(choice, index, position)
        logprobs = choice.get("logprobs")
        if logprobs is not None:
            self._logprobs(logprobs, index, position)
        finish = choice.get("finish_reason")
        if finish is not None:
            self._finish(finish, index, position)
        return not ended_before and (self._expired or self.closed is not None)

    def annotate(self, choice: dict[str, Any], index: int, position: int) -> bool:
        """Read an Azure content-filter annotation of this choice; return whether it ended it.

        An annotation has no ``delta``; its ``finish_reason`` is ``null``
        (it may then follow the choice's finish) or ``content_filter``, which
        ends a choice still open. Raises ``VENDOR_INVALID_EVENT`` for a
        ``delta`` or another finish reason, ``VENDOR_EVENT_ORDER`` for a
        ``content_filter`` finish of a choice that already ended, and what
        `DialectPieces.read_filters` raises.
        """
        if "delta" in choice:
            self._failures.fail_invalid(
                f"{choice_path(position, 'delta')} comes in a content-filter annotation "
                "(an id of ''), which carries no text",
                index,
            )
        self.said = _NOTHING_SAID
        self._dialected.read_filters(choice, index, position)
        finish = choice.get("finish_reason")
        if finish is None:
            if self.closed is not None:
                # Annotations go on after the finish: what the choice said gets them too.
                self.closed = replace(
                    self.closed, content_filter_results=tuple(self._dialected.filters)
                )
            return False
        if finish != "content_filter":
            self._failures.invalid(
                index, choice_path(position, "finish_reason"), "'content_filter' or null", finish
            )
        if self.ended:
            self._ended(index, position)
        self.closed = self.close(finish, index)
        return True

    def close(self, finish: str | None, index: int) -> ChatChoice:
        """Everything the choice said, as it ended at event ``index`` with ``finish``.

        Tool and function call arguments are parsed when ``finish`` says they
        are whole (``stop``, ``tool_calls``, ``function_call``); raises
        ``VENDOR_INVALID_TOOL_ARGUMENTS`` then for text that is not a JSON object.
        """
        whole = finish in _WHOLE_FINISHES
        function = None
        if self._function is not None:
            text = self._function.arguments.joined()
            parsed = (
                parsed_arguments(self._failures, text, index, "function_call.arguments")
                if whole
                else None
            )
            function = ChatFunctionCall(self._function.name, text, parsed)
        audio = None if self._audio is None else self._audio.audio()
        return ChatChoice(
            self.index,
            self._role,
            self._text.joined(),
            self._refusal.joined(),
            self._calls.complete(index, parse=whole),
            function,
            audio,
            None if self._content_logprobs is None else tuple(self._content_logprobs),
            None if self._refusal_logprobs is None else tuple(self._refusal_logprobs),
            finish,
            annotations=tuple(self._annotations),
            reasoning=self._dialected.reasoning.joined(),
            reasoning_details=self._dialected.details.kept(),
            content_filter_results=tuple(self._dialected.filters),
        )

    def _rest_of(self, delta: dict[str, Any], index: int, position: int) -> None:
        role = delta.get("role")
        if role is not None:
            self._read_role(role, index, position)
        refusal = delta.get("refusal")
        if refusal is not None:
            if type(refusal) is not str:
                self._failures.invalid(
                    index, choice_path(position, "delta", "refusal"), "a string or null", refusal
                )
            self._refusal.append(refusal)
        fragments = delta.get("tool_calls")
        if fragments is not None:
            self._calls.add(fragments, index, position)
        function = delta.get("function_call")
        if function is not None:
            self._function_call(function, index, position)
        audio = delta.get("audio")
        if audio is not None:
            self._read_audio(audio, index, position)
        cited = delta.get("annotations")
        if cited is not None:
            self._annotations.extend(
                url_citations(
                    self._failures, cited, index, choice_path(position, "delta", "annotations")
                )
            )

    def _read_role(self, role: object, index: int, position: int) -> None:
        if role == self._role:
            return
        path = choice_path(position, "delta", "role")
        if type(role) is not str:
            self._failures.invalid(index, path, "a string or null", role)
        if role not in _ROLES:
            self._failures.fail(
                _Code.VENDOR_INVALID_EVENT, index, f"{path} {shown(role)!r} is not a role"
            )
        if self._role is not None:
            self._failures.fail(
                _Code.VENDOR_INVALID_EVENT,
                index,
                f"{path} {shown(role)!r} differs from the choice's role {self._role!r}",
            )
        self._role = role

    def _function_call(self, function: object, index: int, position: int) -> None:
        path = choice_path(position, "delta", "function_call")
        if type(function) is not dict:
            self._failures.invalid(index, path, "an object or null", function)
        name = function.get("name")
        if self._function is None:
            if type(name) is not str or is_blank(name):
                self._failures.invalid(index, f"{path}.name", "a non-blank string", name)
            self._function = _FunctionCall(name)
        elif name is not None:
            self._failures.fail(
                _Code.VENDOR_EVENT_ORDER, index, f"{path}.name comes again after its start"
            )
        arguments = function.get("arguments")
        if arguments is not None:
            if type(arguments) is not str:
                self._failures.invalid(index, f"{path}.arguments", "a string or null", arguments)
            self._function.arguments.append(arguments)

    def _read_audio(self, audio: object, index: int, position: int) -> None:
        pieces = self._audio
        if pieces is None:
            pieces = self._audio = AudioPieces(self._failures)
        pieces.take(audio, index, position)
        if pieces.expires_at is not None:
            self._expired = True

    def _logprobs(self, logprobs: object, index: int, position: int) -> None:
        path = choice_path(position, "logprobs")
        if type(logprobs) is not dict:
            self._failures.invalid(index, path, "an object or null", logprobs)
        content = token_logprobs(self._failures, logprobs.get("content"), index, f"{path}.content")
        if content is not None:
            if self._content_logprobs is None:
                self._content_logprobs = content
            else:
                self._content_logprobs.extend(content)
        refusal = token_logprobs(self._failures, logprobs.get("refusal"), index, f"{path}.refusal")
        if refusal is not None:
            if self._refusal_logprobs is None:
                self._refusal_logprobs = refusal
            else:
                self._refusal_logprobs.extend(refusal)

    def _finish(self, finish: object, index: int, position: int) -> None:
        path = choice_path(position, "finish_reason")
        if type(finish) is not str:
            self._failures.invalid(index, path, "a string or null", finish)
        if finish not in _FINISH_REASONS and finish not in self._dialect.finish_reasons:
            self._failures.fail(
                _Code.VENDOR_INVALID_EVENT,
                index,
                f"{path} {shown(finish)!r} is not a finish reason {self._documenter()} documents",
            )
        self.closed = self.close(finish, index)

    def _documenter(self) -> str:
        return "OpenAI" if not self._dialect.finish_reasons else f"{self._dialect.wire} or OpenAI"

    def _after_end(self, choice: dict[str, Any], index: int, position: int) -> None:
        # An audio answer may still get its finish after its expires_at, with nothing else.
        delta = choice.get("delta")
        finishes_audio = (
            self.closed is None
            and choice.get("finish_reason") is not None
            and type(delta) is dict
            and all(value is None for key, value in delta.items() if key != "role")
        )
        if not finishes_audio:
            self._ended(index, position)

    def _ended(self, index: int, position: int) -> NoReturn:
        ending = "finish_reason" if self.closed is not None else "audio's expires_at"
        self._failures.fail(
            _Code.VENDOR_EVENT_ORDER,
            index,
            f"{choice_path(position)} follows the {ending} of choice {self.index}; nothing may",
        )
