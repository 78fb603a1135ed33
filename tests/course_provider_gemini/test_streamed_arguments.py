"""Vertex AI's streamed function-call arguments (``partialArgs``, ``willContinue``), read strictly.

A call starts with its name and ``willContinue``, continues with parts of
partial arguments (each a JSON path and one value; a string may come in
fragments) and ends with a part without ``willContinue``. The grammar
builds the arguments as they come and refuses every order or path the
vendor never sends.
"""

from __future__ import annotations

from typing import Any

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import JsonObject, freeze_json_object
from course_provider_gemini import GeminiFunctionCall, GeminiResult
from course_provider_gemini._streamed_call import json_path
from tests.course_provider_gemini.bodies import chunk, judged, streamed_call, text

C = VendorErrorCode


def frozen(value: dict[str, Any]) -> JsonObject:
    return freeze_json_object(value).unwrap()


def string(path: str, value: str, *, more: bool = False) -> dict[str, Any]:
    fragment: dict[str, Any] = {"jsonPath": path, "stringValue": value}
    if more:
        fragment["willContinue"] = True
    return fragment


def calls_of(events: list[SseEvent]) -> tuple[GeminiFunctionCall, ...]:
    found = judged(events)
    assert isinstance(found, GeminiResult), found
    return tuple(part for part in found.candidates[0].parts if type(part) is GeminiFunctionCall)


def failure_of(events: list[SseEvent]) -> VendorError:
    found = judged(events)
    assert isinstance(found, VendorError), found
    return found


def one_part_per_chunk(parts: list[dict[str, Any]], **finish: Any) -> list[SseEvent]:
    events = [chunk(part) for part in parts]
    events.append(chunk(text(""), finish="STOP", **finish))
    return events


def test_a_streamed_call_is_whole_once_its_closing_part_came() -> None:
    parts = streamed_call(
        "plan_trip",
        [string("$.city", "Par", more=True)],
        [string("$.city", "is")],
        [{"jsonPath": "$.days", "numberValue": 3}, {"jsonPath": "$.budget", "numberValue": 1.5}],
        [{"jsonPath": "$.flexible", "boolValue": False}, {"jsonPath": "$.note", "nullValue": None}],
        [string("$.stops[0].name", "Lyon"), string("$.stops[0]['the hotel']", "H")],
        [string("$.stops[1].name", "Nice"), {"jsonPath": '$["x\\"y"]', "nullValue": "NULL_VALUE"}],
        id="fc-1",
    )
    parts[0]["thoughtSignature"] = "c2ln"

    (call,) = calls_of(one_part_per_chunk(parts))

    assert call == GeminiFunctionCall(
        "plan_trip",
        frozen(
            {
                "city": "Paris",
                "days": 3,
                "budget": 1.5,
                "flexible": False,
                "note": None,
                "stops": ({"name": "Lyon", "the hotel": "H"}, {"name": "Nice"}),
                'x"y': None,
            }
        ),
        "fc-1",
        "c2ln",
        streamed=True,
    )


def test_the_recorded_vertex_shape_streams_each_call_in_turn_in_one_chunk_or_many() -> None:
    parts = [
        {"functionCall": {"name": "read_theme"}, "thoughtSignature": "AY89"},
        *streamed_call("read_screen", [string("$.id", "A", more=True)], [string("$.id", "")]),
        *streamed_call("read_screen", [string("$.id", "B")]),
    ]

    spread = calls_of(one_part_per_chunk(parts))
    together = calls_of([chunk(*parts, finish="STOP")])

    assert spread == together
    assert [(call.name, dict(call.arguments), call.streamed) for call in spread] == [
        ("read_theme", {}, False),
        ("read_screen", {"id": "A"}, True),
        ("read_screen", {"id": "B"}, True),
    ]


def test_a_call_with_no_arguments_streams_to_an_empty_object() -> None:
    (call,) = calls_of(one_part_per_chunk(streamed_call("now")))

    assert (call.name, dict(call.arguments), call.streamed) == ("now", {}, True)


def test_partial_arguments_in_a_part_that_does_not_continue_make_a_whole_call() -> None:
    part = {"functionCall": {"name": "f", "partialArgs": [string("$.a", "b")]}}

    (call,) = calls_of([chunk(part, finish="STOP")])

    assert (dict(call.arguments), call.streamed) == ({"a": "b"}, True)


def test_a_signature_on_a_later_part_of_the_call_is_the_calls() -> None:
    parts = streamed_call("f", [string("$.a", "b")])
    parts[1]["thoughtSignature"] = "later"

    (call,) = calls_of(one_part_per_chunk(parts))

    assert call.signature == "later"


def _stream(*fragments: list[dict[str, Any]]) -> list[SseEvent]:
    return one_part_per_chunk(streamed_call("f", *fragments))


def _continuation(**fields: Any) -> dict[str, Any]:
    return {"functionCall": {"willContinue": True, **fields}}


START = {"functionCall": {"name": "f", "willContinue": True}}

