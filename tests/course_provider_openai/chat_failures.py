"""Chat bodies off the grammar, one per rule: each with the code and the event it fails at.

Each case is ``(name, frames, code, event_index)``; a frame is a chunk
payload (a ``dict``), raw data text (``str``, ``[DONE]`` among them), or an
`SseEvent` as it stands (a named frame). The grammar tests judge each one;
the mapping tests check that the model path fails the same way.
"""

from __future__ import annotations

import json
from typing import Any

from course_http import SseEvent, VendorErrorCode
from course_protocol import JSON_MAX_DEPTH
from tests.course_provider_openai.bodies import (
    CHAT_ID,
    DONE,
    chat_events,
    chunk,
    finish,
    text,
    tool_arguments,
    tool_start,
    usage,
)

__all__ = ["GRAMMAR_FAILURES", "Case", "frames"]

Code = VendorErrorCode
Case = tuple[str, list[object], VendorErrorCode, int]
COUNTS = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}


def frames(payloads: list[object]) -> list[SseEvent]:
    """The events of a case: an `SseEvent` as it is, anything else as unnamed data."""
    return [
        payload if type(payload) is SseEvent else chat_events(payload)[0] for payload in payloads
    ]


def _call(**fragment: object) -> dict[str, Any]:
    return chunk({"tool_calls": [{"index": 0, **fragment}]})


def _logprobs(**entry: object) -> dict[str, Any]:
    whole = {"token": "a", "logprob": -0.5, "bytes": [97], "top_logprobs": [], **entry}
    return text("a", logprobs={"content": [whole]})


def _audio(**audio: object) -> dict[str, Any]:
    return chunk({"audio": audio})


def _after(*payloads: object) -> list[object]:
    """A whole text answer, then ``payloads``."""
    return [text("a"), finish("stop"), usage(), DONE, *payloads]


_NESTED = '{"a":' * 100_000 + "1" + "}" * 100_000
_TOO_DEEP = '{"a":' * (JSON_MAX_DEPTH + 1) + "1" + "}" * (JSON_MAX_DEPTH + 1)
_MODERATION = {"input": {"type": "moderation_results"}, "output": {"type": "error"}}

