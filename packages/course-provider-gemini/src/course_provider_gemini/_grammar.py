"""The Gemini API's streamed ``GenerateContentResponse`` language, read strictly: `GeminiGrammar`.

Every chunk (an SSE frame, or an element of the streamed JSON array) is a
whole ``GenerateContentResponse``: the candidates' new parts, the cumulative
``usageMetadata``, ``responseId``, ``modelVersion``, ``createTime``,
``promptFeedback``, ``modelStatus``. There is no terminator: the stream ends
with the chunk that gives the last unfinished candidate its
``finishReason``, with a ``promptFeedback.blockReason`` (a blocked prompt:
no candidates at all), or with the vendor's error object; any chunk after
it is out of order. Everything the API documents is read, whether or not
the course protocol can carry it: that is the mapping's concern.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, final

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import JsonObject
from course_protocol.untrusted import shown
from course_provider_gemini import _wire
from course_provider_gemini._candidate import CandidateState
from course_provider_gemini._errors import read_stream_error
from course_provider_gemini._reads import (
    fail_invalid,
    fail_order,
    frozen_object,
    invalid,
    optional_text,
)
from course_provider_gemini._result import (
    GeminiFunctionCall,
    GeminiPromptFeedback,
    GeminiResult,
    GeminiStreamError,
    GeminiUsage,
)
from course_provider_gemini._usage import check_usage, prompt_feedback, usage_of
from course_vendor import WireEvent, WireGrammar, event_object

__all__ = ["GeminiGrammar"]

_INDEX_LIMIT: Final = 2**31 - 1
_NO_CALLS: Final[tuple[GeminiFunctionCall, ...]] = ()


@final
class GeminiGrammar(WireGrammar[GeminiResult]):
    """One streamed Gemini body, judged one chunk at a time: a ``course_vendor.WireGrammar``.

    `feed` returns each chunk's decoded object once every field it holds is
    on the grammar; `end` gives the `GeminiResult`. What a chunk raises
    (`course_http.VendorError`, ``vendor`` ``"gemini"``, ``event_index`` the
    chunk):

    - ``VENDOR_INVALID_EVENT``: data that is not a JSON object, a named
      event, a field of the wrong type, a ``responseId``, ``modelVersion``
      or ``createTime`` that changes, a candidate ``index`` that is not an
      integer from 0 or twice in one chunk, a role other than ``model``, a
      part with two kinds of data, a blocked prompt with candidates, an
      error object without its ``message``, a Tool call id given twice;
    - ``VENDOR_UNKNOWN_EVENT``: a part of a kind the API does not document,
      an unknown field of a function call or a partial argument;
    - ``VENDOR_EVENT_ORDER``: any chunk after the end, a chunk for a
      candidate that finished, a prompt blocked after candidates came, a
      part (or a finish) while a call's arguments are still streaming, a
      continuation of a call that no part started;
    - ``VENDOR_INVALID_TOOL_ARGUMENTS``: a call's ``args`` that are not a
      JSON object the course accepts, a partial argument's path that cannot
      be set;
    - `end`: ``VENDOR_MISSING_TERMINAL`` (``event_index`` = the chunk count)
      for a body that ended before its end.

    The vendor's error object (framed or bare) is on the grammar: it ends
    the stream, and `error` (and the result) say it. `response_id`,
    `usage`, `error` and `calls` are read-only views for the mapping.
    """

    __slots__ = (
        "_candidates",
        "_create_time",
        "_error",
        "_feedback",
        "_first",
        "_model_status",
        "_model_version",
        "_response_id",
        "_unfinished",
        "_usage",
        "_usage_read",
    )

    def __init__(self) -> None:
        super().__init__()
        self._candidates: dict[int, CandidateState] = {}
        self._first: CandidateState | None = None
        self._unfinished = 0
        self._response_id: str | None = None
        self._model_version: str | None = None
        self._create_time: str | None = None
        self._usage: dict[str, Any] | None = None
        self._usage_read: GeminiUsage | None = None
        self._feedback: GeminiPromptFeedback | None = None
        self._model_status: JsonObject | None = None
        self._error: GeminiStreamError | None = None

    @property
    def response_id(self) -> str | None:
        """The ``responseId`` read so far, or ``None`` while no chunk gave one."""
        return self._response_id

    @property
    def usage(self) -> GeminiUsage | None:
        """The last ``usageMetadata`` read so far, or ``None`` while no chunk gave one."""
        if self._usage_read is None and self._usage is not None:
            self._usage_read = usage_of(self._usage)
        return self._usage_read

    @property
    def error(self) -> GeminiStreamError | None:
        """The error object that ended the stream, once one did."""
        return self._error

    def calls(self, position: int = 0) -> Sequence[GeminiFunctionCall]:
        """The whole function calls of candidate ``position`` so far, in order (a live view)."""
        state = self._candidates.get(position)
        return _NO_CALLS if state is None else state.calls

    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        data = event_object(frame.data, vendor=_wire.WIRE, index=index)
        if frame.event != "message":
            fail_invalid(f"a Gemini chunk is never a named event ({shown(frame.event)!r})", index)
        if self._terminal:
            fail_order("a chunk follows the end of the response; nothing may", index)
        # The hot path: every chunk of a long answer comes here, with these
        # four fields and no other. Each name is checked when it is new or
        # changes; the one candidate of the common chunk goes straight to
        # its state; a field that comes rarely is looked for only when the
        # chunk holds more than these.
        candidates = data.get("candidates")
        usage = data.get("usageMetadata")
        response_id = data.get("responseId")
        model_version = data.get("modelVersion")
        if len(data) > (
            (candidates is not None)
            + (usage is not None)
            + (response_id is not None)
            + (model_version is not None)
        ):
            if "error" in data:
                self._error = read_stream_error(data, index)
                self._terminal = True
                return data
            self._read_rare(data, index)
        if response_id is not None and response_id != self._response_id:
            self._response_id = _name("responseId", response_id, self._response_id, index)
        if model_version is not None and model_version != self._model_version:
            self._model_version = _name("modelVersion", model_version, self._model_version, index)
        if usage is not None:
            check_usage(usage, index)
            self._usage = usage
            self._usage_read = None
        if candidates is not None:
            first = self._first
            candidate = candidates[0] if type(candidates) is list and len(candidates) == 1 else None
            if (
                first is not None
                and first.finish is None
                and type(candidate) is dict
                and (position := candidate.get("index", 0)) == 0
                and type(position) is int
            ):
                # Candidate 0 again, alone, as nearly every chunk holds it.
                if first.read(candidate, index):
                    self._unfinished -= 1
                    self._terminal = not self._unfinished
            elif candidates or type(candidates) is not list:
                self._read_candidates(candidates, index)
        return data

    def _read_rare(self, data: dict[str, Any], index: int) -> None:
        create_time = data.get("createTime")
        if create_time is not None and create_time != self._create_time:
            self._create_time = _name("createTime", create_time, self._create_time, index)
        if data.get("modelStatus") is not None:
            self._model_status = frozen_object(data["modelStatus"], index, "modelStatus")
        if data.get("promptFeedback") is not None:
            self._feedback = prompt_feedback(data["promptFeedback"], index)
            if self._feedback.block_reason is not None:
                self._blocked(bool(data.get("candidates")), index)

    def _read_candidates(self, candidates: object, index: int) -> None:
        if type(candidates) is not list:
            invalid(index, "candidates", "an array", candidates)
        seen: set[int] | None = set() if len(candidates) > 1 else None
        for number, candidate in enumerate(candidates):
            if type(candidate) is not dict:
                invalid(index, f"candidates[{number}]", "an object", candidate)
            position = candidate.get("index")
            if position is None:
                # The protobuf JSON mapping leaves a zero index out.
                position = 0
            elif type(position) is not int or not 0 <= position <= _INDEX_LIMIT:
                invalid(
                    index, f"candidates[{number}].index", "an integer from 0 to 2**31 - 1", position
                )
            if seen is not None:
                if position in seen:
                    fail_invalid(f"candidates[{number}].index {position} comes twice", index)
                seen.add(position)
            state = self._candidates.get(position)
            if state is None:
                state = self._candidates[position] = CandidateState(position)
                self._unfinished += 1
                if position == 0:
                    self._first = state
            elif state.finish is not None:
                fail_order(f"candidate {position} follows the chunk that finished it", index)
            if state.read(candidate, index):
                self._unfinished -= 1
        if not self._unfinished:
            self._terminal = True

    def _blocked(self, with_candidates: bool, index: int) -> None:
        if with_candidates:
            fail_invalid("a blocked prompt (promptFeedback.blockReason) has no candidates", index)
        if self._candidates:
            fail_order("the prompt is blocked after candidates came", index)
        self._terminal = True

    def _result(self, frame_count: int) -> GeminiResult:
        if not self._terminal:
            raise VendorError(
                VendorErrorCode.VENDOR_MISSING_TERMINAL,
                f"the stream ended after {frame_count} chunk(s) without a finishReason",
                vendor=_wire.WIRE,
                event_index=frame_count,
            )
        return GeminiResult(
            self._response_id,
            self._model_version,
            self._create_time,
            tuple(self._candidates[key].result() for key in sorted(self._candidates)),
            self._feedback,
            self.usage,
            self._model_status,
            self._error,
        )


def _name(key: str, value: object, before: str | None, index: int) -> str:
    """``value``, the chunk's ``key``, when it is the first non-blank one (``before`` is ``None``).

    Raises ``VENDOR_INVALID_EVENT`` for a value that is not a non-blank
    string, or that is not ``before``: a response keeps its names.
    """
    text = optional_text({key: value}, key, index, key, non_blank=True)
    if before is not None:
        fail_invalid(f"{key} changed within one response", index)
    assert text is not None
    return text
