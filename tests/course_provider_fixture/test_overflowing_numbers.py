"""A number past the largest float is read as the reference reads it: an infinity, judged in use.

The reference course is JavaScript: ``JSON.parse`` reads ``1e400`` (or an
integer of 310 digits) as ``Infinity``, keeps it in a field nobody reads,
and fails the one record whose count or Tool-call arguments hold it, when
that record is played (``PROVIDER_INVALID_EVENT``). ``load_fixture`` reads
such numbers the same way, and the adapter keeps a non-finite float in its
snapshot of a record until a reader judges it, whether the fixture came from
a file or from Python objects (which may hold a NaN too).
"""

from __future__ import annotations

import math
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from returns.result import Failure, Success

from course_protocol import CourseTextDeltaChunk
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
    load_fixture,
    parse_records,
)
from course_stream import AbortController
from tests.course_provider_fixture.records import end, fixture, start, text, tool_call
from tests.requests import request
from tests.streams import Settled, settle

Code = FixtureProviderErrorCode

LARGEST_INTEGRAL_FLOAT = int(sys.float_info.max)
"""The largest float, written as an integer: 309 digits."""
FIRST_TO_OVERFLOW = LARGEST_INTEGRAL_FLOAT + 2**970
"""Half an ulp above the largest float: the first integer that rounds to infinity."""

OVERFLOWING = [
    "1e400",
    "-1e400",
    "1E+999",
    "-1e309",
    str(FIRST_TO_OVERFLOW),
    "-" + "9" * 400,
    "9" * 5000,
]
"""JSON numbers that ``JSON.parse`` reads as an infinity (5,000 digits: past Python's int limit)."""

NON_FINITE = [math.inf, -math.inf, math.nan]
"""What a fixture made of Python objects may hold where the reference holds ``Infinity``."""

PLACE = "PLACE"
TEMPLATE = (
    '{"schemaVersion": 1, "top": PLACE, "responses": [{"records": ['
    '{"type": "response_start", "responseId": "r-1", "role": "assistant", "x": PLACE}, '
    '{"type": "text_delta", "text": "hi", "x": {"nested": [PLACE]}}, '
    '{"type": "response_end", "responseId": "r-1", "stopReason": "stop", '
    '"usage": {"inputTokens": 3, "outputTokens": 5, "cached": PLACE}}], "extra": PLACE}]}'
)
"""A valid fixture with the number in an unknown field at every level."""


def fixture_text(records: str) -> str:
    return f'{{"schemaVersion": 1, "responses": [{{"records": [{records}]}}]}}'


START = '{"type": "response_start", "responseId": "r-1", "role": "assistant"}'
TEXT = '{"type": "text_delta", "text": "hi"}'


def loaded(text_of_fixture: str, tmp_path: Path) -> object:
    path = tmp_path / "fixture.json"
    path.write_text(text_of_fixture, encoding="utf-8")
    result = load_fixture(path)
    assert isinstance(result, Success), result
    return result.unwrap()


async def played(document: object) -> Settled[Any, Any]:
    adapter = FixtureProviderAdapter(document)
    return await settle(adapter.stream(request("request-1"), AbortController().signal))


def invalid_event(settled: Settled[Any, Any]) -> FixtureProviderError:
    error = settled.result_error
    assert type(error) is FixtureProviderError, settled
    assert settled.iteration_error is error
    assert error.code is Code.PROVIDER_INVALID_EVENT
    return error


def test_load_fixture_reads_a_number_past_the_largest_float_as_an_infinity(
    tmp_path: Path,
) -> None:
    for number in OVERFLOWING:
        document = loaded(fixture_text(f'{START}, {{"type": "x", "n": {number}}}'), tmp_path)

        value = document["responses"][0]["records"][1]["n"]  # type: ignore[index]
        assert value == (-math.inf if number.startswith("-") else math.inf), number[:20]


def test_load_fixture_still_refuses_what_is_no_json_number(tmp_path: Path) -> None:
    path = tmp_path / "fixture.json"
    for number in ("NaN", "Infinity", "-Infinity"):
        path.write_text(fixture_text(f'{START}, {{"type": "x", "n": {number}}}'), encoding="utf-8")

        result = load_fixture(path)

        assert isinstance(result, Failure), number
        assert result.failure().code is Code.PROVIDER_INVALID_FIXTURE
        assert f"{number} is not a JSON number" in result.failure().message


def test_an_integer_below_the_overflow_stays_the_exact_int_in_tool_arguments(
    tmp_path: Path,
) -> None:
    last = FIRST_TO_OVERFLOW - 1
    call = f'{{"type": "tool_call", "id": "c-1", "name": "add", "arguments": {{"x": {last}}}}}'

    document = loaded(fixture_text(f"{START}, {call}"), tmp_path)

    value = document["responses"][0]["records"][1]["arguments"]["x"]  # type: ignore[index]
    assert (value, type(value)) == (last, int)
    assert len(str(LARGEST_INTEGRAL_FLOAT)) == 309