_FRAMES: list[Case] = [
    ("data-not-json", [text("a"), "not json"], Code.VENDOR_INVALID_EVENT, 1),
    ("data-an-array", ["[1, 2]"], Code.VENDOR_INVALID_EVENT, 0),
    ("data-deeply-nested", [_NESTED], Code.VENDOR_INVALID_EVENT, 0),
    ("event-name-ping", [SseEvent("ping", "{}")], Code.VENDOR_UNKNOWN_EVENT, 0),
    ("event-name-thread", [text("a"), SseEvent("thread.run", "{}")], Code.VENDOR_UNKNOWN_EVENT, 1),
]
_ENVELOPE: list[Case] = [
    ("choices-missing", [{"id": CHAT_ID}], Code.VENDOR_INVALID_EVENT, 0),
    ("choices-an-object", [{"id": CHAT_ID, "choices": {}}], Code.VENDOR_INVALID_EVENT, 0),
    ("choice-not-an-object", [{"id": CHAT_ID, "choices": ["x"]}], Code.VENDOR_INVALID_EVENT, 0),
    ("id-missing", [text("a", chunk_id=None)], Code.VENDOR_INVALID_EVENT, 0),
    ("id-blank", [text("a", chunk_id=" ")], Code.VENDOR_INVALID_EVENT, 0),
    ("id-a-number", [text("a", chunk_id=7)], Code.VENDOR_INVALID_EVENT, 0),
    ("id-changes", [text("a"), text("b", chunk_id="chatcmpl-other")], Code.VENDOR_INVALID_EVENT, 1),
    ("id-vanishes", [text("a"), text("b", chunk_id=None)], Code.VENDOR_INVALID_EVENT, 1),
    ("model-a-number", [text("a", model=4)], Code.VENDOR_INVALID_EVENT, 0),
    ("model-changes", [text("a"), text("b", model="gpt-other")], Code.VENDOR_INVALID_EVENT, 1),
    ("created-text", [text("a", created="now")], Code.VENDOR_INVALID_EVENT, 0),
    ("created-negative", [text("a", created=-1)], Code.VENDOR_INVALID_EVENT, 0),
    ("created-changes", [text("a", created=1), text("b", created=2)], Code.VENDOR_INVALID_EVENT, 1),
    ("object-another", [text("a", object="chat.completion")], Code.VENDOR_INVALID_EVENT, 0),
    ("object-vanishes", [text("a"), text("b", object=None)], Code.VENDOR_INVALID_EVENT, 1),
    ("fingerprint-a-number", [text("a", system_fingerprint=1)], Code.VENDOR_INVALID_EVENT, 0),
    (
        "fingerprint-changes",
        [text("a", system_fingerprint="fp_1"), text("b", system_fingerprint="fp_2")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    ("service-tier-a-list", [text("a", service_tier=[])], Code.VENDOR_INVALID_EVENT, 0),
    (
        "service-tier-changes",
        [text("a", service_tier="default"), text("b", service_tier="flex")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    ("obfuscation-a-number", [text("a", obfuscation=5)], Code.VENDOR_INVALID_EVENT, 0),
    ("choices-empty-without-usage", [text("a"), chunk(None)], Code.VENDOR_INVALID_EVENT, 1),
    ("moderation-a-list", [text("a", moderation=[])], Code.VENDOR_INVALID_EVENT, 0),
    (
        "moderation-without-output",
        [text("a", moderation={"input": {"type": "error"}})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "moderation-type-unknown",
        [text("a", moderation={**_MODERATION, "output": {"type": "verdict"}})],
        Code.VENDOR_UNKNOWN_EVENT,
        0,
    ),
    (
        "moderation-too-deep",
        [text("a", moderation={**_MODERATION, "extra": json.loads(_TOO_DEEP)})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
]
_CHOICES: list[Case] = [
    (
        "choice-index-missing",
        [{"id": CHAT_ID, "choices": [{"delta": {}}]}],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("choice-index-text", [text("a", choice_index="0")], Code.VENDOR_INVALID_EVENT, 0),
    ("choice-index-bool", [text("a", choice_index=False)], Code.VENDOR_INVALID_EVENT, 0),
    ("choice-index-negative", [text("a", choice_index=-1)], Code.VENDOR_INVALID_EVENT, 0),
    ("choice-1-before-0", [text("a", choice_index=1)], Code.VENDOR_EVENT_ORDER, 0),
    ("choice-2-before-1", [text("a"), text("b", choice_index=2)], Code.VENDOR_EVENT_ORDER, 1),
    (
        "one-choice-twice-in-a-chunk",
        [{"id": CHAT_ID, "choices": [{"index": 0, "delta": {}}, {"index": 0, "delta": {}}]}],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("delta-missing", [{"id": CHAT_ID, "choices": [{"index": 0}]}], Code.VENDOR_INVALID_EVENT, 0),
    (
        "delta-a-list",
        [{"id": CHAT_ID, "choices": [{"index": 0, "delta": []}]}],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("content-a-number", [text(42)], Code.VENDOR_INVALID_EVENT, 0),
    ("content-parts", [text([{"type": "text", "text": "a"}])], Code.VENDOR_INVALID_EVENT, 0),
    ("refusal-a-number", [chunk({"refusal": 3})], Code.VENDOR_INVALID_EVENT, 0),
    ("role-undocumented", [chunk({"role": "robot"})], Code.VENDOR_INVALID_EVENT, 0),
    ("role-a-list", [chunk({"role": ["assistant"]})], Code.VENDOR_INVALID_EVENT, 0),
    (
        "role-changes",
        [chunk({"role": "assistant"}), chunk({"role": "tool"})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    ("finish-reason-a-number", [text("a"), finish(5)], Code.VENDOR_INVALID_EVENT, 1),
    ("finish-reason-a-list", [text("a"), finish([])], Code.VENDOR_INVALID_EVENT, 1),
    (
        "finish-reason-undocumented",
        [text("a"), finish("something_new")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "finish-repeated",
        [text("a"), finish("length"), finish("length")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "finish-then-another",
        [text("a"), finish("stop"), finish("length")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    ("finish-then-content", [text("a"), finish("stop"), text("b")], Code.VENDOR_EVENT_ORDER, 2),
    (
        "finish-then-tool-call",
        [text("a"), finish("stop"), tool_start(0, "c", "f")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "finish-then-refusal",
        [text("a"), finish("stop"), chunk({"refusal": "no"})],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    ("logprobs-a-list", [text("a", logprobs=[])], Code.VENDOR_INVALID_EVENT, 0),
    (
        "logprobs-content-an-object",
        [text("a", logprobs={"content": {}})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("logprob-token-missing", [_logprobs(token=None)], Code.VENDOR_INVALID_EVENT, 0),
    ("logprob-a-string", [_logprobs(logprob="-1")], Code.VENDOR_INVALID_EVENT, 0),
    ("logprob-a-bool", [_logprobs(logprob=True)], Code.VENDOR_INVALID_EVENT, 0),
    ("logprob-byte-256", [_logprobs(bytes=[256])], Code.VENDOR_INVALID_EVENT, 0),
    ("logprob-bytes-text", [_logprobs(bytes="a")], Code.VENDOR_INVALID_EVENT, 0),
    ("logprob-top-missing", [_logprobs(top_logprobs=None)], Code.VENDOR_INVALID_EVENT, 0),
    ("logprob-top-a-string", [_logprobs(top_logprobs=["a"])], Code.VENDOR_INVALID_EVENT, 0),
]
_CALLS: list[Case] = [
    ("tool-calls-an-object", [chunk({"tool_calls": {}})], Code.VENDOR_INVALID_EVENT, 0),
    ("tool-fragment-a-string", [chunk({"tool_calls": ["x"]})], Code.VENDOR_INVALID_EVENT, 0),
    (
        "tool-fragment-without-index",
        [chunk({"tool_calls": [{"id": "c", "function": {"name": "f"}}]})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "tool-fragment-negative-index",
        [_call(index=-1, id="c", function={"name": "f"})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "tool-fragment-bool-index",
        [_call(index=True, id="c", function={"name": "f"})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("tool-fragment-never-started", [tool_arguments(0, "{}")], Code.VENDOR_EVENT_ORDER, 0),
    (
        "tool-fragment-for-another-index",
        [tool_start(0, "c0", "f"), tool_arguments(1, "{}")],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "tool-call-1-before-0",
        [_call(index=1, id="c", function={"name": "f"})],
        Code.VENDOR_EVENT_ORDER,
        0,
    ),
    (
        "tool-second-id-for-one-index",
        [tool_start(0, "c0", "f"), tool_start(0, "c1", "f")],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "tool-name-on-a-later-fragment",
        [tool_start(0, "c0", "f"), _call(function={"name": "g", "arguments": "{}"})],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "tool-type-changes-on-a-later-fragment",
        [tool_start(0, "c0", "f"), _call(type="custom", function={"arguments": "{}"})],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "tool-type-undocumented",
        [_call(id="c", type="code_interpreter", function={"name": "f"})],
        Code.VENDOR_UNKNOWN_EVENT,
        0,
    ),
    (
        "tool-type-a-list",
        [_call(id="c", type=[], function={"name": "f"})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "tool-start-without-name",
        [_call(id="c", function={"arguments": ""})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("tool-start-without-function", [_call(id="c")], Code.VENDOR_INVALID_EVENT, 0),
    (
        "tool-custom-without-custom",
        [_call(id="c", type="custom", function={"name": "f"})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    ("tool-function-a-string", [_call(id="c", function="f")], Code.VENDOR_INVALID_EVENT, 0),
    ("tool-blank-id", [tool_start(0, "  ", "f")], Code.VENDOR_INVALID_EVENT, 0),
    ("tool-id-a-number", [_call(id=1, function={"name": "f"})], Code.VENDOR_INVALID_EVENT, 0),
    (
        "tool-id-of-an-earlier-call",
        [tool_start(0, "c", "f"), _call(index=1, id="c", function={"name": "f"})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "tool-arguments-a-number",
        [tool_start(0, "c", "f"), _call(function={"arguments": 1})],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "tool-later-function-a-string",
        [tool_start(0, "c", "f"), _call(function="{}")],
        Code.VENDOR_INVALID_EVENT,
        1,
    ),
    (
        "tool-custom-input-a-number",
        [_call(id="c", type="custom", custom={"name": "g", "input": 1})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "tool-arguments-not-json",
        [tool_start(0, "c", "f", '{"a": '), finish("tool_calls")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    (
        "tool-arguments-not-json-at-stop",
        [tool_start(0, "c", "f", '{"a": '), finish("stop")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    (
        "tool-arguments-an-array",
        [tool_start(0, "c", "f", "[1]"), finish("tool_calls")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    (
        "tool-arguments-too-deep",
        [tool_start(0, "c", "f", _TOO_DEEP), finish("tool_calls")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    (
        "tool-arguments-nan",
        [tool_start(0, "c", "f", '{"a": NaN}'), finish("tool_calls")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
    ("function-call-a-string", [chunk({"function_call": "f"})], Code.VENDOR_INVALID_EVENT, 0),
    (
        "function-call-without-name",
        [chunk({"function_call": {"arguments": ""}})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "function-call-named-twice",
        [chunk({"function_call": {"name": "f"}}), chunk({"function_call": {"name": "f"}})],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "function-call-arguments-a-number",
        [chunk({"function_call": {"name": "f", "arguments": 1}})],
        Code.VENDOR_INVALID_EVENT,
        0,
    ),
    (
        "function-call-arguments-not-json",
        [chunk({"function_call": {"name": "f", "arguments": "{"}}), finish("function_call")],
        Code.VENDOR_INVALID_TOOL_ARGUMENTS,
        1,
    ),
]
_AUDIO: list[Case] = [
    ("audio-a-string", [chunk({"audio": "x"})], Code.VENDOR_INVALID_EVENT, 0),
    ("audio-id-blank", [_audio(id=" ")], Code.VENDOR_INVALID_EVENT, 0),
    ("audio-id-changes", [_audio(id="a1"), _audio(id="a2")], Code.VENDOR_INVALID_EVENT, 1),
    ("audio-data-a-number", [_audio(data=1)], Code.VENDOR_INVALID_EVENT, 0),
    ("audio-transcript-a-list", [_audio(transcript=[])], Code.VENDOR_INVALID_EVENT, 0),
    ("audio-expires-at-text", [_audio(expires_at="soon")], Code.VENDOR_INVALID_EVENT, 0),
    ("audio-expires-at-negative", [_audio(expires_at=-1)], Code.VENDOR_INVALID_EVENT, 0),
    (
        "audio-after-it-expired",
        [_audio(data="AA", expires_at=1), _audio(data="BB")],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "text-after-audio-expired",
        [_audio(data="AA", expires_at=1), text("a")],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "finish-with-text-after-audio-expired",
        [_audio(data="AA", expires_at=1), chunk({"content": "a"}, finish_reason="stop")],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    (
        "second-finish-after-audio-expired",
        [_audio(data="AA", expires_at=1), finish("stop"), finish("stop")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
]
_USAGE: list[Case] = [
    (
        "usage-a-list",
        [text("a"), finish("stop"), chunk(None, usage=[1])],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    (
        "usage-without-prompt-tokens",
        [text("a"), finish("stop"), chunk(None, usage={"completion_tokens": 1, "total_tokens": 1})],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    (
        "usage-without-total-tokens",
        [
            text("a"),
            finish("stop"),
            chunk(None, usage={"prompt_tokens": 1, "completion_tokens": 1}),
        ],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    ("usage-negative", [text("a"), finish("stop"), usage(-1, 2)], Code.VENDOR_INVALID_EVENT, 2),
    ("usage-bool", [text("a"), finish("stop"), usage(1, True)], Code.VENDOR_INVALID_EVENT, 2),
    ("usage-float", [text("a"), finish("stop"), usage(1.0, 2)], Code.VENDOR_INVALID_EVENT, 2),
    ("usage-past-2-53", [text("a"), finish("stop"), usage(2**53, 2)], Code.VENDOR_INVALID_EVENT, 2),
    (
        "usage-details-a-list",
        [text("a"), finish("stop"), chunk(None, usage={**COUNTS, "prompt_tokens_details": []})],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    (
        "usage-detail-a-string",
        [
            text("a"),
            finish("stop"),
            chunk(None, usage={**COUNTS, "completion_tokens_details": {"reasoning_tokens": "1"}}),
        ],
        Code.VENDOR_INVALID_EVENT,
        2,
    ),
    ("usage-before-the-finish", [text("a"), usage(), finish("stop")], Code.VENDOR_EVENT_ORDER, 1),
    ("usage-before-any-choice", [usage()], Code.VENDOR_EVENT_ORDER, 0),
    (
        "usage-beside-choices",
        [text("a"), chunk({}, finish_reason="stop", usage=COUNTS)],
        Code.VENDOR_EVENT_ORDER,
        1,
    ),
    ("usage-twice", [text("a"), finish("stop"), usage(), usage()], Code.VENDOR_EVENT_ORDER, 3),
    (
        "chunk-after-usage",
        [text("a"), finish("stop"), usage(), text("b")],
        Code.VENDOR_EVENT_ORDER,
        3,
    ),
    (
        "torn-frame-after-usage",
        [text("a"), finish("stop"), usage(), '{"hal'],
        Code.VENDOR_INVALID_EVENT,
        3,
    ),
]
_TERMINAL: list[Case] = [
    ("event-after-done", _after(text("late")), Code.VENDOR_EVENT_ORDER, 4),
    ("done-after-done", _after(DONE), Code.VENDOR_EVENT_ORDER, 4),
    ("error-after-done", _after(SseEvent("error", '{"error": {}}')), Code.VENDOR_EVENT_ORDER, 4),
    ("done-alone", [DONE], Code.VENDOR_MISSING_TERMINAL, 0),
    ("done-before-the-finish", [text("a"), DONE], Code.VENDOR_MISSING_TERMINAL, 1),
    (
        "done-before-the-second-choice-finished",
        [text("a"), text("b", choice_index=1), finish("stop"), DONE],
        Code.VENDOR_MISSING_TERMINAL,
        3,
    ),
    ("ends-before-the-finish", [text("a")], Code.VENDOR_MISSING_TERMINAL, 1),
    ("ends-before-any-chunk", [], Code.VENDOR_MISSING_TERMINAL, 0),
    (
        "chunk-after-the-vendors-error",
        [text("a"), text("", error={"message": "boom"}), text("b")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
    (
        "chunk-after-the-error-and-done",
        [SseEvent("error", "{}"), DONE, text("b")],
        Code.VENDOR_EVENT_ORDER,
        2,
    ),
]

GRAMMAR_FAILURES: list[Case] = [
    *_FRAMES,
    *_ENVELOPE,
    *_CHOICES,
    *_CALLS,
    *_AUDIO,
    *_USAGE,
    *_TERMINAL,
]
"""Every rule of the grammar, broken once."""
