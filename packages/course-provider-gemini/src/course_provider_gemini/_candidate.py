"""One candidate of a streamed response, as its chunks arrive: `CandidateState`.

Each chunk carries the candidate's new parts (text, thoughts, function calls,
media, code, server tools) and, on its last chunk, its ``finishReason``. The
state keeps the parts in order, consecutive text parts of one kind joined
into one run, a function call whose arguments Vertex streams until the part
that closes it, and every metadata value the chunks sent.

Over 300 lines on purpose: it is one state machine (the open run, the
streaming call, the finish each constrain what the next part may be), and
its halves would share that state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, final

from course_provider_gemini import _wire
from course_provider_gemini._parts import (
    check_call_fields,
    given_call_id,
    opaque_part,
    part_kind,
    part_metadata,
    whole_call,
)
from course_provider_gemini._reads import (
    count_at,
    fail_invalid,
    fail_order,
    frozen_array,
    frozen_object,
    invalid,
    optional_bool,
    optional_text,
    text_at,
)
from course_provider_gemini._result import (
    GeminiCandidate,
    GeminiContent,
    GeminiFunctionCall,
    GeminiText,
)
from course_provider_gemini._streamed_call import StreamedCall
from course_vendor import TextPieces, ToolCallIds

__all__ = ["CandidateState"]

_NO_RUN, _ANSWER_RUN, _THOUGHT_RUN = range(3)
_OBJECT_FIELDS = ("citationMetadata", "groundingMetadata", "urlContextMetadata", "logprobsResult")


@final
class CandidateState:
    """The candidate numbered ``position`` of one streamed response, read chunk by chunk.

    `read` reads one chunk's value of the candidate; `parts` and `calls` are
    read-only views of what it holds so far (an open text run is not in
    `parts` until a part of another kind, a signature or the finish closes
    it); `finish` is its ``finishReason`` once a chunk gave one; `result`
    is the whole candidate once the stream ended.
    """

    __slots__ = (
        "_call_ids",
        "_calls",
        "_metadata",
        "_parts",
        "_run",
        "_run_kind",
        "_run_signature",
        "_streaming",
        "avg_logprobs",
        "continuation_token",
        "finish",
        "finish_message",
        "position",
        "token_count",
    )

    def __init__(self, position: int) -> None:
        self.position = position
        self._parts: list[GeminiContent] = []
        self._calls: list[GeminiFunctionCall] = []
        self._call_ids: ToolCallIds | None = None
        self._run = TextPieces()
        self._run_kind = _NO_RUN
        self._run_signature: str | None = None
        self._streaming: StreamedCall | None = None
        self._metadata: dict[str, list[Any]] | None = None
        self.finish: str | None = None
        self.finish_message: str | None = None
        self.token_count: int | None = None
        self.avg_logprobs: float | None = None
        self.continuation_token: str | None = None

    @property
    def _path(self) -> str:
        return f"candidates[{self.position}]"

    @property
    def _parts_path(self) -> str:
        return f"candidates[{self.position}].content.parts"

    @property
    def parts(self) -> Sequence[GeminiContent]:
        """The closed parts so far, in order (a live view: read it, never change it)."""
        return self._parts

    @property
    def calls(self) -> Sequence[GeminiFunctionCall]:
        """The whole function calls so far, in order (a live view: read it, never change it)."""
        return self._calls

    def read(self, candidate: dict[str, Any], index: int) -> bool:
        """Read the candidate's value ``candidate`` in event ``index``: its parts, then its fields.

        Returns whether this value finished the candidate (its ``finishReason``).

        Raises `VendorError` as the parts and fields it holds are off the
        grammar: ``VENDOR_INVALID_EVENT`` (a field of the wrong type, a role
        other than ``model``), ``VENDOR_UNKNOWN_EVENT`` (an unknown part
        kind or call field), ``VENDOR_EVENT_ORDER`` (a part while a call is
        still streaming, a continuation of no call, a finish other than
        ``MAX_TOKENS`` (which drops the call the limit cut) while a call
        streams), ``VENDOR_INVALID_TOOL_ARGUMENTS`` (a call's arguments).
        """
        content = candidate.get("content")
        if content is not None:
            if type(content) is not dict:
                invalid(index, f"{self._path}.content", "an object", content)
            role = content.get("role")
            if role is not None and role != _wire.MODEL:
                fail_invalid(f"{self._path}.content.role must be 'model'", index)
            parts = content.get("parts")
            if parts is not None:
                if type(parts) is not list:
                    invalid(index, self._parts_path, "an array", parts)
                run = self._run
                for number, part in enumerate(parts):
                    # The common chunk: one part of answer text, or of thought
                    # text, continuing its run. Anything else takes the part's
                    # whole read.
                    if type(part) is dict and (
                        (self._run_kind == _ANSWER_RUN and len(part) == 1)
                        or (
                            self._run_kind == _THOUGHT_RUN
                            and len(part) == 2
                            and part.get("thought") is True
                        )
                    ):
                        text = part.get("text")
                        if type(text) is str:
                            run.append(text)
                            continue
                    self._part(part, number, index)
                    run = self._run
        if len(candidate) - ("content" in candidate) - ("index" in candidate):
            self._fields(candidate, index)
            return self.finish is not None
        return False

    def _part(self, part: object, number: int, index: int) -> None:
        if type(part) is dict and len(part) == 1 and self._streaming is None:
            text = part.get("text")
            if type(text) is str:
                # Answer text that starts a run: no metadata to read.
                self._text(text, False, None)
                return
        path = f"{self._parts_path}[{number}]"
        if type(part) is not dict:
            invalid(index, path, "an object", part)
        kind = part_kind(part, path, index)
        thought, signature = part_metadata(part, path, index)
        if self._streaming is not None and kind != "functionCall":
            fail_order(
                f"{path} comes while the function call started at {self._streaming.path} "
                "is still streaming its arguments",
                index,
            )
        if kind is None or kind == "text":
            text = "" if kind is None else text_at(part, "text", index, parent=path)
            self._text(text, thought, signature)
            return
        self._close_run()
        if kind == "functionCall":
            self._function_call(part[kind], f"{path}.functionCall", index, signature)
        else:
            self._parts.append(opaque_part(kind, part, path, index, thought, signature))

    def _text(self, text: str, thought: bool, signature: str | None) -> None:
        kind = _THOUGHT_RUN if thought else _ANSWER_RUN
        if self._run_kind != kind:
            self._close_run()
            self._run_kind = kind
        self._run.append(text)
        if signature is not None:
            # The signature belongs to what came before it: the run ends here.
            self._run_signature = signature
            self._close_run()

    def _close_run(self) -> None:
        if self._run_kind == _NO_RUN:
            return
        text = self._run.joined()
        if text or self._run_signature is not None:
            self._parts.append(
                GeminiText(text, self._run_kind == _THOUGHT_RUN, self._run_signature)
            )
            self._run = TextPieces()
        self._run_kind = _NO_RUN
        self._run_signature = None

    def _function_call(self, call: object, path: str, index: int, signature: str | None) -> None:
        if type(call) is not dict:
            invalid(index, path, "an object", call)
        check_call_fields(call, path, index)
        continues = optional_bool(call, "willContinue", index, f"{path}.willContinue")
        partial = call.get("partialArgs")
        streaming = self._streaming
        if streaming is not None:
            self._continue_call(streaming, call, path, index, signature, continues=continues)
            return
        if "name" not in call:
            fail_order(f"{path} continues a function call that no part started", index)
        if partial is None and not continues:
            self._add_call(whole_call(call, path, index, signature), path, index)
            return
        if "args" in call:
            fail_invalid(f"{path} streams its arguments and gives args as well", index)
        name = text_at(call, "name", index, parent=path, non_blank=True)
        streamed = StreamedCall(name, given_call_id(call, path, index), signature, path)
        if partial is not None:
            streamed.fragments(partial, f"{path}.partialArgs", index)
        if continues:
            self._streaming = streamed
        else:
            self._add_call(streamed.call(index), path, index)

    def _continue_call(
        self,
        streaming: StreamedCall,
        call: dict[str, Any],
        path: str,
        index: int,
        signature: str | None,
        *,
        continues: bool,
    ) -> None:
        if "name" in call:
            fail_order(
                f"{path} starts a function call while the one started at {streaming.path} "
                "is still streaming its arguments",
                index,
            )
        if "args" in call:
            fail_order(
                f"{path} gives args to the function call started at {streaming.path}, "
                "whose arguments stream as partialArgs",
                index,
            )
        identifier = given_call_id(call, path, index)
        if identifier is not None and identifier != streaming.identifier:
            fail_invalid(f"{path}.id is not the id of the call it continues", index)
        if signature is not None:
            if streaming.signature is not None and signature != streaming.signature:
                fail_invalid(f"{path} gives its call a second thoughtSignature", index)
            streaming.signature = signature
        partial = call.get("partialArgs")
        if partial is not None:
            streaming.fragments(partial, f"{path}.partialArgs", index)
        if not continues:
            self._streaming = None
            self._add_call(streaming.call(index), streaming.path, index)

    def _add_call(self, call: GeminiFunctionCall, path: str, index: int) -> None:
        if call.id is not None:
            if self._call_ids is None:
                self._call_ids = ToolCallIds(_wire.WIRE)
            self._call_ids.claim(call.id, index, f"{path}.id")
        self._parts.append(call)
        self._calls.append(call)

    def _fields(self, candidate: dict[str, Any], index: int) -> None:
        # Only the fields the chunk holds: most chunks hold a finishReason at most.
        reason = None
        for key, value in candidate.items():
            if value is None or key == "content" or key == "index":
                continue
            path = f"{self._path}.{key}"
            if key == "finishReason":
                reason = optional_text(candidate, key, index, path, non_blank=True)
            elif key == "finishMessage":
                self.finish_message = optional_text(candidate, key, index, path)
            elif key == "continuationToken":
                self.continuation_token = optional_text(candidate, key, index, path)
            elif key == "tokenCount":
                self.token_count = count_at(candidate, key, index, path)
            elif key == "avgLogprobs":
                if type(value) is not float and type(value) is not int:
                    invalid(index, path, "a number", value)
                self.avg_logprobs = float(value)
            elif key == "safetyRatings":
                self._keep(key, frozen_array(value, index, path))
            elif key in _OBJECT_FIELDS:
                self._keep(key, frozen_object(value, index, path))
        if reason is not None:
            if self._streaming is not None:
                if reason != _wire.MAX_TOKENS:
                    fail_order(
                        f"{self._path} finishes while the function call started at "
                        f"{self._streaming.path} is still streaming its arguments",
                        index,
                    )
                # The output limit cut the call: it never closed, so it is no call.
                self._streaming = None
            self._close_run()
            self.finish = reason

    def _keep(self, key: str, value: object) -> None:
        if self._metadata is None:
            self._metadata = {}
        self._metadata.setdefault(key, []).append(value)

    def _kept(self, key: str) -> tuple[Any, ...]:
        return () if self._metadata is None else tuple(self._metadata.get(key, ()))

    def result(self) -> GeminiCandidate:
        """The whole candidate as the stream left it (a text run still open closes here)."""
        self._close_run()
        return GeminiCandidate(
            self.position,
            tuple(self._parts),
            self.finish,
            self.finish_message,
            self.token_count,
            self.avg_logprobs,
            self.continuation_token,
            self._kept("safetyRatings"),
            self._kept("citationMetadata"),
            self._kept("groundingMetadata"),
            self._kept("urlContextMetadata"),
            self._kept("logprobsResult"),
        )
