"""Unit tests of the fixture adapter's boundary pieces: errors, loader, snapshot, parsers."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from returns.result import Failure, Success

from course_protocol import (
    CourseModelRequest,
    CourseStopReason,
    CourseTextDeltaChunk,
)
from course_protocol.untrusted import special_method
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    _wire,
    load_fixture,
    parse_records,
)
from course_provider_fixture._fixture import parse_fixture, snapshot_record
from course_stream import AbortController, AbortError, AbortSignal
from tests.course_provider_fixture.records import end, fixture, start, text, transport_error
from tests.requests import request

Code = FixtureProviderErrorCode
WIRE_CONTRACT_NAMES = {
    "response_start",
    "text_delta",
    "tool_call",
    "response_end",
    "transport_error",
    "responseId",
    "input_tokens",
    "output_tokens",
    "schemaVersion",
}


def test_every_code_has_a_one_line_docstring_and_its_own_name_as_value() -> None:
    for code in FixtureProviderErrorCode:
        assert code.value == code.name
        assert code.__doc__ is not None
        assert "\n" not in code.__doc__.strip()
    assert len(FixtureProviderErrorCode) == 14


def test_errors_pickle_with_all_their_metadata() -> None:
    error = FixtureProviderError(
        Code.PROVIDER_TRANSPORT_ERROR, "failed", record_index=3, provider_code="x", path="p"
    )

    copy = pickle.loads(pickle.dumps(error))

    assert (copy.code, copy.message, copy.record_index, copy.provider_code, copy.path) == (
        Code.PROVIDER_TRANSPORT_ERROR,
        "failed",
        3,
        "x",
        "p",
    )
    assert str(copy) == "PROVIDER_TRANSPORT_ERROR: failed"


def test_an_unknown_code_string_is_refused_by_the_error() -> None:
    with pytest.raises(ValueError, match="NOT_A_CODE"):
        FixtureProviderError("NOT_A_CODE", "x")  # type: ignore[arg-type]


def test_the_wire_module_spells_every_name_the_contract_guards() -> None:
    spelled = {value for value in vars(_wire).values() if isinstance(value, str)} | {
        alias
        for aliases in (_wire.INPUT_TOKENS_ALIASES, _wire.OUTPUT_TOKENS_ALIASES)
        for alias in aliases
    }

    assert spelled >= WIRE_CONTRACT_NAMES


@pytest.mark.parametrize("path", [3, None, b"\x00bad"], ids=["fd-int", "none", "nul-bytes"])
def test_load_fixture_never_raises_on_odd_path_arguments(path: Any) -> None:
    loaded = load_fixture(path)

    assert isinstance(loaded, Failure)
    assert loaded.failure().code is Code.PROVIDER_INVALID_FIXTURE


def test_load_fixture_reports_a_directory_with_the_os_reason(tmp_path: Path) -> None:
    loaded = load_fixture(tmp_path)

    assert isinstance(loaded, Failure)
    assert "Is a directory" in loaded.failure().message


def test_load_fixture_returns_plain_values_and_keeps_key_order(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_text('{"b": 1, "a": [1.5, null, true, "__proto__"]}', encoding="utf-8")

    assert load_fixture(path) == Success({"b": 1, "a": [1.5, None, True, "__proto__"]})


def test_a_flat_record_snapshot_is_a_fresh_private_copy() -> None:
    record = {"type": "text_delta", "text": "x"}

    snapshot = snapshot_record(record, "records", 0)

    assert snapshot == record
    assert snapshot is not record
    assert type(snapshot) is dict


def test_a_str_subclass_value_is_not_flat_and_is_rejected_with_its_path() -> None:
    class Sneaky(str):
        pass

    snapshot = snapshot_record({"type": "text_delta", "text": Sneaky("x")}, "records", 4)

    assert getattr(snapshot, "path", None) == "records[4].text"


def test_async_iter_lookup_reads_the_type_and_never_runs_metaclass_hooks() -> None:
    calls: list[str] = []

    class Meta(type):
        def __getattribute__(cls, name: str) -> Any:
            calls.append(name)
            return super().__getattribute__(name)

    class Source(metaclass=Meta):
        def __aiter__(self) -> Any:
            return self

    class Disabled(Source):
        __aiter__ = None  # type: ignore[assignment]

    assert special_method(Source(), "__aiter__") is not None
    assert special_method(Disabled(), "__aiter__") is None
    assert special_method([], "__aiter__") is None
    assert calls == []


def test_parse_fixture_names_the_response_and_record_of_a_bad_value() -> None:
    parsed = parse_fixture(
        {"schemaVersion": 1, "responses": [{"records": []}, {"records": [{}, {"x": {1}}]}]}
    )

    assert isinstance(parsed, Failure)
    error = parsed.failure()
    assert (error.path, error.record_index) == ("responses[1].records[1].x", 1)
    assert error.message.startswith("responses[1].records[1].x ")


def test_parse_records_plays_a_response_synchronously_with_the_same_codes() -> None:
    good = parse_records(
        [start("r"), text("hi"), end("r", usage={"input_tokens": 1, "output_tokens": 2})],
        request_id="q",
    )
    bad = parse_records([text("hi")], request_id="q", response_index=4)

    chunks, response = good.unwrap()
    assert chunks == (CourseTextDeltaChunk(request_id="q", delta="hi"),)
    assert response.stop_reason is CourseStopReason.STOP
    assert isinstance(bad, Failure)
    assert (bad.failure().code, bad.failure().path) == (
        Code.PROVIDER_MISSING_START,
        "responses[4].records[0]",
    )


def test_from_fixture_never_raises_even_for_hostile_top_level_objects() -> None:
    class Exploding:
        def __getattr__(self, name: str) -> Any:
            raise RuntimeError(name)

    for value in (Exploding(), object(), 1, None, b"{}", {("tuple",): 1}):
        result = FixtureProviderAdapter.from_fixture(value)
        assert isinstance(result, Failure)
        assert result.failure().code is Code.PROVIDER_INVALID_FIXTURE


async def test_requests_are_captured_in_call_order_even_when_aborted_or_exhausted() -> None:
    adapter = FixtureProviderAdapter(fixture([transport_error(code="c", message="m")]))
    first, second, third = (request(f"q-{n}", "Hi", message_id=f"u-{n}") for n in (1, 2, 3))
    aborted = adapter.stream(first, AbortSignal.aborted_signal())
    played = adapter.stream(second, AbortController().signal)
    exhausted = adapter.stream(third, AbortController().signal)
    with pytest.raises(AbortError):
        await aborted.result
    with pytest.raises(FixtureProviderError) as replayed:
        await played.result
    with pytest.raises(FixtureProviderError) as found_nothing:
        await exhausted.result

    assert replayed.value.code is Code.PROVIDER_TRANSPORT_ERROR
    assert found_nothing.value.code is Code.PROVIDER_EXHAUSTED
    assert "call 3 (request 'q-3')" in found_nothing.value.message
    assert adapter.requests == (first, second, third)
    assert adapter.requests[1] is second
    assert adapter.call_count == 3


@pytest.mark.parametrize(
    ("request_value", "signal_kind", "error"),
    [("not a request", "signal", TypeError), ("request", "not a signal", TypeError)],
)
async def test_stream_arguments_are_checked_before_anything_is_counted(
    request_value: str, signal_kind: str, error: type[Exception]
) -> None:
    adapter = FixtureProviderAdapter(fixture())
    with pytest.raises(error):
        adapter.stream(
            request("q", "Hi", message_id="u") if request_value == "request" else request_value,  # type: ignore[arg-type]
            AbortController().signal if signal_kind == "signal" else object(),  # type: ignore[arg-type]
        )

    assert (adapter.call_count, adapter.requests) == (0, ())


def test_stream_without_a_running_loop_counts_nothing() -> None:
    adapter = FixtureProviderAdapter(fixture())
    with pytest.raises(RuntimeError, match=r"FixtureProviderAdapter\.stream\(\) needs a running"):
        adapter.stream(CourseModelRequest("q", []), AbortController().signal)
    assert (adapter.call_count, adapter.requests) == (0, ())
