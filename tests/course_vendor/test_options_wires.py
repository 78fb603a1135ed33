"""Every registered wire sends each common option or refuses it; none is ever dropped.

These run over the vendor registry (`every_wire`), so a vendor package added
later is held to them the moment it registers a wire: for each common option
its model either changes what it sends or refuses the configuration with
``VENDOR_INVALID_CONFIG``. Each wire's own options are sent in one recorded
exchange, and a loop changes options between turns without any new state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest

from course_http import RecordedRequest, RecordedTransport, VendorErrorBody
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseResponseFormat,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    thaw_json,
)
from course_vendor import (
    COMMON_OPTIONS,
    NamedTool,
    OptionSupport,
    ReasoningEffort,
    ThinkingBudget,
    ToolChoice,
    VendorConfig,
    VendorConfigError,
    VendorConfigErrorCode,
    VendorModel,
    VendorPlay,
    VendorWire,
)
from tests.course_cassettes.replays import replay
from tests.course_vendor.wires import KEY, REQUEST, TOOLS, AnyModel, Wire, every_wire

INVALID = VendorConfigErrorCode.VENDOR_INVALID_CONFIG

SAMPLES: list[tuple[str, object]] = [
    ("temperature", 0.5),
    ("top_p", 0.5),
    ("stop_sequences", ("END",)),
    ("tool_choice", ToolChoice.AUTO),
    ("tool_choice", ToolChoice.NONE),
    ("tool_choice", ToolChoice.REQUIRED),
    ("tool_choice", NamedTool("add")),
    ("parallel_tool_calls", False),
    ("parallel_tool_calls", True),
    ("user_id", "user-7f3a"),
    ("reasoning", ReasoningEffort.LOW),
    ("reasoning", ThinkingBudget(1024)),
    ("response_format", CourseResponseFormat("answer", {"type": "object"})),
    ("extra_body", {"x_course_probe": 1}),
    ("extra_headers", {"x-course-probe": "1"}),
]
"""A value of every common option (each kind of a typed one), and of the escape hatch."""

LOOP = CourseModelRequest(
    "request-2",
    (
        CourseUserMessage("u-1", "What is 20 + 22?"),
        CourseAssistantMessage("a-1", (CourseToolCall("call_add_1", "add", {"a": 20}),)),
        CourseToolResultMessage("t-1", "call_add_1", "add", "42"),
    ),
)


async def sent_with(wire: Wire, options: Mapping[str, Any], **calls: Any) -> RecordedRequest:
    """The request ``wire``'s model sends for `REQUEST` with `TOOLS` and ``options``."""
    return await sent_by(wire.build({"tools": TOOLS, **options}, **calls))


async def sent_by(model: AnyModel, request: CourseModelRequest = REQUEST) -> RecordedRequest:
    """The request ``model`` sends for ``request`` over its recorded transport."""
    transport = model.transport
    assert isinstance(transport, RecordedTransport)
    played = len(transport.requests)
    await replay(model, request)
    return transport.requests[played]


def test_the_samples_cover_every_common_option() -> None:
    assert sorted({option for option, _ in SAMPLES} - {"extra_body", "extra_headers"}) == sorted(
        COMMON_OPTIONS
    )


@every_wire
@pytest.mark.parametrize(("option", "value"), SAMPLES, ids=[f"{o}={v!r}" for o, v in SAMPLES])
async def test_every_common_option_changes_the_request_or_is_refused_at_construction(
    wire: Wire, option: str, value: object
) -> None:
    plain = await sent_with(wire, {}, transport=wire.recorded(wire.text_body("hi")))
    try:
        model = wire.build(
            {"tools": TOOLS, option: value}, transport=wire.recorded(wire.text_body("hi"))
        )
    except VendorConfigError as error:
        refused: VendorConfigError | None = error
    else:
        refused = None
    if refused is not None:
        assert refused.code is INVALID
        assert refused.path.split(".")[1].startswith(option), refused.path
        return
    sent = await sent_by(model)

    assert (thaw_json(sent.body), dict(sent.headers)) != (
        thaw_json(plain.body),
        dict(plain.headers),
    ), f"{wire.name} dropped {option}={value!r}"


@every_wire
async def test_each_wire_sends_its_options_in_one_recorded_exchange(wire: Wire) -> None:
    options = {
        **wire.options,
        "extra_body": {"x_course_probe": [1, {"deep": True}]},
        "extra_headers": {"X-Course-Probe": "a b"},
    }

    sent = await sent_with(
        wire, options, transport=wire.recorded(wire.text_body("hi")), api_key=KEY
    )

    body = thaw_json(sent.body)
    assert isinstance(body, dict)
    assert {key: body.get(key) for key in wire.options_body} == dict(wire.options_body)
    assert body["x_course_probe"] == [1, {"deep": True}]
    assert list(body)[-1] == "x_course_probe", "extra_body comes after what the adapter writes"
    assert sent.headers["x-course-probe"] == "a b"
    assert {name: sent.headers.get(name) for name in wire.options_headers} == dict(
        wire.options_headers
    )