OFF_GRAMMAR = {
    "a continuation no part started": (
        [chunk({"functionCall": {"partialArgs": []}})],
        C.VENDOR_EVENT_ORDER,
        0,
    ),
    "an end no part started": ([chunk({"functionCall": {}})], C.VENDOR_EVENT_ORDER, 0),
    "text while the call streams": ([chunk(START), chunk(text("a"))], C.VENDOR_EVENT_ORDER, 1),
    "a metadata part while the call streams": (
        [chunk(START), chunk({"thoughtSignature": "AA=="})],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "media while the call streams": (
        [chunk(START), chunk({"inlineData": {"mimeType": "image/png", "data": ""}})],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "a finish while the call streams": (
        [chunk(START), chunk(finish="STOP")],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "another call while the call streams": (
        [chunk(START), chunk({"functionCall": {"name": "g"}})],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "args in a continuation": (
        [chunk(START), chunk(_continuation(args={}))],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "args and partial arguments at once": (
        [chunk({"functionCall": {"name": "f", "args": {}, "willContinue": True}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "another id in a continuation": (
        [
            chunk({"functionCall": {"name": "f", "id": "a", "willContinue": True}}),
            chunk(_continuation(id="b")),
        ],
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a second signature": (
        [
            chunk({**START, "thoughtSignature": "a"}),
            chunk({**_continuation(), "thoughtSignature": "b"}),
        ],
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "willContinue not a boolean": (
        [chunk({"functionCall": {"name": "f", "willContinue": "yes"}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "partial arguments not an array": (
        [chunk(START), chunk(_continuation(partialArgs={}))],
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a fragment not an object": (_stream(["$.a"]), C.VENDOR_INVALID_EVENT, 1),  # type: ignore[list-item]
    "an unknown fragment field": (
        _stream([{"jsonPath": "$.a", "stringValue": "b", "bytesValue": "Yg=="}]),
        C.VENDOR_UNKNOWN_EVENT,
        1,
    ),
    "a fragment without its path": (_stream([{"stringValue": "b"}]), C.VENDOR_INVALID_EVENT, 1),
    "a fragment without a value": (_stream([{"jsonPath": "$.a"}]), C.VENDOR_INVALID_EVENT, 1),
    "a fragment with two values": (
        _stream([{"jsonPath": "$.a", "stringValue": "b", "boolValue": True}]),
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a string value that is not text": (
        _stream([{"jsonPath": "$.a", "stringValue": 1}]),
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a number value that is text": (
        _stream([{"jsonPath": "$.a", "numberValue": "1"}]),
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a boolean number": (
        _stream([{"jsonPath": "$.a", "numberValue": True}]),
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a bool value that is a number": (
        _stream([{"jsonPath": "$.a", "boolValue": 0}]),
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a null value of another name": (
        _stream([{"jsonPath": "$.a", "nullValue": "NULL"}]),
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a number that continues": (
        _stream([{"jsonPath": "$.a", "numberValue": 1, "willContinue": True}]),
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "another path while a string arrives": (
        _stream([string("$.a", "x", more=True)], [string("$.b", "y")]),
        C.VENDOR_EVENT_ORDER,
        2,
    ),
    "a number while a string arrives": (
        _stream([string("$.a", "x", more=True), {"jsonPath": "$.a", "numberValue": 1}]),
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "the end while a string arrives": (
        _stream([string("$.a", "x", more=True)]),
        C.VENDOR_EVENT_ORDER,
        2,
    ),
    "a value set twice": (
        _stream([string("$.a", "x")], [string("$.a", "y")]),
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        2,
    ),
    "a path through a string": (
        _stream([string("$.a", "x")], [string("$.a.b", "y")]),
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        2,
    ),
    "a path through a null": (
        _stream([{"jsonPath": "$.a", "nullValue": None}], [string("$.a.b", "y")]),
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        2,
    ),
    "an object path through an array": (
        _stream([string("$.a[0]", "x")], [string("$.a.b", "y")]),
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        2,
    ),
    "an index that skips an element": (
        _stream([string("$.a[1]", "x")]),
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    "an index that repeats an element": (
        _stream([string("$.a[0]", "x")], [string("$.a[0]", "y")]),
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        2,
    ),
    "a path that indexes the arguments": (
        _stream([string("$[0]", "x")]),
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    "a path deeper than the JSON limit": (
        _stream([string("$" + ".a" * 65, "x")]),
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
}


@pytest.mark.parametrize(("events", "code", "index"), OFF_GRAMMAR.values(), ids=OFF_GRAMMAR)
def test_a_streamed_call_off_the_grammar_fails_at_its_event(
    events: list[SseEvent], code: VendorErrorCode, index: int
) -> None:
    error = failure_of(events)

    assert (error.code, error.event_index) == (code, index)


@pytest.mark.parametrize(
    ("text_path", "segments"),
    [
        ("$.a", ("a",)),
        ("$.a_b9.c", ("a_b9", "c")),
        ("$.\u00e9t\u00e9", ("\u00e9t\u00e9",)),
        ("$['a key']", ("a key",)),
        ('$["it\'s"]', ("it's",)),
        ("$['\\'q\\'']", ("'q'",)),
        ('$["\\u00e9\\n\\t\\\\"]', ("\u00e9\n\t\\",)),
        ("$.list[0][12].x", ("list", 0, 12, "x")),
        ("$['']", ("",)),
    ],
)
def test_a_singular_json_path_is_read_into_its_segments(
    text_path: str, segments: tuple[str | int, ...]
) -> None:
    assert json_path(text_path) == segments


@pytest.mark.parametrize(
    "text_path",
    [
        "",
        "$",
        "a.b",
        "$.",
        "$..a",
        "$.*",
        "$[*]",
        "$[-1]",
        "$[01]",
        "$.1a",
        "$['a]",
        "$['\\x']",
        "$[?@.a]",
        "$.a b",
        "$['a\u0001']",
        "$[1:2]",
    ],
)
def test_anything_but_a_singular_json_path_is_refused(text_path: str) -> None:
    assert json_path(text_path) is None

    error = failure_of(_stream([string(text_path, "x")]))
    assert (error.code, error.event_index) == (C.VENDOR_INVALID_TOOL_ARGUMENTS, 1)