async def test_an_infinity_in_an_unknown_field_is_ignored_as_the_reference_ignores_it(
    tmp_path: Path,
) -> None:
    for number in OVERFLOWING:
        settled = await played(loaded(TEMPLATE.replace(PLACE, number), tmp_path))

        assert settled.result_error is None, (number[:20], settled.result_error)
        assert settled.events == [CourseTextDeltaChunk("request-1", "hi")]
        assert settled.result is not None
        usage = settled.result.usage
        assert (usage.input_tokens, usage.output_tokens) == (3, 5)


async def test_an_infinite_count_fails_its_record_when_played(tmp_path: Path) -> None:
    for number in OVERFLOWING:
        for alias, partner in (("inputTokens", "output_tokens"), ("output_tokens", "inputTokens")):
            closing = (
                '{"type": "response_end", "responseId": "r-1", "stopReason": "stop", '
                f'"usage": {{"{alias}": {number}, "{partner}": 1}}}}'
            )
            document = loaded(fixture_text(f"{START}, {TEXT}, {closing}"), tmp_path)

            settled = await played(document)

            error = invalid_event(settled)
            assert (error.record_index, error.path) == (
                2,
                f"responses[0].records[2].usage.{alias}",
            ), number[:20]
            assert settled.events == [CourseTextDeltaChunk("request-1", "hi")]


async def test_an_infinite_tool_argument_fails_its_record_when_played_after_the_chunks_before(
    tmp_path: Path,
) -> None:
    for number in OVERFLOWING:
        call = (
            f'{{"type": "tool_call", "id": "c-1", "name": "add", "arguments": {{"x": [{number}]}}}}'
        )
        document = loaded(fixture_text(f"{START}, {TEXT}, {call}"), tmp_path)

        settled = await played(document)

        error = invalid_event(settled)
        assert (error.record_index, error.path) == (
            2,
            "responses[0].records[2].arguments.x[0]",
        ), number[:20]
        assert "not a finite number" in error.message
        assert settled.events == [CourseTextDeltaChunk("request-1", "hi")]


async def test_an_infinity_where_a_record_or_a_string_belongs_is_an_invalid_event(
    tmp_path: Path,
) -> None:
    for number in OVERFLOWING:
        as_record = await played(loaded(fixture_text(f"{START}, {number}"), tmp_path))
        as_text = await played(
            loaded(fixture_text(f'{START}, {{"type": "text_delta", "text": {number}}}'), tmp_path)
        )

        assert invalid_event(as_record).path == "responses[0].records[1]", number[:20]
        assert invalid_event(as_text).path == "responses[0].records[1].text", number[:20]


def test_an_infinite_schema_version_is_an_invalid_fixture(tmp_path: Path) -> None:
    for number in OVERFLOWING:
        document = loaded(f'{{"schemaVersion": {number}, "responses": []}}', tmp_path)

        result = FixtureProviderAdapter.from_fixture(document)

        assert isinstance(result, Failure), number[:20]
        assert (result.failure().code, result.failure().path) == (
            Code.PROVIDER_INVALID_FIXTURE,
            "schemaVersion",
        )


def python_fixture(value: float) -> dict[str, Any]:
    extra = {"x": value, "nested": [{"y": value}]}
    closing = end(usage={"inputTokens": 3, "outputTokens": 5, "cached": value})
    return {**fixture([{**start(), **extra}, {**text(), **extra}, closing]), "top": value}


async def test_a_python_fixture_keeps_a_non_finite_float_until_a_reader_judges_it() -> None:
    for value in NON_FINITE:
        ignored = await played(python_fixture(value))
        in_arguments = await played(fixture([start(), text(), tool_call(arguments={"x": value})]))

        assert ignored.result_error is None, (value, ignored.result_error)
        assert ignored.events == [CourseTextDeltaChunk("request-1", "hi")]
        error = invalid_event(in_arguments)
        assert (error.record_index, error.path) == (2, "responses[0].records[2].arguments.x")
        assert in_arguments.events == [CourseTextDeltaChunk("request-1", "hi")]


async def records_of(*records: object) -> AsyncIterator[object]:
    for record in records:
        yield record


async def test_records_from_an_async_source_and_parse_records_read_non_finite_floats_alike() -> (
    None
):
    for value in NON_FINITE:
        usage = {"inputTokens": value, "outputTokens": 1}
        records = [{**start(), "x": value}, text(), end(usage=usage)]

        from_source = await played(fixture(records_of(*records)))
        parsed = parse_records(records, "request-1")
        ignored = parse_records([*records[:2], end()], "request-1")

        error = invalid_event(from_source)
        path = "responses[0].records[2].usage.inputTokens"
        assert (error.record_index, error.path) == (2, path), value
        assert isinstance(parsed, Failure)
        assert (parsed.failure().code, parsed.failure().path) == (Code.PROVIDER_INVALID_EVENT, path)
        assert isinstance(ignored, Success), ignored
