"""The kit's two halves of a wire and its judge, on a small wire of the test's own.

`WireGrammar` is a synchronous fold, spent after its first error;
`WireMapping` feeds every frame to its grammar before mapping it, so nothing
off the grammar is ever mapped; `StreamJudge` and `judge_body` judge bytes
with a wire's framing and grammar alone, whatever the chunking or content
coding, and never raise for what the body holds.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from returns.result import Failure, Success

from course_http import RecordedResponse, SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelChunk,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
)
from course_vendor import (
    StreamJudge,
    VendorPlugin,
    VendorWire,
    WireEvent,
    WireGrammar,
    WireMapping,
    event_object,
    judge_body,
    recorded_stream_problem,
)

WIRE = "toy-lines"


@dataclass(frozen=True)
class ToyResult:
    """What a toy stream said: its text, and whether a ``note`` (a kind the port lacks) came."""

    text: str
    noted: bool


def _fail(code: VendorErrorCode, index: int, message: str) -> VendorError:
    return VendorError(code, f"event {index}: {message}", vendor=WIRE, event_index=index)


class ToyGrammar(WireGrammar[ToyResult]):
    """``start``, ``text`` or ``note`` events, then ``stop``; a ``keepalive`` frame any time."""

    __slots__ = ("_noted", "_parts", "_started")

    def __init__(self) -> None:
        super().__init__()
        self._started = False
        self._parts: list[str] = []
        self._noted = False

    def _read(self, frame: SseEvent, index: int) -> WireEvent | None:
        if frame.data == "keepalive":
            return None
        data = event_object(frame.data, vendor=WIRE, index=index)
        kind = data.get("type")
        if self._terminal:
            raise _fail(VendorErrorCode.VENDOR_EVENT_ORDER, index, f"{kind} follows stop")
        if kind == "start":
            if self._started:
                raise _fail(VendorErrorCode.VENDOR_EVENT_ORDER, index, "a second start")
            self._started = True
        elif kind not in ("text", "note", "stop"):
            raise _fail(VendorErrorCode.VENDOR_UNKNOWN_EVENT, index, f"{kind!r} is unknown")
        elif not self._started:
            raise _fail(VendorErrorCode.VENDOR_EVENT_ORDER, index, f"{kind} before start")
        elif kind == "text":
            if type(data.get("text")) is not str:
                raise _fail(VendorErrorCode.VENDOR_INVALID_EVENT, index, "text must be a string")
            self._parts.append(data["text"])
        elif kind == "note":
            self._noted = True
        else:
            self._terminal = True
        return data

    def _result(self, frame_count: int) -> ToyResult:
        if not self._terminal:
            raise _fail(VendorErrorCode.VENDOR_MISSING_TERMINAL, frame_count, "no stop")
        return ToyResult("".join(self._parts), self._noted)


class ToyMapping(WireMapping[ToyResult]):
    """Text as course chunks; a ``note`` is what this port cannot carry."""

    __slots__ = ("mapped",)

    def __init__(self, request_id: str) -> None:
        super().__init__(ToyGrammar(), request_id)
        self.mapped: list[object] = []

    def _map(self, event: WireEvent, index: int, push: Callable[[CourseModelChunk], None]) -> None:
        self.mapped.append(event.get("type"))
        if event["type"] == "text":
            push(CourseTextDeltaChunk(self._request_id, event["text"]))
        elif event["type"] == "note":
            raise _fail(VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT, index, "a note")

    def _respond(self, result: ToyResult, event_count: int) -> CourseModelResponse:
        message = CourseAssistantMessage("m-1", (CourseTextBlock(result.text),))
        usage = CourseModelUsage(1, event_count)
        return CourseModelResponse("r-1", self._request_id, message, CourseStopReason.STOP, usage)


def _no_error_body(body: bytes) -> None:
    return None


TOY_PLUGIN = VendorPlugin(
    wire=VendorWire(
        vendor=WIRE, key_variable="TOY_KEY", path="/v1/toy", describe_error=_no_error_body
    ),
    sdk="toy",
    base_url="https://toy.invalid",
    base_url_variable="TOY_BASE_URL",
    named_events=False,
    replay_model=lambda transport: pytest.fail("the judge never builds a model"),
    grammar=ToyGrammar,
)


def frame(data: str) -> bytes:
    return f"data: {data}\n\n".encode()


START, STOP = '{"type":"start"}', '{"type":"stop"}'
GOOD = b"".join(
    frame(d)
    for d in (
        START,
        '{"type":"text","text":"Hel"}',
        "keepalive",
        '{"type":"text","text":"lo"}',
        STOP,
    )
)


def frames(*data: str) -> list[SseEvent]:
    return [SseEvent("message", d) for d in data]


def test_a_grammar_folds_frames_into_validated_events_and_a_result() -> None:
    grammar = ToyGrammar()
    events = [
        grammar.feed(f, i)
        for i, f in enumerate(frames(START, '{"type":"text","text":"a"}', "keepalive", STOP))
    ]
    assert [None if e is None else e["type"] for e in events] == ["start", "text", None, "stop"]
    assert grammar.finished
    assert grammar.end(4) == ToyResult("a", False)
    assert grammar.failure is None


def test_a_grammar_is_spent_after_its_first_error_and_raises_that_same_error() -> None:
    grammar = ToyGrammar()
    grammar.feed(SseEvent("message", START), 0)
    with pytest.raises(VendorError) as first:
        grammar.feed(SseEvent("message", '{"type":"text","text":1}'), 1)
    assert first.value.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert first.value.event_index == 1
    with pytest.raises(VendorError) as again:
        grammar.feed(SseEvent("message", STOP), 2)
    with pytest.raises(VendorError) as at_end:
        grammar.end(3)
    assert again.value is first.value is at_end.value is grammar.failure
    assert not grammar.finished


def test_a_grammar_without_its_terminal_fails_at_the_end_and_stays_failed() -> None:
    grammar = ToyGrammar()
    grammar.feed(SseEvent("message", START), 0)
    with pytest.raises(VendorError) as missing:
        grammar.end(1)
    assert missing.value.code is VendorErrorCode.VENDOR_MISSING_TERMINAL
    assert missing.value.event_index == 1
    with pytest.raises(VendorError) as again:
        grammar.feed(SseEvent("message", STOP), 1)
    assert again.value is missing.value


def test_a_mapping_never_maps_a_frame_its_grammar_refuses() -> None:
    mapping = ToyMapping("request-1")
    pushed: list[CourseModelChunk] = []
    mapping.item(SseEvent("message", START), 0, pushed.append)
    with pytest.raises(VendorError) as refused:
        mapping.item(SseEvent("message", '{"type":"surprise"}'), 1, pushed.append)
    assert refused.value.code is VendorErrorCode.VENDOR_UNKNOWN_EVENT
    assert mapping.mapped == ["start"]
    assert mapping.grammar.failure is refused.value


def test_a_mapping_refuses_what_the_port_cannot_carry_and_is_spent() -> None:
    mapping = ToyMapping("request-1")
    assert mapping.feed(SseEvent("message", START), 0) is None
    with pytest.raises(VendorError) as refused:
        mapping.feed(SseEvent("message", '{"type":"note"}'), 1)
    assert refused.value.code is VendorErrorCode.VENDOR_UNSUPPORTED_CONTENT
    # The grammar accepted the note: only the port half refused it.
    assert mapping.grammar.failure is None
    with pytest.raises(VendorError) as again:
        mapping.end(2)
    assert again.value is refused.value


def test_a_mapping_gives_its_chunks_and_the_same_response_object_every_time() -> None:
    mapping = ToyMapping("request-1")
    made = [
        mapping.feed(f, i) for i, f in enumerate(frames(START, '{"type":"text","text":"Hi"}', STOP))
    ]
    assert made == [None, CourseTextDeltaChunk("request-1", "Hi"), None]
    assert mapping.finished
    response = mapping.end(3)
    assert response is mapping.end(3)
    assert response.message.content == (CourseTextBlock("Hi"),)
    assert response.usage.output_tokens == 3


def test_a_mapping_refuses_a_blank_request_id() -> None:
    with pytest.raises(ValueError, match="request_id"):
        ToyMapping(" ")


def test_the_judge_gives_the_grammars_result_for_a_good_body() -> None:
    verdict = judge_body(TOY_PLUGIN, GOOD)
    assert verdict == Success(ToyResult("Hello", False))


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64])
def test_the_judge_agrees_with_itself_whatever_the_chunking(size: int) -> None:
    judge = StreamJudge(TOY_PLUGIN)
    for start in range(0, len(GOOD), size):
        assert judge.feed_bytes(GOOD[start : start + size]) is None
    assert judge.close() is None
    assert judge.result == ToyResult("Hello", False)
    assert judge.frame_count == 5
    assert judge.finished


def test_the_judge_names_the_first_frame_off_the_grammar_and_reads_no_further() -> None:
    body = frame(START) + frame('{"type":"text","text":"a"}') + frame("[1]") + frame(STOP)
    judge = StreamJudge(TOY_PLUGIN)
    problem = judge.feed_bytes(body)
    assert problem is not None
    assert problem.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert problem.event_index == 2
    assert judge.feed_bytes(frame(STOP)) is problem
    assert judge.close() is problem
    assert judge.result is None


def test_the_judge_accepts_a_kind_the_port_cannot_carry() -> None:
    body = frame(START) + frame('{"type":"note"}') + frame(STOP)
    assert judge_body(TOY_PLUGIN, body) == Success(ToyResult("", True))


def test_a_body_cut_before_its_terminal_is_a_missing_terminal_at_the_frame_count() -> None:
    verdict = judge_body(TOY_PLUGIN, frame(START) + frame('{"type":"text","text":"a"}'))
    assert isinstance(verdict, Failure)
    assert verdict.failure().code is VendorErrorCode.VENDOR_MISSING_TERMINAL
    assert verdict.failure().event_index == 2


@pytest.mark.parametrize(
    ("coding", "encode"),
    [("gzip", gzip.compress), ("deflate", zlib.compress), ("GZip ", gzip.compress)],
)
def test_the_judge_reads_a_content_coded_body(
    coding: str, encode: Callable[[bytes], bytes]
) -> None:
    assert judge_body(TOY_PLUGIN, encode(GOOD), content_encoding=coding) == Success(
        ToyResult("Hello", False)
    )


def test_a_body_that_breaks_its_content_coding_is_a_typed_problem() -> None:
    broken = judge_body(TOY_PLUGIN, b"\x1f\x8b not gzip at all", content_encoding="gzip")
    assert isinstance(broken, Failure)
    assert broken.failure().code is VendorErrorCode.VENDOR_INVALID_EVENT
    cut = judge_body(TOY_PLUGIN, gzip.compress(GOOD)[:-9], content_encoding="gzip")
    assert isinstance(cut, Failure)
    assert cut.failure().code is VendorErrorCode.VENDOR_INVALID_EVENT


def test_a_judge_refuses_a_coding_it_cannot_read() -> None:
    with pytest.raises(ValueError, match="br"):
        StreamJudge(TOY_PLUGIN, content_encoding="br")


def test_a_huge_body_of_tiny_frames_is_judged_without_recursion_or_quadratic_joins() -> None:
    body = frame(START) + frame('{"type":"text","text":"x"}') * 50_000 + frame(STOP)
    verdict = judge_body(TOY_PLUGIN, body)
    assert isinstance(verdict, Success)
    result: Any = verdict.unwrap()
    assert len(result.text) == 50_000


def test_the_recorded_check_judges_with_the_grammar_of_the_paths_wire(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import course_vendor._call_wire as stream_check

    monkeypatch.setattr(
        stream_check,
        "vendor_for_call",
        lambda path, **_: TOY_PLUGIN if path == "/v1/toy" else None,
    )
    sse = {"content-type": "text/event-stream"}
    bad = frame(START) + frame('{"type":"text"}') + frame(STOP)
    problem = recorded_stream_problem("/v1/toy?x=1", RecordedResponse(200, sse, bad))
    assert problem is not None
    assert problem.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert problem.message.startswith(f"judged on {WIRE}: event 1:")
    assert recorded_stream_problem("/v1/toy", RecordedResponse(200, sse, GOOD)) is None
    # Not a stream of the wire: an error status, another media type, another path.
    assert recorded_stream_problem("/v1/toy", RecordedResponse(500, sse, bad)) is None
    assert (
        recorded_stream_problem(
            "/v1/toy", RecordedResponse(200, {"content-type": "application/json"}, bad)
        )
        is None
    )
    assert recorded_stream_problem("/v1/other", RecordedResponse(200, sse, bad)) is None


@pytest.mark.parametrize("end", ["interrupted", "stalled"])
def test_a_recording_cut_short_is_a_problem_only_before_its_cut(
    end: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import course_vendor._call_wire as stream_check

    monkeypatch.setattr(stream_check, "vendor_for_call", lambda path, **_: TOY_PLUGIN)
    sse = {"content-type": "text/event-stream"}
    cut = frame(START) + frame('{"type":"text","text":"a"}')
    assert recorded_stream_problem("/v1/toy", RecordedResponse(200, sse, cut, end)) is None
    wrong = frame(START) + frame('{"type":"surprise"}')
    problem = recorded_stream_problem("/v1/toy", RecordedResponse(200, sse, wrong, end))
    assert problem is not None
    assert problem.code is VendorErrorCode.VENDOR_UNKNOWN_EVENT
    complete_but_cut = recorded_stream_problem("/v1/toy", RecordedResponse(200, sse, cut))
    assert complete_but_cut is not None
    assert complete_but_cut.code is VendorErrorCode.VENDOR_MISSING_TERMINAL


@pytest.mark.parametrize("end", ["interrupted", "stalled"])
def test_the_frame_a_recorded_cut_tore_is_the_cut_not_a_problem(
    end: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import course_vendor._call_wire as stream_check

    monkeypatch.setattr(stream_check, "vendor_for_call", lambda path, **_: TOY_PLUGIN)
    sse = {"content-type": "text/event-stream"}
    torn = frame(START) + b'data: {"type":"te'

    assert recorded_stream_problem("/v1/toy", RecordedResponse(200, sse, torn, end)) is None
    complete = recorded_stream_problem("/v1/toy", RecordedResponse(200, sse, torn))
    assert complete is not None
    assert (complete.code, complete.event_index) == (VendorErrorCode.VENDOR_INVALID_EVENT, 1)
