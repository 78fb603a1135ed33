"""Checkpoint 05: normalize a provider fixture boundary.

Each test proves one acceptance criterion of the checkpoint for
``FixtureProviderAdapter``. Run this file alone with
``make checkpoint FILE=tests/checkpoints/test_05_provider_adapter.py``.
Every test runs with sockets and ``urllib`` patched to raise.
"""

from __future__ import annotations

import asyncio
import copy
import json
import socket
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from frozendict import frozendict
from returns.result import Failure, Success

from course_protocol import (
    CourseAssistantMessage,
    CourseModel,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    thaw_json,
)
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    load_fixture,
    parse_wire_stop_reason,
    parse_wire_usage,
)
from course_stream import AbortController, AbortError, AbortSignal, EventStream
from tests.course_provider_fixture.records import (
    ROUNDTRIP_FIXTURE,
    end,
    fixture,
    start,
    text,
    tool_call,
)
from tests.nesting import nested_lists
from tests.requests import live_signal, request
from tests.streams import GUARD_SECONDS, Settled, settle
from tests.tasks import tasks_left

Code = FixtureProviderErrorCode
Stream = EventStream[CourseModelChunk, CourseModelResponse]

REQUEST_ID = "request-001"

SEED_FIRST_RESPONSE = """\
{
  "records": [
    {
      "type": "response_start",
      "responseId": "response-tool-001",
      "role": "assistant"
    },
    {
      "type": "tool_call",
      "id": "call-add-001",
      "name": "add",
      "arguments": {
        "left": 20,
        "right": 22
      }
    },
    {
      "type": "response_end",
      "responseId": "response-tool-001",
      "stopReason": "tool_call",
      "usage": {
        "inputTokens": 12,
        "outputTokens": 8
      }
    }
  ]
}"""


class NetworkUsedError(AssertionError):
    """Raised by every patched network entry point."""


def _refuse(*args: object, **kwargs: object) -> Any:
    raise NetworkUsedError("the fixture round trip must not touch the network")


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", _refuse)
    monkeypatch.setattr(socket, "create_connection", _refuse)
    monkeypatch.setattr(socket, "getaddrinfo", _refuse)
    monkeypatch.setattr(urllib.request, "urlopen", _refuse)
    monkeypatch.setattr(urllib.request.OpenerDirector, "open", _refuse)


def roundtrip() -> object:
    return json.loads(ROUNDTRIP_FIXTURE.read_text(encoding="utf-8"))


class Played(Settled[CourseModelChunk, CourseModelResponse]):
    """What one call delivered; ``error`` is its failure, typed as the adapter's."""

    @property
    def error(self) -> FixtureProviderError:
        """The typed failure, asserting iteration and result rejected with the same object."""
        return self.failure_as(FixtureProviderError)


async def drain(stream: Stream) -> Played:
    settled = await settle(stream)
    return Played(settled.events, settled.iteration_error, settled.result, settled.result_error)


async def play(adapter: FixtureProviderAdapter, request_id: str = REQUEST_ID) -> Played:
    return await drain(adapter.stream(request(request_id), live_signal()))


async def play_one(*records: object) -> Played:
    return await play(FixtureProviderAdapter(fixture(list(records))))


def invalid_fixture(value: object) -> FixtureProviderError:
    result = FixtureProviderAdapter.from_fixture(value)
    assert isinstance(result, Failure), result
    error: FixtureProviderError = result.failure()
    assert error.code is Code.PROVIDER_INVALID_FIXTURE
    with pytest.raises(FixtureProviderError) as raised:
        FixtureProviderAdapter(value)
    assert raised.value.code is Code.PROVIDER_INVALID_FIXTURE
    assert str(raised.value) == str(error)
    return error


