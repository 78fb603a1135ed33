"""Hostile Gemini bodies: whatever a chunk holds, framing, grammar and mapping raise VendorError.

Each example takes a well-formed answer of our own (text, thoughts, calls,
usage, media, code, a streamed call), replaces one value anywhere in one
chunk by a hostile one (another type, a list shaped as a dict, a huge or
deeply nested value, a negative or huge count), frames it as SSE or as the
JSON array, and tears the bytes at a random point. Through the mapping the
outcome is a response or a `VendorError`, never another exception, and a
response's stop reason agrees with its content; the grammar alone judges
the same bytes to a result or a `VendorError`, and never refuses what the
mapping answered, nor later than the mapping failed.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_http import VendorError
from course_protocol import CourseModelResponse, terminal_semantics_error
from course_provider_gemini import GEMINI_PLUGIN, GeminiDecoder, GeminiMapping, GeminiResult
from course_vendor import StreamJudge
from tests.course_provider_gemini.bodies import call, chunk, streamed_call, text, thought, usage

BASE = [
    json.loads(item.data)
    for item in (
        chunk(thought("hmm"), counts=usage(3, None, 4)),
        chunk(
            text("Hello "), text("there"), safetyRatings=[{"category": "X", "probability": "LOW"}]
        ),
        chunk(call("add", {"left": 1, "right": [2, {"x": None}]}, thoughtSignature="c2ln")),
        chunk(*streamed_call("f", [{"jsonPath": "$.a[0]", "stringValue": "b"}], id="fc-1")),
        chunk(text(""), finish="STOP", finishMessage="done", counts=usage(3, 5, 4)),
    )
]
OPAQUE = [
    json.loads(item.data)
    for item in (
        chunk({"executableCode": {"language": "PYTHON", "code": "1"}}),
        chunk({"inlineData": {"mimeType": "image/png", "data": "AA=="}}, finish="STOP"),
    )
]

_DEEP: Any = []
for _ in range(600):
    _DEEP = [_DEEP]

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.just("x" * 100_000),
    st.just({"0": {"text": "dict-shaped list"}}),
    st.just([]),
    st.just({}),
    st.just([{"text": "a"}, 3]),
    st.just(_DEEP),
    st.sampled_from(["STOP", "MAX_TOKENS", "SAFETY", "model", "user", "thought"]),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found.extend(_paths(inner, (*prefix, key)))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found.extend(_paths(inner, (*prefix, index)))
    return found


def _replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(document))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return copy


def _framed(chunks: list[Any], as_array: bool) -> bytes:
    texts = [json.dumps(item) for item in chunks]
    if as_array:
        return ("[" + "\n,\r\n".join(texts) + "\n]").encode()
    return "".join(f"data: {item}\r\n\r\n" for item in texts).encode()


def _judge(body: bytes, cut: int) -> Any:
    judge = StreamJudge(GEMINI_PLUGIN)
    problem = judge.feed_bytes(body[:cut]) or judge.feed_bytes(body[cut:]) or judge.close()
    return judge.result if problem is None else problem


def _play(body: bytes, cut: int) -> CourseModelResponse | VendorError:
    decoder = GeminiDecoder(vendor="gemini")
    parser = GeminiMapping("request-1")
    count = 0
    try:
        events = [*decoder.feed_bytes(body[:cut])]
        if decoder.failure is None:
            events += decoder.feed_bytes(body[cut:])
        for event in events:
            parser.item(event, count, lambda made: None)
            count += 1
        if decoder.failure is not None:
            raise decoder.failure
        for event in decoder.close():
            parser.item(event, count, lambda made: None)
            count += 1
        return parser.end(count)
    except VendorError as error:
        return error


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=HOSTILE, as_array=st.booleans())
def test_one_hostile_value_anywhere_gives_a_response_or_a_vendor_error(
    data: st.DataObject, value: Any, as_array: bool
) -> None:
    position = data.draw(st.integers(0, len(BASE) - 1))
    path = data.draw(st.sampled_from(_paths(BASE[position])))
    chunks = [*BASE]
    chunks[position] = _replaced(BASE[position], path, value)
    body = _framed(chunks, as_array)
    cut = data.draw(st.integers(0, len(body)))

    outcome = _play(body, cut)
    judged = _judge(body, cut)

    assert isinstance(outcome, (CourseModelResponse, VendorError))
    assert isinstance(judged, (GeminiResult, VendorError))
    if isinstance(outcome, CourseModelResponse):
        assert terminal_semantics_error(outcome.stop_reason, outcome.message) is None
        assert isinstance(judged, GeminiResult)
    else:
        assert outcome.vendor == "gemini"
    if isinstance(judged, VendorError):
        assert isinstance(outcome, VendorError)
        assert outcome.event_index is not None
        assert judged.event_index is not None
        assert outcome.event_index <= judged.event_index


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=HOSTILE, as_array=st.booleans())
def test_one_hostile_value_in_a_kind_the_port_cannot_carry_is_judged_typed(
    data: st.DataObject, value: Any, as_array: bool
) -> None:
    position = data.draw(st.integers(0, len(OPAQUE) - 1))
    path = data.draw(st.sampled_from(_paths(OPAQUE[position])))
    chunks = [*OPAQUE]
    chunks[position] = _replaced(OPAQUE[position], path, value)
    body = _framed(chunks, as_array)

    judged = _judge(body, data.draw(st.integers(0, len(body))))

    assert isinstance(judged, (GeminiResult, VendorError))
    if isinstance(judged, VendorError):
        assert judged.vendor == "gemini"


@settings(max_examples=200, deadline=None)
@given(body=st.binary(max_size=300), as_array=st.booleans())
def test_arbitrary_bytes_give_a_vendor_error_or_a_response(body: bytes, as_array: bool) -> None:
    prefix = b"[" if as_array else b"data: "

    outcome = _play(prefix + body, len(body) // 2)

    assert isinstance(outcome, (CourseModelResponse, VendorError))


def test_json_nested_past_the_decoders_limit_is_an_invalid_event() -> None:
    nested = "[" * 100_000 + "]" * 100_000
    body = f'data: {{"candidates": {nested}}}\r\n\r\n'.encode()

    outcome = _play(body, len(body))

    assert isinstance(outcome, VendorError)
    assert (outcome.code.value, outcome.event_index) == ("VENDOR_INVALID_EVENT", 0)


def test_a_huge_array_element_is_refused_by_the_framing_bound() -> None:
    body = b'[{"text": "' + b"x" * (17 * 1024 * 1024) + b'"}]'

    outcome = _play(body, len(body) // 3)

    assert isinstance(outcome, VendorError)
    assert "longer than" in outcome.message
