"""ScriptedModel's synchronous boundary: arguments, queue validation, counters, errors."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import AsyncIterator, Iterator
from typing import Any, SupportsIndex

import pytest

from course_protocol import (
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
)
from course_scripted import (
    ScriptedModel,
    ScriptedModelError,
    ScriptedModelErrorCode,
)
from course_stream import AbortController, AbortError, AbortSignal
from tests.course_scripted.helpers import reply
from tests.requests import request

Turn = AsyncIterator[CourseModelChunk | CourseModelResponse]


class ListThatLiesWhenIterated(list[Any]):
    """A list whose Python-level reads show something other than its contents."""

    def __iter__(self) -> Iterator[Any]:
        return iter([reply("response-lie")])

    def __getitem__(self, index: SupportsIndex | slice) -> Any:
        return reply("response-lie")

    def __len__(self) -> int:
        return 1


class TupleThatLiesWhenIterated(tuple[Any, ...]):
    """A tuple whose Python-level reads hide a non-callable element."""

    def __iter__(self) -> Iterator[Any]:
        return iter([reply("response-lie")])

    def __getitem__(self, index: SupportsIndex | slice) -> Any:
        return reply("response-lie")


class RequestSubclass(CourseModelRequest):  # type: ignore[misc]
    """Not the protocol's own request type."""

    __slots__ = ()


def test_the_constructor_queues_the_given_factories_in_order() -> None:
    model = ScriptedModel((reply("response-a"), reply("response-b")))

    assert model.pending_response_count == 2
    assert model.call_count == 0
    assert model.requests == ()


@pytest.mark.parametrize(
    "not_a_list",
    [
        pytest.param(None, id="None"),
        pytest.param("factories", id="str"),
        pytest.param({reply("response-a")}, id="set"),
        pytest.param({"a": reply("response-a")}, id="dict"),
        pytest.param((f for f in [reply("response-a")]), id="generator"),
        pytest.param(range(0), id="range"),
    ],
)
def test_the_constructor_accepts_only_a_list_or_tuple(not_a_list: object) -> None:
    with pytest.raises(TypeError, match="list or tuple"):
        ScriptedModel(not_a_list)  # type: ignore[arg-type]


def test_the_constructor_names_the_first_non_callable_element() -> None:
    with pytest.raises(TypeError, match=r"responses\[2\].*int"):
        ScriptedModel([reply("a"), reply("b"), 3, "four"])  # type: ignore[list-item]


async def test_a_list_subclass_is_read_through_list_itself_not_its_overrides() -> None:
    hostile = ListThatLiesWhenIterated([reply("response-real-1"), reply("response-real-2")])
    model = ScriptedModel(hostile)

    assert model.pending_response_count == 2
    first = await model.stream(request(), AbortController().signal).result
    assert first.id == "response-real-1"


def test_a_list_subclass_hiding_a_bad_element_is_still_refused() -> None:
    hostile = ListThatLiesWhenIterated([reply("a"), "hidden non-callable"])
    model = ScriptedModel([reply("kept")])

    with pytest.raises(TypeError, match=r"responses\[1\]"):
        model.set_responses(hostile)
    assert model.pending_response_count == 1


def test_a_tuple_subclass_hiding_a_bad_element_is_still_refused() -> None:
    hostile = TupleThatLiesWhenIterated((reply("a"), None))

    with pytest.raises(TypeError, match=r"responses\[1\]"):
        ScriptedModel(hostile)


def test_set_responses_copies_the_list_so_later_edits_do_not_reach_the_queue() -> None:
    factories = [reply("response-a")]
    model = ScriptedModel()
    model.set_responses(factories)
    factories.append(reply("response-b"))
    factories.clear()

    assert model.pending_response_count == 1


def test_set_responses_with_an_empty_list_clears_the_queue() -> None:
    model = ScriptedModel([reply("a"), reply("b")])
    model.set_responses([])

    assert model.pending_response_count == 0


async def test_stream_refuses_a_request_that_is_not_exactly_a_course_model_request() -> None:
    model = ScriptedModel([reply("kept")])
    signal = AbortController().signal
    lookalike = RequestSubclass(id="request-1", messages=())

    with pytest.raises(TypeError, match="request"):
        model.stream({"id": "request-1", "messages": []}, signal)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="request"):
        model.stream(lookalike, signal)

    assert model.call_count == 0
    assert model.requests == ()
    assert model.pending_response_count == 1