class DictThatCountsReads(dict[Any, Any]):
    """A dict subclass whose every read hook is overridden to lie and count its calls."""

    def __init__(self, calls: list[str], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls = calls

    def __getitem__(self, key: Any) -> Any:
        self.calls.append("__getitem__")
        return "lie"

    def get(self, key: Any, default: Any = None) -> Any:
        self.calls.append("get")
        return "lie"

    def items(self) -> Any:
        self.calls.append("items")
        return iter(())

    def keys(self) -> Any:
        self.calls.append("keys")
        return iter(())

    def values(self) -> Any:
        self.calls.append("values")
        return iter(())

    def __iter__(self) -> Iterator[Any]:
        self.calls.append("__iter__")
        return iter(())

    def __contains__(self, key: object) -> bool:
        self.calls.append("__contains__")
        return False

    def __len__(self) -> int:
        self.calls.append("__len__")
        return 0

    def __missing__(self, key: Any) -> Any:
        self.calls.append("__missing__")
        return "lie"


class ListThatCountsReads(list[Any]):
    """A list subclass whose read hooks are overridden to lie and count their calls."""

    def __init__(self, calls: list[str], items: list[Any]) -> None:
        super().__init__(items)
        self.calls = calls

    def __iter__(self) -> Iterator[Any]:
        self.calls.append("__iter__")
        return iter(())

    def __getitem__(self, index: Any) -> Any:
        self.calls.append("__getitem__")
        return "lie"

    def __len__(self) -> int:
        self.calls.append("__len__")
        return 0


class Unsupported:
    """A plain object that is not JSON."""


async def records_from(*records: object) -> AsyncIterator[object]:
    for record in records:
        yield record


class SourceThatHangsAfter:
    """An async iterator that hands out its records, then never completes a step."""

    def __init__(self, *records: object) -> None:
        self.records = list(records)
        self.hanging = asyncio.Event()
        self.step_cancelled = False
        self.closed = False

    def __aiter__(self) -> SourceThatHangsAfter:
        return self

    async def __anext__(self) -> object:
        if self.records:
            return self.records.pop(0)
        self.hanging.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.step_cancelled = True
            raise
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        self.closed = True


class SourceThatRaises:
    """An async iterator whose first step raises the exception it was given."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.closed = False

    def __aiter__(self) -> SourceThatRaises:
        return self

    async def __anext__(self) -> object:
        raise self.error

    async def aclose(self) -> None:
        self.closed = True


class SourceWithHangingClose:
    """Hands out its records; its ``aclose`` never returns unless cancelled."""

    def __init__(self, *records: object) -> None:
        self.records = list(records)
        self.close_started = asyncio.Event()
        self.close_cancelled = False

    def __aiter__(self) -> SourceWithHangingClose:
        return self

    async def __anext__(self) -> object:
        if self.records:
            return self.records.pop(0)
        raise StopAsyncIteration

    async def aclose(self) -> None:
        self.close_started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.close_cancelled = True
            raise


class IterableThatMakesFreshIterators:
    """A reusable async iterable: a new generator for every response that plays it."""

    def __init__(self, *records: object) -> None:
        self.records = records

    def __aiter__(self) -> AsyncIterator[object]:
        return records_from(*self.records)


# -- the focused round trip -------------------------------------------------


def test_network_entry_points_are_patched_to_raise_in_this_module() -> None:
    with pytest.raises(NetworkUsedError):
        urllib.request.urlopen("http://example.invalid/")
    with pytest.raises(NetworkUsedError):
        socket.create_connection(("example.invalid", 80))
    with socket.socket() as raw, pytest.raises(NetworkUsedError):
        raw.connect(("127.0.0.1", 9))


async def test_checked_in_fixture_plays_tool_call_then_text_in_order_offline() -> None:
    adapter = load_fixture(ROUNDTRIP_FIXTURE).bind(FixtureProviderAdapter.from_fixture).unwrap()

    first = await play(adapter, "request-001")
    second = await play(adapter, "request-002")

    add = CourseToolCall(id="call-add-001", name="add", arguments={"left": 20, "right": 22})
    assert first.events == [CourseToolCallChunk(request_id="request-001", tool_call=add)]
    assert first.result == CourseModelResponse(
        id="response-tool-001",
        request_id="request-001",
        message=CourseAssistantMessage(id="message-response-tool-001", content=(add,)),
        stop_reason=CourseStopReason.TOOL_CALL,
        usage=CourseModelUsage(input_tokens=12, output_tokens=8),
    )
    assert second.events == [CourseTextDeltaChunk(request_id="request-002", delta="The sum is 42.")]
    assert second.result == CourseModelResponse(
        id="response-text-002",
        request_id="request-002",
        message=CourseAssistantMessage(
            id="message-response-text-002", content=(CourseTextBlock(text="The sum is 42."),)
        ),
        stop_reason=CourseStopReason.STOP,
        usage=CourseModelUsage(input_tokens=20, output_tokens=6),
    )
    assert (adapter.call_count, adapter.pending_response_count) == (2, 0)
    adapter.assert_consumed()


def test_checked_in_fixture_holds_the_seed_fragment_byte_for_byte() -> None:
    text = ROUNDTRIP_FIXTURE.read_text(encoding="utf-8")
    indented = "\n".join(
        "    " + line if line else line for line in SEED_FIRST_RESPONSE.splitlines()
    )

    assert indented in text
    document = json.loads(text)
    assert list(document) == ["schemaVersion", "responses", "expected"]
    assert document["schemaVersion"] == 1
    assert document["responses"][1] == {
        "records": [
            {"type": "response_start", "responseId": "response-text-002", "role": "assistant"},
            {"type": "text_delta", "text": "The sum is 42."},
            {
                "type": "response_end",
                "responseId": "response-text-002",
                "stopReason": "stop",
                "usage": {"inputTokens": 20, "outputTokens": 6},
            },
        ]
    }
    assert document["expected"] == {
        "toolCallId": "call-add-001",
        "toolName": "add",
        "finalText": "The sum is 42.",
    }


def test_the_adapter_satisfies_the_course_model_port() -> None:
    model: CourseModel = FixtureProviderAdapter(fixture())

    assert callable(model.stream)


def test_stream_without_a_running_loop_raises_a_clear_runtime_error() -> None:
    adapter = FixtureProviderAdapter(roundtrip())

    with pytest.raises(RuntimeError, match="running event loop"):
        adapter.stream(request(REQUEST_ID), live_signal())


# -- construction: schema version 1 and a dense finite snapshot ---------------


@pytest.mark.parametrize(
    "version", [0, 2, True, 1.5, 2.0, "1", None, -1], ids=lambda value: repr(value)
)
def test_only_schema_version_one_is_accepted(version: object) -> None:
    error = invalid_fixture({"schemaVersion": version, "responses": []})

    assert error.path == "schemaVersion"
    assert error.record_index is None


def test_a_fixture_without_schema_version_is_invalid() -> None:
    error = invalid_fixture({"responses": []})

    assert "schemaVersion must be 1, got missing" in error.message


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ([], "fixture"),
        ("{}", "fixture"),
        ({"schemaVersion": 1}, "responses"),
        ({"schemaVersion": 1, "responses": {"0": {"records": []}}}, "responses"),
        ({"schemaVersion": 1, "responses": iter([{"records": []}])}, "responses"),
        ({"schemaVersion": 1, "responses": [[]]}, "responses[0]"),
        ({"schemaVersion": 1, "responses": [{}]}, "responses[0]"),
        ({"schemaVersion": 1, "responses": [{"records": "abc"}]}, "responses[0].records"),
        ({"schemaVersion": 1, "responses": [{"records": {"0": {}}}]}, "responses[0].records"),
        ({"schemaVersion": 1, "responses": [{"records": iter([])}]}, "responses[0].records"),
        ({"schemaVersion": 1, "responses": [{"records": None}]}, "responses[0].records"),
        ({1: 1, "schemaVersion": 1, "responses": []}, "fixture"),
    ],
    ids=[
        "list-fixture",
        "str-fixture",
        "missing-responses",
        "dict-responses",
        "one-shot-iterator-responses",
        "list-response",
        "missing-records",
        "str-records",
        "dict-records",
        "sync-iterator-records",
        "null-records",
        "non-str-top-level-key",
    ],
)
def test_a_fixture_that_is_not_a_finite_schema_one_queue_is_invalid(
    value: object, path: str
) -> None:
    assert invalid_fixture(value).path == path


def test_unknown_top_level_and_response_keys_are_ignored() -> None:
    adapter = FixtureProviderAdapter(
        {
            "schemaVersion": 1,
            "comment": object(),
            "responses": [{"records": [], "note": object()}],
        }
    )

    assert adapter.pending_response_count == 1


async def test_later_mutation_of_the_callers_fixture_changes_nothing() -> None:
    records: list[Any] = [
        start(),
        text("first"),
        tool_call("call-1", arguments={"left": [1, {"deep": "original"}]}),
        end(stop_reason="tool_call"),
    ]
    document: dict[str, Any] = fixture(records)
    adapter = FixtureProviderAdapter(document)

    records[1]["delta"] = "rewritten"
    records[2]["arguments"]["left"][1]["deep"] = "rewritten"
    records.insert(0, text("injected"))
    document["responses"].append({"records": [start()]})
    document["schemaVersion"] = 2
    played = await play(adapter)

    assert [type(chunk) for chunk in played.events] == [CourseTextDeltaChunk, CourseToolCallChunk]
    assert played.events[0] == CourseTextDeltaChunk(request_id="request-001", delta="first")
    call = played.events[1]
    assert isinstance(call, CourseToolCallChunk)
    assert thaw_json(call.tool_call.arguments) == {"left": [1, {"deep": "original"}]}
    assert isinstance(call.tool_call.arguments, frozendict)
    assert adapter.pending_response_count == 0


@pytest.mark.parametrize(
    ("bad_value", "path_suffix"),
    [
        (Unsupported(), ".arguments.x"),
        (b"bytes", ".arguments.x"),
        ({1: "non-str key"}, ".arguments.x"),
        ({"set": {1, 2}}, ".arguments.x.set"),
    ],
    ids=["object", "bytes", "int-key", "set"],
)
def test_array_records_that_are_not_json_fail_at_construction_with_their_path(
    bad_value: object, path_suffix: str
) -> None:
    error = invalid_fixture(
        fixture([start(), text("ok"), tool_call("call-1", arguments={"x": bad_value})])
    )

    assert error.record_index == 2
    assert error.path == "responses[0].records[2]" + path_suffix


def test_cyclic_and_overly_deep_records_fail_at_construction_without_recursion_errors() -> None:
    cyclic: dict[str, Any] = {"type": "text_delta"}
    cyclic["self"] = cyclic
    deep = nested_lists(100_001)

    cycle_error = invalid_fixture(fixture([start(), cyclic]))
    deep_error = invalid_fixture(fixture([start(), text("a"), deep]))

    assert (cycle_error.record_index, cycle_error.path) == (1, "responses[0].records[1].self")
    assert "cycle" in cycle_error.message
    assert deep_error.record_index == 2
    assert "JSON_MAX_DEPTH" in deep_error.message


# -- own fields only: overridden read hooks never run -------------------------


async def test_dict_and_list_subclasses_are_read_without_invoking_their_overrides() -> None:
    calls: list[str] = []

    def counting(value: dict[str, Any]) -> DictThatCountsReads:
        return DictThatCountsReads(calls, value)

    records = ListThatCountsReads(
        calls,
        [
            counting(start()),
            counting(
                {
                    "type": "tool_call",
                    "id": "call-1",
                    "name": "add",
                    "arguments": counting({"__proto__": {"polluted": True}, "__class__": 1}),
                }
            ),
            counting(
                {
                    "type": "response_end",
                    "responseId": "r-1",
                    "stopReason": "tool_call",
                    "usage": counting({"input_tokens": 1, "outputTokens": 2}),
                }
            ),
        ],
    )
    document = counting(
        {
            "schemaVersion": 1,
            "responses": ListThatCountsReads(calls, [counting({"records": records})]),
        }
    )

    adapter = FixtureProviderAdapter(document)
    played = await play(adapter)

    assert calls == []
    assert played.result is not None
    call = played.result.message.content[0]
    assert isinstance(call, CourseToolCall)
    assert call.arguments == {"__proto__": {"polluted": True}, "__class__": 1}
    assert played.result.usage == CourseModelUsage(input_tokens=1, output_tokens=2)


def test_an_aiter_defined_on_the_instance_only_is_not_an_async_source() -> None:
    class Impostor:
        pass

    impostor = Impostor()
    impostor.__aiter__ = lambda: records_from()  # type: ignore[attr-defined]

    assert invalid_fixture(fixture(impostor)).path == "responses[0].records"


# -- records: order, ids, usage, terminal --------------------------------------


async def test_text_order_and_opaque_tool_call_ids_survive_normalization() -> None:
    played = await play_one(
        start("resp/ÿ 7"),
        text("The "),
        tool_call("  call::Ünïcode-0001  ", name="add", arguments={"left": 20, "right": 22}),
        text(""),
        text("sum"),
        tool_call("CALL-add-001", name="mul", arguments={"factors": [6, 7]}),
        end("resp/ÿ 7", stop_reason="tool_call"),
    )

    assert played.result is not None
    kinds = [
        (chunk.tool_call.id if isinstance(chunk, CourseToolCallChunk) else chunk.delta)
        for chunk in played.events
    ]
    assert kinds == ["The ", "  call::Ünïcode-0001  ", "", "sum", "CALL-add-001"]
    assert played.result.message.content == tuple(
        chunk.tool_call
        if isinstance(chunk, CourseToolCallChunk)
        else CourseTextBlock(text=chunk.delta)
        for chunk in played.events
    )
    assert played.result.id == "resp/ÿ 7"
    assert played.result.message.id == "message-resp/ÿ 7"
    assert all(chunk.request_id == "request-001" for chunk in played.events)


@pytest.mark.parametrize(
    "usage",
    [
        {"inputTokens": 12, "outputTokens": 8},
        {"input_tokens": 12, "output_tokens": 8},
        {"inputTokens": 12, "output_tokens": 8},
        {"input_tokens": 12, "outputTokens": 8, "cacheTokens": 99},
    ],
    ids=["camel", "snake", "camel-input-snake-output", "snake-input-camel-output-extra-key"],
)
async def test_camel_or_snake_usage_becomes_one_frozen_usage_object(
    usage: dict[str, object],
) -> None:
    played = await play_one(start(), text("x"), end(usage=usage))

    assert played.result is not None
    assert played.result.usage == CourseModelUsage(input_tokens=12, output_tokens=8)
    assert parse_wire_usage(usage) == Success(CourseModelUsage(input_tokens=12, output_tokens=8))
    with pytest.raises(AttributeError):
        played.result.usage.input_tokens = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("usage", "path"),
    [
        ({"inputTokens": 1, "input_tokens": 1, "outputTokens": 2}, "usage"),
        ({"inputTokens": 1, "input_tokens": None, "outputTokens": 2}, "usage"),
        ({"inputTokens": None, "input_tokens": 1, "outputTokens": 2}, "usage"),
        ({"inputTokens": 1, "outputTokens": 2, "output_tokens": None}, "usage"),
        ({"inputTokens": True, "outputTokens": 2}, "usage.inputTokens"),
        ({"inputTokens": 1, "output_tokens": False}, "usage.output_tokens"),
        ({"inputTokens": -1, "outputTokens": 2}, "usage.inputTokens"),
        ({"inputTokens": 2**53, "outputTokens": 2}, "usage.inputTokens"),
        ({"inputTokens": 1.5, "outputTokens": 2}, "usage.inputTokens"),
        ({"inputTokens": "1", "outputTokens": 2}, "usage.inputTokens"),
        ({"inputTokens": None, "outputTokens": 2}, "usage.inputTokens"),
        ({"outputTokens": 2}, "usage.input_tokens"),
        ({"inputTokens": 1}, "usage.output_tokens"),
        ([1, 2], "usage"),
        ("12/8", "usage"),
    ],
    ids=[
        "both-input-aliases",
        "input-alias-with-snake-none",
        "input-alias-with-camel-none",
        "output-alias-with-snake-none",
        "bool-input",
        "bool-output",
        "negative",
        "beyond-safe-integer",
        "fraction",
        "string",
        "null-count",
        "missing-input",
        "missing-output",
        "array",
        "string-usage",
    ],
)
async def test_invalid_usage_and_duplicate_aliases_are_rejected_as_invalid_events(
    usage: object, path: str
) -> None:
    played = await play_one(start(), text("x"), end(usage=usage))

    assert played.error.code is Code.PROVIDER_INVALID_EVENT
    assert played.error.record_index == 2
    assert played.error.path == f"responses[0].records[2].{path}"
    assert played.events == [CourseTextDeltaChunk(request_id="request-001", delta="x")]
    parsed = parse_wire_usage(usage)
    assert isinstance(parsed, Failure)
    assert parsed.failure().code is Code.PROVIDER_INVALID_EVENT


def test_stop_reason_parsing_normalizes_the_wire_spelling_only() -> None:
    assert parse_wire_stop_reason("tool_call") == Success(CourseStopReason.TOOL_CALL)
    assert parse_wire_stop_reason("stop") == Success(CourseStopReason.STOP)
    for value in ("toolCall", "STOP", "", None, 1):
        parsed = parse_wire_stop_reason(value)
        assert isinstance(parsed, Failure)
        assert parsed.failure().code is Code.PROVIDER_INVALID_EVENT


@pytest.mark.parametrize(
    ("records", "code", "record_index"),
    [
        ([start(), tool_call("c1"), end()], Code.PROVIDER_INVALID_TERMINAL, 2),
        ([start(), text("x"), end(stop_reason="tool_call")], Code.PROVIDER_INVALID_TERMINAL, 2),
        ([start(), end(stop_reason="tool_call")], Code.PROVIDER_INVALID_TERMINAL, 1),
        ([start("a"), text("x"), end("b")], Code.PROVIDER_RESPONSE_MISMATCH, 2),
        ([start(), text("x"), end(), end()], Code.PROVIDER_DUPLICATE_TERMINAL, 3),
        ([start(), end(), text("late")], Code.PROVIDER_INVALID_TERMINAL, 2),
        ([start(), end(), start()], Code.PROVIDER_INVALID_TERMINAL, 2),
        ([start(), end(), {"type": "mystery"}], Code.PROVIDER_INVALID_TERMINAL, 2),
        ([start(), end(), "not an object"], Code.PROVIDER_INVALID_EVENT, 2),
        (
            [start(), end(), {"type": "transport_error", "code": "x", "message": "y"}],
            Code.PROVIDER_INVALID_TERMINAL,
            2,
        ),
        ([start(), text("x")], Code.PROVIDER_MISSING_TERMINAL, 2),
        ([], Code.PROVIDER_MISSING_TERMINAL, 0),
    ],
    ids=[
        "stop-with-tool-call",
        "tool-call-stop-without-tool-call",
        "tool-call-stop-on-empty-message",
        "mismatched-response-id",
        "second-response-end",
        "text-after-end",
        "start-after-end",
        "unknown-after-end",
        "non-object-after-end",
        "transport-error-after-end",
        "no-response-end",
        "no-records-at-all",
    ],
)
async def test_exactly_one_correlated_terminal_agreeing_with_the_tool_calls_is_required(
    records: list[object], code: FixtureProviderErrorCode, record_index: int
) -> None:
    played = await play_one(*records)

    assert played.error.code is code
    assert played.error.record_index == record_index


# -- the failure experiment -----------------------------------------------------


async def test_without_response_end_the_tool_call_is_seen_then_both_paths_fail() -> None:
    document: Any = roundtrip()
    without_end = copy.deepcopy(document)
    del without_end["responses"][1]
    del without_end["responses"][0]["records"][2]
    stream = FixtureProviderAdapter(without_end).stream(request(REQUEST_ID), live_signal())

    iterator = aiter(stream)
    first = await asyncio.wait_for(anext(iterator), GUARD_SECONDS)
    with pytest.raises(FixtureProviderError) as from_iteration:
        await asyncio.wait_for(anext(iterator), GUARD_SECONDS)
    with pytest.raises(FixtureProviderError) as from_result:
        await asyncio.wait_for(stream.result, GUARD_SECONDS)

    assert isinstance(first, CourseToolCallChunk)
    assert first.tool_call.id == "call-add-001"
    assert from_iteration.value is from_result.value
    assert from_result.value.code is Code.PROVIDER_MISSING_TERMINAL
    assert from_result.value.record_index == 2

    restored = copy.deepcopy(without_end)
    restored["responses"][0]["records"].append(document["responses"][0]["records"][2])
    played = await play(FixtureProviderAdapter(restored))

    assert played.result is not None
    assert played.result.stop_reason is CourseStopReason.TOOL_CALL


# -- every code, with its record index -----------------------------------------


TRANSPORT_FAILURE = {"type": "transport_error", "code": "rate_limited", "message": "slow down"}

EVERY_CODE: list[tuple[FixtureProviderErrorCode, list[object], int | None, str | None]] = [
    (Code.PROVIDER_UNKNOWN_EVENT, [start(), {"type": "thinking_delta"}], 1, None),
    (Code.PROVIDER_INVALID_EVENT, [start(), text("a"), {"type": 7}], 2, None),
    (Code.PROVIDER_MISSING_START, [text("a")], 0, None),
    (Code.PROVIDER_DUPLICATE_START, [start(), text("a"), start()], 2, None),
    (Code.PROVIDER_MISSING_TERMINAL, [start(), text("a"), text("b")], 3, None),
    (Code.PROVIDER_DUPLICATE_TERMINAL, [start(), end(), end()], 2, None),
    (Code.PROVIDER_RESPONSE_MISMATCH, [start("a"), end("b")], 1, None),
    (Code.PROVIDER_INVALID_TERMINAL, [start(), tool_call("c"), end()], 2, None),
    (Code.PROVIDER_TRANSPORT_ERROR, [start(), text("a"), TRANSPORT_FAILURE], 2, "rate_limited"),
]


@pytest.mark.parametrize(
    ("code", "records", "record_index", "provider_code"),
    EVERY_CODE,
    ids=[code.value for code, *_ in EVERY_CODE],
)
async def test_record_codes_carry_their_record_index_and_provider_code(
    code: FixtureProviderErrorCode,
    records: list[object],
    record_index: int | None,
    provider_code: str | None,
) -> None:
    played = await play_one(*records)

    assert played.error.code is code
    assert played.error.record_index == record_index
    assert played.error.provider_code == provider_code


async def test_invalid_fixture_exhausted_and_iterator_reused_are_reachable_too() -> None:
    invalid = invalid_fixture(fixture([start(), {"type": "text_delta", "text": Unsupported()}]))
    exhausted = (await play(FixtureProviderAdapter(fixture()))).error
    source = records_from(start(), end())
    adapter = FixtureProviderAdapter(fixture(source, source))
    await play(adapter)
    reused = (await play(adapter)).error
    strict = FixtureProviderAdapter(fixture(), validate_requests=True)
    orphan = CourseToolResultMessage("t", "call-x", "add", "42")
    bad_request = CourseModelRequest("request-bad", (orphan,))
    stream = strict.stream(bad_request, live_signal())
    with pytest.raises(FixtureProviderError) as refused:
        await asyncio.wait_for(stream.result, GUARD_SECONDS)
    matching = FixtureProviderAdapter(
        {"schemaVersion": 1, "responses": [{"request": {"id": "other"}, "records": []}]},
        match_requests=True,
    )
    with pytest.raises(FixtureProviderError) as mismatched:
        await asyncio.wait_for(matching.stream(request(), live_signal()).result, GUARD_SECONDS)

    assert (invalid.code, invalid.record_index) == (Code.PROVIDER_INVALID_FIXTURE, 1)
    assert (exhausted.code, exhausted.record_index) == (Code.PROVIDER_EXHAUSTED, None)
    assert (reused.code, reused.record_index) == (Code.PROVIDER_ITERATOR_REUSED, None)
    assert refused.value.code is Code.PROVIDER_INVALID_REQUEST
    reached = {code for code, *_ in EVERY_CODE} | {
        invalid.code,
        exhausted.code,
        reused.code,
        refused.value.code,
        mismatched.value.code,
    }
    assert reached == set(FixtureProviderErrorCode)


async def test_a_transport_error_before_the_start_fails_with_its_provider_code() -> None:
    played = await play_one(TRANSPORT_FAILURE, start(), end())

    assert played.error.code is Code.PROVIDER_TRANSPORT_ERROR
    assert (played.error.record_index, played.error.provider_code) == (0, "rate_limited")
    assert "slow down" in played.error.message
    assert played.events == []


# -- unknown and malformed records ------------------------------------------------


@pytest.mark.parametrize(
    ("record", "code", "path"),
    [
        ("text_delta", Code.PROVIDER_INVALID_EVENT, ""),
        (None, Code.PROVIDER_INVALID_EVENT, ""),
        (["type", "text_delta"], Code.PROVIDER_INVALID_EVENT, ""),
        ({"text": "no type"}, Code.PROVIDER_INVALID_EVENT, ".type"),
        ({"type": None}, Code.PROVIDER_INVALID_EVENT, ".type"),
        ({"type": "textDelta", "text": "a"}, Code.PROVIDER_UNKNOWN_EVENT, ".type"),
        ({"type": "TEXT_DELTA", "text": "a"}, Code.PROVIDER_UNKNOWN_EVENT, ".type"),
        ({"type": "__proto__"}, Code.PROVIDER_UNKNOWN_EVENT, ".type"),
        ({"type": "text_delta"}, Code.PROVIDER_INVALID_EVENT, ".text"),
        ({"type": "text_delta", "delta": "old spelling"}, Code.PROVIDER_INVALID_EVENT, ".text"),
        ({"type": "text_delta", "text": 5}, Code.PROVIDER_INVALID_EVENT, ".text"),
        ({"type": "text_delta", "text": None}, Code.PROVIDER_INVALID_EVENT, ".text"),
        (tool_call(""), Code.PROVIDER_INVALID_EVENT, ".id"),
        (tool_call("   "), Code.PROVIDER_INVALID_EVENT, ".id"),
        (tool_call("c", name=""), Code.PROVIDER_INVALID_EVENT, ".name"),
        ({"type": "tool_call", "id": 1, "name": "add", "arguments": {}}, None, ".id"),
        ({"type": "tool_call", "id": "c", "name": "add"}, None, ".arguments"),
        ({"type": "tool_call", "id": "c", "name": "add", "arguments": None}, None, ".arguments"),
        ({"type": "tool_call", "id": "c", "name": "add", "arguments": [1]}, None, ".arguments"),
        ({"type": "tool_call", "id": "c", "name": "add", "arguments": "{}"}, None, ".arguments"),
        ({"type": "transport_error", "message": "m"}, None, ".code"),
        ({"type": "transport_error", "code": "c"}, None, ".message"),
        ({"type": "response_end", "stopReason": "stop", "usage": {}}, None, ".responseId"),
        (end(stop_reason="toolCall"), None, ".stopReason"),
        (end(stop_reason=None), None, ".stopReason"),
        (
            {"type": "response_end", "responseId": "r-1", "stopReason": "stop"},
            None,
            ".usage",
        ),
    ],
)
async def test_malformed_and_unknown_records_fail_with_stable_codes(
    record: object, code: FixtureProviderErrorCode | None, path: str
) -> None:
    played = await play_one(start(), text("before"), record, end())

    assert played.error.code is (code or Code.PROVIDER_INVALID_EVENT)
    assert played.error.record_index == 2
    assert played.error.path == "responses[0].records[2]" + path
    assert played.events == [CourseTextDeltaChunk(request_id="request-001", delta="before")]


@pytest.mark.parametrize("role", [None, "user", "Assistant", 1], ids=lambda value: repr(value))
async def test_response_start_must_declare_the_assistant_role(role: object) -> None:
    record = start(role=role)

    played = await play_one(record, text("x"), end())

    assert (played.error.code, played.error.path) == (
        Code.PROVIDER_INVALID_EVENT,
        "responses[0].records[0].role",
    )


async def test_a_repeated_tool_call_id_is_an_invalid_event_and_emits_nothing_more() -> None:
    played = await play_one(
        start(), tool_call("call-1"), tool_call("call-1"), end(stop_reason="tool_call")
    )

    assert (played.error.code, played.error.record_index) == (Code.PROVIDER_INVALID_EVENT, 2)
    assert [chunk.tool_call.id for chunk in played.events] == ["call-1"]  # type: ignore[union-attr]


@pytest.mark.parametrize("record", [text("a"), tool_call("c"), end()], ids=["text", "tool", "end"])
async def test_records_before_the_response_start_fail_with_missing_start(record: object) -> None:
    played = await play_one(record, start(), end())

    assert (played.error.code, played.error.record_index) == (Code.PROVIDER_MISSING_START, 0)
    assert played.events == []


# -- queue, exhaustion and cancellation ------------------------------------------


async def test_an_empty_queue_rejects_iteration_and_result_with_exhausted() -> None:
    adapter = FixtureProviderAdapter(fixture([start(), end()]))
    await play(adapter)

    played = await play(adapter, "request-002")

    assert played.error.code is Code.PROVIDER_EXHAUSTED
    assert "request-002" in played.error.message
    assert adapter.call_count == 2


async def test_a_pre_cancelled_call_is_counted_and_keeps_the_response_queued() -> None:
    adapter = FixtureProviderAdapter(roundtrip())
    reason = AbortError("cancelled before the call")

    cancelled = await drain(adapter.stream(request(REQUEST_ID), AbortSignal.aborted_signal(reason)))

    assert cancelled.iteration_error is reason
    assert cancelled.result_error is reason
    assert (adapter.call_count, adapter.pending_response_count) == (1, 2)
    retried = await play(adapter, "request-retry")
    assert retried.result is not None
    assert retried.result.id == "response-tool-001"
    assert (adapter.call_count, adapter.pending_response_count) == (2, 1)


async def test_an_abort_right_after_the_call_keeps_the_response_queued() -> None:
    adapter = FixtureProviderAdapter(roundtrip())
    controller = AbortController()

    stream = adapter.stream(request(REQUEST_ID), controller.signal)
    controller.abort()
    cancelled = await drain(stream)

    assert isinstance(cancelled.result_error, AbortError)
    assert adapter.pending_response_count == 2


async def test_a_mid_stream_abort_interrupts_the_pending_step_and_closes_the_source() -> None:
    source = SourceThatHangsAfter(start(), text("partial"))
    adapter = FixtureProviderAdapter(fixture(source))
    controller = AbortController()
    reason = TimeoutError("the caller gave up")
    stream = adapter.stream(request(REQUEST_ID), controller.signal)
    iterator = aiter(stream)

    first = await asyncio.wait_for(anext(iterator), GUARD_SECONDS)
    await asyncio.wait_for(source.hanging.wait(), GUARD_SECONDS)
    controller.abort(reason)
    with pytest.raises(TimeoutError) as from_iteration:
        await asyncio.wait_for(anext(iterator), GUARD_SECONDS)
    with pytest.raises(TimeoutError) as from_result:
        await asyncio.wait_for(stream.result, GUARD_SECONDS)

    assert first == CourseTextDeltaChunk(request_id="request-001", delta="partial")
    assert from_iteration.value is reason
    assert from_result.value is reason
    assert source.step_cancelled is True
    assert source.closed is True


async def test_a_mid_stream_abort_runs_an_async_generators_cleanup() -> None:
    cleaned: list[str] = []

    async def generator() -> AsyncIterator[object]:
        try:
            yield start()
            yield text("partial")
            await asyncio.Event().wait()
        finally:
            cleaned.append("finally")

    controller = AbortController()
    stream = FixtureProviderAdapter(fixture(generator())).stream(
        request(REQUEST_ID), controller.signal
    )
    iterator = aiter(stream)
    await asyncio.wait_for(anext(iterator), GUARD_SECONDS)
    controller.abort()

    played = await drain(stream)

    assert isinstance(played.result_error, AbortError)
    assert cleaned == ["finally"]


# -- hostile async sources -------------------------------------------------------


async def test_an_async_source_plays_like_an_array() -> None:
    document: Any = roundtrip()
    records = document["responses"][0]["records"]
    array = await play(FixtureProviderAdapter(fixture(records)))

    streamed = await play(FixtureProviderAdapter(fixture(records_from(*records))))

    assert streamed.events == array.events
    assert streamed.result == array.result


async def test_a_forged_error_raised_by_a_source_is_not_trusted() -> None:
    forged = FixtureProviderError(Code.PROVIDER_TRANSPORT_ERROR, "trust me", provider_code="x")
    source = SourceThatRaises(forged)

    played = await play(FixtureProviderAdapter(fixture(source)))

    assert played.error is not forged
    assert played.error.code is Code.PROVIDER_INVALID_FIXTURE
    assert played.error.message.startswith("Async fixture record source failed")
    assert played.error.provider_code is None
    assert played.error.__cause__ is forged
    assert source.closed is True


@pytest.mark.parametrize(
    "error",
    [ValueError("boom"), RecursionError(), asyncio.CancelledError(), KeyError("k")],
    ids=["value-error", "recursion-error", "spontaneous-cancelled-error", "key-error"],
)
async def test_source_failures_become_invalid_fixture_with_the_original_as_cause(
    error: BaseException,
) -> None:
    source = SourceThatRaises(error)

    played = await play(FixtureProviderAdapter(fixture(source)))

    assert played.error.code is Code.PROVIDER_INVALID_FIXTURE
    assert played.error.record_index == 0
    assert played.error.__cause__ is error
    assert source.closed is True


async def test_a_stop_iteration_leaking_from_a_step_is_a_source_failure_not_an_end() -> None:
    leaked = StopIteration()

    played = await play(FixtureProviderAdapter(fixture(SourceThatRaises(leaked))))

    assert played.error.code is Code.PROVIDER_INVALID_FIXTURE
    assert isinstance(played.error.__cause__, RuntimeError)
    assert played.error.__cause__.__cause__ is leaked


async def test_a_source_whose_aiter_or_step_misbehaves_is_an_invalid_fixture() -> None:
    class AiterRaises:
        def __aiter__(self) -> AsyncIterator[object]:
            raise LookupError("no iterator today")

    class AiterReturnsNoIterator:
        def __aiter__(self) -> object:
            return object()

    class StepIsNotAwaitable:
        def __aiter__(self) -> StepIsNotAwaitable:
            return self

        def __anext__(self) -> object:
            return start()

    for source in (AiterRaises(), AiterReturnsNoIterator(), StepIsNotAwaitable()):
        played = await play(FixtureProviderAdapter(fixture(source)))
        assert played.error.code is Code.PROVIDER_INVALID_FIXTURE
        assert played.error.message.startswith("Async fixture record source failed")


async def test_a_source_record_that_is_not_json_is_an_invalid_event_at_its_index() -> None:
    cyclic: list[object] = []
    cyclic.append(cyclic)
    source = SourceThatHangsAfter(start(), text("a"), {"type": "text_delta", "text": cyclic})

    played = await play(FixtureProviderAdapter(fixture(source)))

    assert played.error.code is Code.PROVIDER_INVALID_EVENT
    assert played.error.record_index == 2
    assert played.error.path == "responses[0].records[2].text[0]"
    assert source.closed is True


async def test_a_failing_close_never_replaces_the_primary_error() -> None:
    class CloseFails(SourceThatHangsAfter):
        async def aclose(self) -> None:
            raise OSError("close failed")

    played = await play(FixtureProviderAdapter(fixture(CloseFails(start(), {"type": "?"}))))

    assert played.error.code is Code.PROVIDER_UNKNOWN_EVENT


async def test_a_hanging_close_does_not_delay_the_failure_and_an_abort_interrupts_it() -> None:
    source = SourceWithHangingClose(start(), {"type": "?"})
    controller = AbortController()

    played = await drain(
        FixtureProviderAdapter(fixture(source)).stream(request(REQUEST_ID), controller.signal)
    )
    await asyncio.wait_for(source.close_started.wait(), GUARD_SECONDS)
    controller.abort()
    for _ in range(5):
        await asyncio.sleep(0)

    assert played.error.code is Code.PROVIDER_UNKNOWN_EVENT
    assert source.close_cancelled is True


class SourceThatHangsThenHangsOnClose(SourceThatHangsAfter):
    """Never completes its last step, and its ``aclose`` never returns unless cancelled."""

    close_calls = 0
    close_cancelled = False

    async def aclose(self) -> None:
        self.close_calls += 1
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.close_cancelled = True
            raise


async def producer_tasks_settle() -> None:
    assert await tasks_left(10) == set()


async def test_an_abort_interrupts_a_hanging_close_of_the_source_it_stopped() -> None:
    source = SourceThatHangsThenHangsOnClose(start())
    controller = AbortController()
    stream = FixtureProviderAdapter(fixture(source)).stream(request(REQUEST_ID), controller.signal)
    await asyncio.wait_for(source.hanging.wait(), GUARD_SECONDS)

    controller.abort()
    played = await drain(stream)
    await producer_tasks_settle()

    assert isinstance(played.result_error, AbortError)
    assert source.close_calls == 1
    assert source.close_cancelled is True


async def test_a_step_that_aborts_and_returns_closes_a_hanging_source_once() -> None:
    controller = AbortController()

    class AbortsInItsStep(SourceThatHangsThenHangsOnClose):
        async def __anext__(self) -> object:
            if self.records:
                return self.records.pop(0)
            controller.abort()
            return text("after the abort")

    source = AbortsInItsStep(start())
    played = await drain(
        FixtureProviderAdapter(fixture(source)).stream(request(REQUEST_ID), controller.signal)
    )
    await producer_tasks_settle()

    assert isinstance(played.result_error, AbortError)
    assert played.events == []
    assert source.close_calls == 1
    assert source.close_cancelled is True


async def test_an_async_iterator_feeds_one_call_only_across_adapters() -> None:
    source = records_from(start(), text("once"), end())
    first_adapter = FixtureProviderAdapter(fixture(source))
    second_adapter = FixtureProviderAdapter(fixture(source))

    first = await play(first_adapter)
    second = await play(second_adapter)

    assert first.result is not None
    assert second.error.code is Code.PROVIDER_ITERATOR_REUSED
    assert second.error.record_index is None


async def test_concurrent_calls_cannot_share_one_async_iterator() -> None:
    source = SourceThatHangsAfter(start(), text("a"))
    adapter = FixtureProviderAdapter(fixture(source, source))
    controller = AbortController()

    first_stream = adapter.stream(request("request-a"), controller.signal)
    second_stream = adapter.stream(request("request-b"), live_signal())
    second = await drain(second_stream)
    controller.abort()
    first = await drain(first_stream)

    assert second.error.code is Code.PROVIDER_ITERATOR_REUSED
    assert [chunk.request_id for chunk in first.events] == ["request-a"]
    assert isinstance(first.result_error, AbortError)


async def test_a_reusable_async_iterable_may_feed_several_responses() -> None:
    iterable = IterableThatMakesFreshIterators(start(), text("again"), end())
    adapter = FixtureProviderAdapter(fixture(iterable, iterable))

    first = await play(adapter)
    second = await play(adapter)

    assert first.result == second.result
    assert first.result is not None


# -- strict loading ------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"schemaVersion": 1, "schemaVersion": 1, "responses": []}', "duplicate object key"),
        (b'{"schemaVersion": 1, "responses": [{"records": [NaN]}]}', "NaN"),
        (b'{"schemaVersion": 1, "responses": [{"records": [-Infinity]}]}', "-Infinity"),
        (b'{"schemaVersion": 1, "responses": []}\xff', "invalid UTF-8"),
        (b'{"schemaVersion": 1, "responses": [', "Expecting value"),
        (b"[" * 100_000 + b"]" * 100_000, "too deep"),
    ],
    ids=["duplicate-key", "nan", "infinity", "bad-utf8", "truncated", "deep"],
)
def test_load_fixture_is_strict(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "fixture.json"
    path.write_bytes(content)

    loaded = load_fixture(path)

    assert isinstance(loaded, Failure)
    assert loaded.failure().code is Code.PROVIDER_INVALID_FIXTURE
    assert reason in loaded.failure().message


def test_load_fixture_reports_a_missing_file_with_the_os_reason(tmp_path: Path) -> None:
    loaded = load_fixture(tmp_path / "absent.json")

    assert isinstance(loaded, Failure)
    assert loaded.failure().code is Code.PROVIDER_INVALID_FIXTURE
    assert "No such file or directory" in loaded.failure().message


def test_load_fixture_composes_with_from_fixture() -> None:
    adapter = load_fixture(ROUNDTRIP_FIXTURE).bind(FixtureProviderAdapter.from_fixture)

    assert isinstance(adapter, Success)
    assert adapter.unwrap().pending_response_count == 2


# -- bookkeeping ------------------------------------------------------------------


async def test_assert_consumed_reports_unplayed_responses() -> None:
    adapter = FixtureProviderAdapter(roundtrip())
    await play(adapter)

    with pytest.raises(AssertionError, match=r"1 fixture response\(s\) never played"):
        adapter.assert_consumed()
    await play(adapter)
    adapter.assert_consumed()


async def test_a_failed_response_is_not_put_back_in_the_queue() -> None:
    adapter = FixtureProviderAdapter(fixture([start(), {"type": "?"}], [start(), end()]))

    failed = await play(adapter)
    next_one = await play(adapter)

    assert failed.error.code is Code.PROVIDER_UNKNOWN_EVENT
    assert next_one.result is not None
    assert adapter.pending_response_count == 0
