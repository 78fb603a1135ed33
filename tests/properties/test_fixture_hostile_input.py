"""Hostile fixtures: construction and a full stream of every response fail closed.

For any Python value built from JSON types and hostile ones (containers and
strings with overridden methods, objects whose ``__eq__``/``__hash__``/
``__repr__`` raise, lying ``__class__``, hostile metaclasses, cycles, very
deep nesting, huge ints, NaN and infinities, bytes, sets, misbehaving async
record sources), ``FixtureProviderAdapter.from_fixture`` and the play of
every response either succeed or fail with a ``FixtureProviderError`` of a
documented code: never another exception, never a hang, never a task left
behind, never a change to the caller's objects, and every stream settles
exactly once.
"""

from __future__ import annotations

from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st
from returns.result import Failure, Success

import course_provider_fixture._adapter
from course_protocol import (
    CourseModelResponse,
    CourseTextDeltaChunk,
    CourseToolCallChunk,
)
from course_provider_fixture import (
    FixtureProviderAdapter,
    FixtureProviderError,
    FixtureProviderErrorCode,
)
from course_stream import AbortController
from tests.properties.hostile import (
    DictWithTraps,
    ListWithTraps,
    TupleWithTraps,
    armed,
    fingerprint,
    hostile_values,
    odd_numbers,
    sources,
)
from tests.properties.runner import run_example
from tests.properties.settling import counting_streams
from tests.properties.wire import response_plans
from tests.requests import request as call_request
from tests.streams import settle

Code = FixtureProviderErrorCode
WIRE_FIELDS = (
    "type",
    "responseId",
    "role",
    "delta",
    "id",
    "name",
    "arguments",
    "stopReason",
    "usage",
    "code",
    "message",
)


@st.composite
def records(draw: st.DrawFn) -> list[Any]:
    """A valid response's records with a few hostile edits: most reach the parser."""
    items: list[Any] = draw(response_plans()).records()
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 0, 1, 1, 2, 3]))):
        edit = draw(st.sampled_from(["field", "insert", "delete", "usage", "arguments"]))
        at = draw(st.integers(min_value=0, max_value=max(0, len(items) - 1)))
        target = items[at] if items and type(items[at]) is dict else None
        if edit == "field" and target is not None:
            target[draw(st.sampled_from(WIRE_FIELDS))] = draw(hostile_values)
        elif edit == "usage" and target is not None and type(target.get("usage")) is dict:
            target["usage"][draw(st.sampled_from(["inputTokens", "input_tokens"]))] = draw(
                odd_numbers | hostile_values
            )
        elif edit == "arguments" and target is not None and "arguments" in target:
            target["arguments"] = {"value": draw(hostile_values)}
        elif edit == "delete" and items:
            del items[at]
        else:
            items.insert(at, draw(hostile_values))
    if draw(st.booleans()):
        items = [DictWithTraps(item) if type(item) is dict else item for item in items]
    return items


record_containers: st.SearchStrategy[Any] = st.one_of(
    records(),
    records().map(tuple),
    records().map(ListWithTraps),
    records().map(TupleWithTraps),
    sources(records()),
    sources(records()),
    hostile_values,
)


def _response(records: object, extra: dict[Any, Any]) -> dict[Any, Any]:
    return {"records": records, **extra}


extra_fields = st.dictionaries(st.text(max_size=4), hostile_values, max_size=1)
responses: st.SearchStrategy[Any] = st.one_of(
    st.builds(_response, record_containers, st.just({})),
    st.builds(_response, record_containers, st.just({})),
    st.builds(_response, record_containers, extra_fields),
    st.builds(_response, record_containers, st.just({})).map(DictWithTraps),
    hostile_values,
)
response_lists: st.SearchStrategy[Any] = st.one_of(
    st.lists(responses, max_size=3),
    st.lists(responses, max_size=3),
    st.lists(responses, max_size=3),
    st.lists(responses, max_size=3).map(tuple),
    st.lists(responses, max_size=3).map(ListWithTraps),
    hostile_values,
)


@st.composite
def fixtures(draw: st.DrawFn) -> Any:
    """Mostly schema-1 shaped (so play is reached), sometimes anything at all."""
    if draw(st.integers(min_value=0, max_value=9)) == 0:
        return draw(hostile_values)
    version: Any = 1
    if draw(st.integers(min_value=0, max_value=7)) == 0:
        version = draw(odd_numbers | hostile_values)
    fixture: dict[Any, Any] = {"schemaVersion": version, "responses": draw(response_lists)}
    fixture.update(draw(extra_fields))
    if draw(st.integers(min_value=0, max_value=7)) == 0:
        shared = draw(sources(records()))
        # One source object in two responses: the second play must be refused.
        fixture["responses"] = [{"records": shared}, {"records": shared}]
    if draw(st.integers(min_value=0, max_value=9)) == 0:
        fixture["responses"] = ListWithTraps([fixture])
    return DictWithTraps(fixture) if draw(st.booleans()) else fixture


def check_error(error: object, *, read: int | None = None) -> FixtureProviderError:
    """A documented error: our own class, a known code, metadata of the right types."""
    assert type(error) is FixtureProviderError, f"{type(error).__qualname__}: {error!r}"
    assert type(error.code) is Code
    assert error.record_index is None or type(error.record_index) is int
    assert (error.provider_code is not None) == (error.code is Code.PROVIDER_TRANSPORT_ERROR)
    assert error.path is None or type(error.path) is str
    assert str(error).startswith(error.code.value)
    return error


async def play_every_response(fixture: Any) -> str:
    with armed():
        built = FixtureProviderAdapter.from_fixture(fixture)
    match built:
        case Failure(error):
            assert check_error(error).code is Code.PROVIDER_INVALID_FIXTURE
            return "rejected at construction"
        case Success(adapter):
            pass
    queued = adapter.pending_response_count
    outcomes: list[str] = []
    with counting_streams(course_provider_fixture._adapter) as made:
        for call in range(queued + 1):
            request = call_request(f"request-{call}", message_id="m")
            with armed():
                settled = await settle(adapter.stream(request, AbortController().signal))
            chunks = settled.events
            ended = settled.iteration_error
            result = settled.result if settled.result_error is None else settled.result_error
            assert all(
                type(chunk) in (CourseTextDeltaChunk, CourseToolCallChunk)
                and chunk.request_id == request.id
                for chunk in chunks
            )
            if isinstance(result, CourseModelResponse):
                assert ended is None
                assert call < queued
                assert result.request_id == request.id
                outcomes.append("played")
                continue
            assert ended is result, "iteration and result disagree"
            code = check_error(result).code
            assert (code is Code.PROVIDER_EXHAUSTED) == (call == queued)
            outcomes.append(code.value)
    assert [stream.terminal_calls for stream in made] == [1] * (queued + 1)
    assert adapter.pending_response_count == 0
    return ", ".join(outcomes)


@given(fixture=fixtures())
def test_hostile_fixtures_succeed_or_fail_closed_without_touching_the_input(fixture: Any) -> None:
    before = fingerprint(fixture)
    outcome = run_example(lambda: play_every_response(fixture))
    event(outcome if len(outcome) < 60 else outcome[:60] + "...")
    assert fingerprint(fixture) == before, "the adapter changed the caller's objects"