async def test_stream_refuses_a_signal_that_is_not_an_abort_signal() -> None:
    model = ScriptedModel([reply("kept")])

    with pytest.raises(TypeError, match="signal"):
        model.stream(request(), AbortController())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="signal"):
        model.stream(request(), None)  # type: ignore[arg-type]

    assert model.call_count == 0
    assert model.requests == ()


def test_stream_outside_a_running_loop_raises_a_clear_error_and_records_nothing() -> None:
    model = ScriptedModel([reply("kept")])

    with pytest.raises(RuntimeError, match="running event loop"):
        model.stream(request(), AbortController().signal)

    assert model.call_count == 0
    assert model.requests == ()
    assert model.pending_response_count == 1


async def test_call_count_and_capture_happen_synchronously_but_the_factory_leaves_later() -> None:
    model = ScriptedModel([reply("response-1")])
    captured = request()

    stream = model.stream(captured, AbortController().signal)

    assert model.call_count == 1
    assert model.requests == (captured,)
    assert model.pending_response_count == 1
    await stream.result
    assert model.pending_response_count == 0


async def test_an_exhausted_call_names_the_call_and_the_request() -> None:
    model = ScriptedModel()
    await asyncio.gather(
        model.stream(request("request-1"), AbortController().signal).result,
        return_exceptions=True,
    )
    stream = model.stream(request("request-2"), AbortController().signal)

    with pytest.raises(ScriptedModelError) as caught:
        await stream.result

    assert caught.value.code is ScriptedModelErrorCode.SCRIPT_EXHAUSTED
    assert "call 2" in caught.value.message
    assert "request-2" in caught.value.message


def test_assert_consumed_raises_while_scripted_responses_remain_unplayed() -> None:
    model = ScriptedModel([reply("a"), reply("b")])

    with pytest.raises(AssertionError, match="2 scripted response"):
        model.assert_consumed()


async def test_assert_consumed_passes_once_every_response_was_played() -> None:
    model = ScriptedModel([reply("a")])
    await model.stream(request(), AbortController().signal).result

    model.assert_consumed()


async def test_assert_consumed_still_raises_after_a_pre_aborted_call_left_the_factory() -> None:
    model = ScriptedModel([reply("a")])
    with pytest.raises(AbortError):
        await model.stream(request(), AbortSignal.aborted_signal()).result

    with pytest.raises(AssertionError, match="1 scripted response"):
        model.assert_consumed()


def test_assert_consumed_passes_for_an_empty_script() -> None:
    ScriptedModel().assert_consumed()


def test_error_codes_are_string_valued_and_each_documented() -> None:
    assert [code.value for code in ScriptedModelErrorCode] == [
        "SCRIPT_EXHAUSTED",
        "SCRIPT_REQUEST_MISMATCH",
        "SCRIPT_INVALID_RESPONSE",
        "SCRIPT_ITERATOR_REUSED",
        "SCRIPT_INVALID_REQUEST",
    ]
    assert ScriptedModelErrorCode.SCRIPT_EXHAUSTED == "SCRIPT_EXHAUSTED"


def test_scripted_model_error_carries_code_and_message_and_pickles() -> None:
    error = ScriptedModelError(ScriptedModelErrorCode.SCRIPT_EXHAUSTED, "no response left")

    copy = pickle.loads(pickle.dumps(error))

    assert isinstance(error, Exception)
    assert str(error) == "SCRIPT_EXHAUSTED: no response left"
    assert type(copy) is ScriptedModelError
    assert (copy.code, copy.message) == (error.code, error.message)


def test_scripted_model_error_coerces_a_code_string_and_rejects_an_unknown_one() -> None:
    error = ScriptedModelError("SCRIPT_ITERATOR_REUSED", "again")  # type: ignore[arg-type]
    assert error.code is ScriptedModelErrorCode.SCRIPT_ITERATOR_REUSED

    with pytest.raises(ValueError, match="SCRIPT_SOMETHING_ELSE"):
        ScriptedModelError("SCRIPT_SOMETHING_ELSE", "?")  # type: ignore[arg-type]


def test_repr_shows_the_counters() -> None:
    assert (
        repr(ScriptedModel([reply("a")])) == "ScriptedModel(call_count=0, pending_response_count=1)"
    )


async def test_a_pre_aborted_call_on_an_empty_queue_fails_with_the_abort_reason() -> None:
    model = ScriptedModel()
    reason = AbortError("cancelled first")

    with pytest.raises(AbortError) as caught:
        await model.stream(request(), AbortSignal.aborted_signal(reason)).result

    assert caught.value is reason
    assert model.call_count == 1
