"""ScriptedModel.with_config: a loop that changes options between turns runs on the double.

A vendor model's ``with_config`` returns a model on the replaced
configuration that shares the original's key and transport. The double's
returns a model that shares the original's script and capture, and records
the options in effect for each call, so a test can assert what each turn ran with.
"""

from __future__ import annotations

import dataclasses
import enum
import pickle
from typing import Any, Protocol, Self

import pytest
from frozendict import frozendict

from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModel,
    CourseModelRequest,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    text_from_assistant,
)
from course_protocol.calls import NO_OPTIONS, ModelCall, call_options
from course_scripted import (
    ScriptedModel,
    ScriptedModelError,
    ScriptedModelErrorCode,
    reply_text,
    reply_tool_call,
)
from course_stream import AbortController, AbortError
from tests.course_scripted.helpers import USAGE, reply
from tests.course_vendor.wires import TOOLS, WIRES
from tests.requests import live_signal, request


class LoopModel(CourseModel, Protocol):
    """What the loop below asks of a model: the port, and a vendor model's ``with_config``."""

    def with_config(self, **changes: Any) -> Self: ...


async def add_then_answer(model: LoopModel) -> tuple[CourseMessage, ...]:
    """A two-turn loop: the first turn may call ``add``; the last is cooler and calls no Tool."""
    messages: list[CourseMessage] = [CourseUserMessage("u-1", "What is 20 + 22?")]
    for turn in (1, 2):
        turn_model = model
        if turn == 2:
            turn_model = model.with_config(temperature=0.2, tool_choice="none")
        request = CourseModelRequest(f"request-{turn}", messages)
        response = await turn_model.stream(request, AbortController().signal).result
        messages.append(response.message)
        for block in response.message.content:
            if isinstance(block, CourseToolCall):
                messages.append(CourseToolResultMessage(f"t-{turn}", block.id, block.name, "42"))
    return tuple(messages)


class Choice(enum.StrEnum):
    """An option value as vendor configurations spell theirs: a string enum member."""

    NONE = "none"


@dataclasses.dataclass(frozen=True)
class Budget:
    """A frozen dataclass option value, as ``ThinkingBudget`` is."""

    tokens: int


class DictThatLiesWhenRead(dict[str, Any]):
    """A dict whose Python-level reads show something other than what it holds."""

    def items(self) -> Any:
        return {"temperature": 0.9}.items()

    def __getitem__(self, key: str) -> Any:
        return 0.9


class HashOnlyAfterMutation:
    """A value that says it is unhashable: what Python calls mutable."""

    __hash__ = None  # type: ignore[assignment]


def nested_tuples(depth: int) -> tuple[Any, ...]:
    """``((((),),),)`` ``depth`` levels deep, built without recursion."""
    value: tuple[Any, ...] = ()
    for _ in range(depth):
        value = (value,)
    return value


def scripted_add_then_answer() -> ScriptedModel:
    return ScriptedModel(
        [
            reply_tool_call(
                "call-1",
                "add",
                {"left": 20, "right": 22},
                response_id="r-1",
                message_id="m-1",
                usage=USAGE,
            ),
            reply_text("The sum is 42.", response_id="r-2", message_id="m-2", usage=USAGE),
        ],
        validate_requests=True,
    )


async def test_a_loop_written_for_a_vendor_models_with_config_runs_on_the_double() -> None:
    wire = WIRES[0]
    transport = wire.recorded(wire.tool_body(), wire.text_body("The sum is 42."))
    vendor = wire.build({"tools": TOOLS, "temperature": 0.7}, transport=transport)
    scripted = scripted_add_then_answer()
    double = scripted.with_config(temperature=0.7)

    on_vendor = await add_then_answer(vendor)
    on_double = await add_then_answer(double)

    last_on_vendor, last_on_double = on_vendor[-1], on_double[-1]
    assert isinstance(last_on_vendor, CourseAssistantMessage)
    assert isinstance(last_on_double, CourseAssistantMessage)
    assert text_from_assistant(last_on_double) == text_from_assistant(last_on_vendor)
    assert [type(message) for message in on_double] == [type(message) for message in on_vendor]
    assert double.calls[-1].options["temperature"] == 0.2
    assert [call.options for call in scripted.calls] == [
        {"temperature": 0.7},
        {"temperature": 0.2, "tool_choice": "none"},
    ]
    assert [call.request.id for call in double.calls] == ["request-1", "request-2"]
    assert scripted.call_count == double.call_count == 2
    assert scripted.requests == double.requests == tuple(call.request for call in scripted.calls)
    scripted.assert_consumed()