@every_wire
async def test_a_changed_option_is_a_changed_request_under_the_same_name(wire: Wire) -> None:
    option, value, line = wire.changed_option
    # The body entry the option lives in: the first step of the path the
    # mismatch line names (``temperature``, or Gemini's ``generationConfig``).
    entry = line.split(":")[0].split(".")[0].split("[")[0]
    first = await sent_with(wire, wire.options, transport=wire.recorded(wire.text_body("hi")))
    second = await sent_with(
        wire, {**wire.options, option: value}, transport=wire.recorded(wire.text_body("hi"))
    )

    changed = {
        key for key in {*first.body, *second.body} if first.body.get(key) != second.body.get(key)
    }
    assert changed == {entry}
    assert entry in (option, *wire.options_body)


class _Undeclared(VendorModel[VendorConfig]):
    """A vendor model whose wire declares no options, as a new vendor's does by default."""

    __slots__ = ()

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return {"prompt": request.messages[0].id}

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        return {}

    def _parser(self, request_id: str) -> VendorPlay:
        raise AssertionError("never called: these models are only built")


UNDECLARED = VendorWire("undeclared", "UNDECLARED_KEY", "/v1/x", lambda body: VendorErrorBody())


@pytest.mark.parametrize(("option", "value"), SAMPLES[:-2], ids=[o for o, _ in SAMPLES[:-2]])
def test_a_wire_that_declares_nothing_refuses_every_option_naming_it_and_the_vendor(
    option: str, value: object
) -> None:
    fields: dict[str, Any] = {option: value}
    config = VendorConfig("m", tools=TOOLS, base_url="http://x.invalid", **fields)

    with pytest.raises(VendorConfigError) as caught:
        _Undeclared(config, UNDECLARED, api_key=None, transport=RecordedTransport([]))

    assert caught.value.code is INVALID
    assert caught.value.path == f"VendorConfig.{option}"
    assert "is not supported by undeclared" in caught.value.message


@every_wire
async def test_a_two_turn_loop_lowers_the_temperature_and_forbids_tools_on_its_last_turn(
    wire: Wire,
) -> None:
    answers = (wire.tool_body(), *(wire.text_body("42") for _ in range(3)))
    transport = wire.recorded(*answers)
    model = wire.build({"tools": TOOLS, "temperature": 0.7}, transport=transport)

    first = await replay(model, REQUEST)
    # A wire whose API has no "none" (Bedrock's Converse) refuses it at
    # construction; its last turn forces the answer another way.
    choice = wire.last_turn_choice
    last_turn = model.with_config(temperature=0.2, tool_choice=choice)
    answer = await replay(last_turn, LOOP)
    # Built as the first model was (a dialect's model with its dialect), on the replaced config.
    rebuilt = wire.build(
        {"tools": TOOLS, "temperature": 0.2, "tool_choice": choice}, transport=transport
    )
    assert rebuilt.config == dataclasses.replace(model.config, temperature=0.2, tool_choice=choice)
    await replay(rebuilt, LOOP)
    await replay(model, LOOP)

    assert first.response is not None
    assert first.response.stop_reason == "toolCall"
    assert answer.response is not None
    assert answer.response.stop_reason == "stop"
    assert (model.config.temperature, model.config.tool_choice) == (0.7, None)
    assert (last_turn.config.temperature, last_turn.config.tool_choice) == (0.2, ToolChoice(choice))
    assert last_turn.transport is transport
    derived, replaced, unchanged = (thaw_json(call.body) for call in transport.requests[1:])
    assert derived == replaced, "with_config sends what a model on the replaced config sends"
    assert derived != unchanged, "the first model still sends its own options"


@every_wire
def test_with_config_refuses_what_belongs_to_the_shared_transport(wire: Wire) -> None:
    model = wire.model(transport=wire.recorded())

    for field in ("base_url", "timeouts"):
        with pytest.raises(VendorConfigError) as caught:
            model.with_config(**{field: None})
        assert caught.value.path.endswith(f".{field}")
    with pytest.raises(VendorConfigError) as refused:
        model.with_config(temperature=-1)
    assert refused.value.code is INVALID
    assert model.config.temperature is None


STRICT_TOOLS = (CourseToolSpec("add", "Add two integers.", {"type": "object"}, strict=True),)


@every_wire
async def test_a_strict_tool_changes_the_request_or_is_refused_at_construction(
    wire: Wire,
) -> None:
    plain = await sent_with(wire, {}, transport=wire.recorded(wire.text_body("hi")))
    try:
        model = wire.build({"tools": STRICT_TOOLS}, transport=wire.recorded(wire.text_body("hi")))
    except VendorConfigError as error:
        refused: VendorConfigError | None = error
    else:
        refused = None
    if refused is not None:
        assert refused.code is INVALID
        assert refused.path.endswith(".tools[0].strict")
        assert refused.message.endswith(": leave it False")
        return
    sent = await sent_by(model)

    assert thaw_json(sent.body) != thaw_json(plain.body)


def test_a_strict_tool_is_refused_unless_the_wire_declares_strict_tools() -> None:
    loose = CourseToolSpec("mul", "Multiply.", {"type": "object"})
    config = VendorConfig("m", tools=(loose, *STRICT_TOOLS), base_url="http://x.invalid")

    with pytest.raises(VendorConfigError) as caught:
        OptionSupport("strictless").check(config)
    OptionSupport("strict", strict_tools=True).check(config)

    assert caught.value.path == "VendorConfig.tools[1].strict"
    assert caught.value.message.endswith(".strict is not supported by strictless: leave it False")