async def test_a_derived_model_plays_the_one_script_and_records_into_the_one_capture() -> None:
    model = ScriptedModel([reply("a")])
    cooler = model.with_config(temperature=0.2)
    cooler.append_response(reply("b"))

    first = await cooler.stream(request("request-1"), live_signal()).result
    second = await model.stream(request("request-2"), live_signal()).result

    assert (first.id, second.id) == ("a", "b"), "one queue, in order, whichever model is called"
    assert type(cooler) is ScriptedModel
    assert cooler is not model
    assert model.options is NO_OPTIONS
    assert cooler.options == {"temperature": 0.2}
    assert [call.options for call in model.calls] == [{"temperature": 0.2}, {}]
    assert model.calls == cooler.calls
    assert model.pending_response_count == cooler.pending_response_count == 0
    model.set_responses([reply("c")])
    with pytest.raises(AssertionError, match="1 scripted response"):
        cooler.assert_consumed()


def test_with_config_applies_changes_over_the_options_it_derives_from() -> None:
    model = ScriptedModel()
    warm = model.with_config(temperature=0.7, top_p=0.9)
    cool = warm.with_config(temperature=0.2, tool_choice=None)
    same = cool.with_config()

    assert warm.options == {"temperature": 0.7, "top_p": 0.9}
    assert cool.options == {"temperature": 0.2, "top_p": 0.9, "tool_choice": None}
    assert same.options == cool.options
    assert same is not cool
    assert model.options == {}


async def test_each_call_records_the_options_of_the_model_it_was_made_on() -> None:
    model = ScriptedModel([reply("a"), reply("b"), reply("c")])
    cool = model.with_config(temperature=0.2)
    cold = cool.with_config(temperature=0.0)

    for made_on in (cold, model, cool):
        await made_on.stream(request(), live_signal()).result

    assert [call.options.get("temperature") for call in model.calls] == [0.0, None, 0.2]


async def test_a_pre_aborted_or_exhausted_call_is_recorded_with_its_options() -> None:
    model = ScriptedModel([reply("a")]).with_config(temperature=0.2)
    controller = AbortController()
    controller.abort()

    with pytest.raises(AbortError) as aborted:
        await model.stream(request("request-1"), controller.signal).result
    await model.stream(request("request-2"), live_signal()).result
    with pytest.raises(ScriptedModelError) as exhausted:
        await model.stream(request("request-3"), live_signal()).result

    assert aborted.value is controller.signal.reason
    assert exhausted.value.code is ScriptedModelErrorCode.SCRIPT_EXHAUSTED
    assert [(call.request.id, dict(call.options)) for call in model.calls] == [
        ("request-1", {"temperature": 0.2}),
        ("request-2", {"temperature": 0.2}),
        ("request-3", {"temperature": 0.2}),
    ]


async def test_a_derived_model_validates_requests_as_its_origin_does() -> None:
    model = ScriptedModel([reply("a")], validate_requests=True).with_config(tool_choice="none")
    orphan = CourseModelRequest(
        "request-1", (CourseToolResultMessage("t-1", "call-1", "add", "42"),)
    )

    with pytest.raises(ScriptedModelError) as caught:
        await model.stream(orphan, live_signal()).result

    assert caught.value.code is ScriptedModelErrorCode.SCRIPT_INVALID_REQUEST
    assert model.pending_response_count == 1
    assert model.calls[0].options == {"tool_choice": "none"}


async def test_a_call_refused_at_the_boundary_records_nothing_on_a_derived_model() -> None:
    model = ScriptedModel([reply("a")])
    derived = model.with_config(temperature=0.2)

    with pytest.raises(TypeError):
        derived.stream("request-1", live_signal())  # type: ignore[arg-type]

    assert (model.call_count, model.calls) == (0, ())


def test_json_values_are_snapshotted_so_the_callers_objects_can_change_nothing() -> None:
    extra = {"probe": [1, {"deep": "original"}]}
    stops = ["END"]
    model = ScriptedModel().with_config(extra_body=extra, stop_sequences=stops)
    extra["probe"][1]["deep"] = "changed"  # type: ignore[index]
    stops.append("MORE")

    snapshot = model.options["extra_body"]
    assert type(snapshot) is frozendict
    assert snapshot == {"probe": (1, {"deep": "original"})}
    assert model.options["stop_sequences"] == ("END",)
    with pytest.raises(TypeError):
        model.options["temperature"] = 1.0  # type: ignore[index]


def test_a_dict_subclass_is_read_through_dicts_own_methods() -> None:
    lying = DictThatLiesWhenRead(temperature=0.2)

    model = ScriptedModel().with_config(extra_body=lying)

    snapshot = model.options["extra_body"]
    assert type(snapshot) is frozendict
    assert snapshot == {"temperature": 0.2}


def test_hashable_values_of_other_types_are_kept_as_given() -> None:
    spec = CourseToolSpec("add", "Add two integers.", {"type": "object"})
    budget = Budget(1024)

    model = ScriptedModel().with_config(
        tool_choice=Choice.NONE, reasoning=budget, tools=(spec,), betas=frozenset({"a"})
    )

    assert model.options["tool_choice"] is Choice.NONE
    assert model.options["reasoning"] is budget
    assert model.options["tools"] == (spec,)
    assert model.options["tools"][0] is spec
    assert model.options["betas"] == frozenset({"a"})


@pytest.mark.parametrize(
    ("value", "path"),
    [
        pytest.param({1, 2}, "options.value", id="set"),
        pytest.param(bytearray(b"x"), "options.value", id="bytearray"),
        pytest.param(HashOnlyAfterMutation(), "options.value", id="unhashable-object"),
        pytest.param([1, {2}], "options.value[1]", id="set-in-a-list"),
        pytest.param((Choice.NONE, [{"x": {3}}]), "options.value[1][0].x", id="set-deep-inside"),
        pytest.param({1: "int key"}, "options.value", id="int-key"),
        pytest.param(float("nan"), "options.value", id="nan"),
        pytest.param({"x": float("inf")}, "options.value.x", id="infinity"),
        pytest.param(Budget([1]), "options.value", id="frozen-dataclass-holding-a-list"),  # type: ignore[arg-type]
    ],
)
def test_a_mutable_or_non_json_value_is_refused_and_nothing_changes(
    value: object, path: str
) -> None:
    model = ScriptedModel([reply("a")]).with_config(temperature=0.2)

    with pytest.raises(TypeError) as caught:
        model.with_config(temperature=0.1, value=value)

    assert str(caught.value).startswith(path + " "), caught.value
    assert "immutable" in str(caught.value)
    assert model.options == {"temperature": 0.2}


def test_cycles_and_deep_nesting_are_refused_without_recursion_errors() -> None:
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    deep = nested_tuples(100_000)
    model = ScriptedModel()

    for value in (cyclic, deep, (Choice.NONE, deep), [Budget(1), deep]):
        with pytest.raises(TypeError, match=r"cycle|JSON_MAX_DEPTH"):
            model.with_config(value=value)


@pytest.mark.parametrize("name", ["1x", "not an identifier", "class", "", "temperature!"])
def test_an_option_name_must_be_an_identifier(name: str) -> None:
    model = ScriptedModel()

    with pytest.raises(TypeError, match="is not an identifier"):
        model.with_config(**{name: 1})

    assert model.options == {}


def test_a_model_call_is_immutable_and_checks_what_it_is_given() -> None:
    call = ModelCall(request(), {"extra_body": {"x": [1]}})  # type: ignore[arg-type]

    assert call.options == {"extra_body": {"x": (1,)}}
    assert type(call.options) is frozendict
    assert ModelCall(request()).options is NO_OPTIONS
    with pytest.raises(dataclasses.FrozenInstanceError):
        call.options = NO_OPTIONS  # type: ignore[misc]
    with pytest.raises(TypeError, match="CourseModelRequest"):
        ModelCall("request-1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mapping"):
        ModelCall(request(), [("temperature", 0.2)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"options\.x "):
        ModelCall(request(), {"x": {1}})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="is not an identifier"):
        call_options({1: 2})  # type: ignore[dict-item]


def test_a_model_call_pickles_under_its_public_module() -> None:
    call = ModelCall(request(), call_options({"tool_choice": "none", "stop": ("END",)}))

    dumped = pickle.dumps(call)

    assert ModelCall.__module__ == "course_protocol.calls"
    assert b"_call_options" not in dumped
    assert pickle.loads(dumped) == call


def test_repr_names_the_options_a_derived_model_records() -> None:
    model = ScriptedModel([reply("a")])

    assert repr(model) == "ScriptedModel(call_count=0, pending_response_count=1)"
    assert repr(model.with_config(temperature=0.2)) == (
        "ScriptedModel(call_count=0, pending_response_count=1, options={'temperature': 0.2})"
    )
