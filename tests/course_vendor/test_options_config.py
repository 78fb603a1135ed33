"""The common options and the escape hatch: checked the same way by every vendor's configuration.

Every table runs over the configuration class of every registered wire
(`every_config`): a value no vendor can take is refused with
``VENDOR_INVALID_CONFIG`` and a message starting with the field's path; each
vendor's own ranges and spellings are tested in its folder.
"""

from __future__ import annotations

import dataclasses
import math
import pickle
from collections.abc import Mapping
from typing import Any

import pytest

from course_http import RecordedTransport, VendorErrorBody, VendorErrorCode
from course_protocol import CourseModelRequest, CourseToolSpec, CourseUserMessage
from course_provider_openai import OpenAIConfig
from course_vendor import (
    NamedTool,
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
from tests.course_vendor.wires import every_config

ADD = CourseToolSpec("add", "Adds.", {"type": "object"})
INVALID = VendorConfigErrorCode.VENDOR_INVALID_CONFIG


class DictThatLiesWhenRead(dict[str, str]):
    """A dict whose own ``items`` and ``__iter__`` show something other than what it holds."""

    def items(self) -> Any:
        return [("authorization", "Bearer stolen")]

    def __iter__(self) -> Any:
        return iter(["authorization"])


def refusal(config_class: type[VendorConfig], fields: dict[str, Any]) -> VendorConfigError:
    with pytest.raises(VendorConfigError) as caught:
        config_class(**fields)
    assert caught.value.code is INVALID
    return caught.value


REFUSED: list[tuple[dict[str, Any], str, str]] = [
    ({"temperature": -0.1}, "temperature", "must be a number of 0 or more, got -0.1"),
    (
        {"temperature": math.nan},
        "temperature",
        "must be a finite number of 0 or more or None, got nan",
    ),
    (
        {"temperature": True},
        "temperature",
        "must be a finite number of 0 or more or None, got True",
    ),
    (
        {"temperature": "0.5"},
        "temperature",
        "must be a finite number of 0 or more or None, got '0.5'",
    ),
    (
        {"temperature": 10**400},
        "temperature",
        "must be a number of 0 or more, got a large int",
    ),
    ({"top_p": 1.01}, "top_p", "must be a number from 0 to 1, got 1.01"),
    ({"top_p": -1}, "top_p", "must be a number from 0 to 1, got -1"),
    ({"stop_sequences": "END"}, "stop_sequences", "must be a tuple or list of str, got 'END'"),
    (
        {"stop_sequences": ("END", " ")},
        "stop_sequences[1]",
        "must be a non-blank str, got ' '",
    ),
    ({"stop_sequences": ("END", 3)}, "stop_sequences[1]", "must be a non-blank str, got 3"),
    ({"stop_sequences": ("END", "END")}, "stop_sequences", "repeats a stop sequence"),
    (
        {"tool_choice": "any"},
        "tool_choice",
        "must be a ToolChoice ('auto', 'none', 'required'), a NamedTool or None, got 'any'",
    ),
    (
        {"tool_choice": "requried"},
        "tool_choice",
        "must be a ToolChoice ('auto', 'none', 'required'), a NamedTool or None, got 'requried'",
    ),
    (
        {"tool_choice": "x" * 1000},
        "tool_choice",
        "must be a ToolChoice ('auto', 'none', 'required'), a NamedTool or None, "
        f"got '{'x' * 199}\u2026'",
    ),
    (
        {"tool_choice": ToolChoice.AUTO},
        "tool_choice",
        "needs Tools: configure tools, or leave tool_choice None",
    ),
    (
        {"tool_choice": NamedTool("mul"), "tools": (ADD,)},
        "tool_choice.name",
        "must name a configured Tool ('add'), got 'mul'",
    ),
    (
        {"tool_choice": NamedTool(7), "tools": (ADD,)},  # type: ignore[arg-type]
        "tool_choice.name",
        "must name a configured Tool ('add'), got 7",
    ),
    (
        {"parallel_tool_calls": 0, "tools": (ADD,)},
        "parallel_tool_calls",
        "must be a bool or None, got 0",
    ),
    (
        {"parallel_tool_calls": True},
        "parallel_tool_calls",
        "needs Tools: configure tools, or leave it None",
    ),
    (
        {"parallel_tool_calls": False, "tools": (ADD,), "tool_choice": "none"},
        "parallel_tool_calls",
        "means nothing with tool_choice 'none': leave it None",
    ),
    (
        {"user_id": ""},
        "user_id",
        "must be a non-blank str of at most 256 characters or None, got an empty str",
    ),
    (
        {"user_id": " \t"},
        "user_id",
        "must be a non-blank str of at most 256 characters or None, got a blank str",
    ),
    (
        {"user_id": "u" * 257},
        "user_id",
        "must be a non-blank str of at most 256 characters or None, got a str of 257 characters",
    ),
    (
        {"reasoning": "hard"},
        "reasoning",
        "must be a ReasoningEffort, a ThinkingBudget or None, got 'hard'",
    ),
    (
        {"reasoning": ThinkingBudget(0)},
        "reasoning.tokens",
        "must be an int from 1 to 2**53 - 1, got 0",
    ),
    (
        {"response_format": {"type": "json_schema"}},
        "response_format",
        "must be a CourseResponseFormat or None, got dict",
    ),
    ({"extra_body": [1]}, "extra_body", "must be a JSON object, not list"),
    ({"extra_body": {"x": math.inf}}, "extra_body.x", "is not a finite number"),
    (
        {"extra_body": {"x": {1: 2}}},
        "extra_body.x",
        "has a key of type int; object keys must be str",
    ),
    ({"extra_body": {"x": {1, 2}}}, "extra_body.x", "has unsupported type set"),
    (
        {"extra_headers": [("x-a", "1")]},
        "extra_headers",
        "must be a dict of str to str or None, got list",
    ),
    (
        {"extra_headers": {"Authorization": "Bearer sk-x"}},
        "extra_headers['authorization']",
        "is a credential header: give the key to the model, never in a header",
    ),
    (
        {"extra_headers": {"x-api-key": "sk-x"}},
        "extra_headers['x-api-key']",
        "is a credential header: give the key to the model, never in a header",
    ),
    (
        {"extra_headers": {"x-goog-api-key": "k"}},
        "extra_headers['x-goog-api-key']",
        "is a credential header: give the key to the model, never in a header",
    ),
    (
        {"extra_headers": {"api-key": "k"}},
        "extra_headers['api-key']",
        "is a credential header: give the key to the model, never in a header",
    ),
    (
        {"extra_headers": {"Content-Type": "text/plain"}},
        "extra_headers['content-type']",
        "is set by the transport",
    ),
    ({"extra_headers": {"accept": "*/*"}}, "extra_headers['accept']", "is set by the transport"),
    ({"extra_headers": {"x-a": "1", "X-A": "2"}}, "extra_headers['x-a']", "is given twice"),
    (
        {"extra_headers": {"x-a": "1\r\nx-b: 2"}},
        "extra_headers['x-a']",
        "must be a str of visible ASCII, with spaces or tabs only inside",
    ),
    (
        {"extra_headers": {"x-a": " 1"}},
        "extra_headers['x-a']",
        "must be a str of visible ASCII, with spaces or tabs only inside",
    ),
    (
        {"extra_headers": {"x a": "1"}},
        "extra_headers",
        "holds a header name that is not an HTTP token: 'x a'",
    ),
    (
        {"extra_headers": DictThatLiesWhenRead({"x-api-key": "sk-x"})},
        "extra_headers['x-api-key']",
        "is a credential header: give the key to the model, never in a header",
    ),
]


@every_config
@pytest.mark.parametrize(("fields", "field", "problem"), REFUSED)
def test_a_common_option_no_vendor_can_take_is_refused_naming_its_path(
    config_class: type[VendorConfig],
    minimal: dict[str, Any],
    fields: dict[str, Any],
    field: str,
    problem: str,
) -> None:
    error = refusal(config_class, {**minimal, **fields})

    path = f"{config_class.__name__}.{field}"
    assert (error.path, error.message) == (path, f"{path} {problem}")
    assert "sk-x" not in error.message


@every_config
def test_option_values_are_normalized_and_frozen(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    stops = ["END"]
    body = {"x_labels": {"tags": ["a"]}}
    headers = {"X-Trace": "t-1"}
    config = config_class(
        **minimal,
        tools=(ADD,),
        temperature=1,
        stop_sequences=stops,  # type: ignore[arg-type]
        tool_choice="required",
        extra_body=body,
        extra_headers=headers,
    )
    stops.append("STOP")
    body["x_labels"]["tags"].append("b")
    headers["x-other"] = "2"

    assert type(config.temperature) is float
    assert config.stop_sequences == ("END",)
    assert config.tool_choice is ToolChoice.REQUIRED
    assert config.extra_body == {"x_labels": {"tags": ("a",)}}
    assert dict(config.extra_headers or {}) == {"x-trace": "t-1"}
    with pytest.raises(TypeError):
        config.extra_body["x_labels"] = 1  # type: ignore[index]
    assert pickle.loads(pickle.dumps(config)) == config
    assert hash(config) == hash(dataclasses.replace(config))


@every_config
def test_replace_checks_the_new_configuration_again(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    config = config_class(**minimal, tools=(ADD,), tool_choice=NamedTool("add"))

    with pytest.raises(VendorConfigError) as caught:
        dataclasses.replace(config, tools=())

    assert caught.value.path == f"{config_class.__name__}.tool_choice"


def test_an_effort_may_be_given_by_its_string() -> None:
    assert OpenAIConfig("gpt", reasoning="high").reasoning is ReasoningEffort.HIGH


class _Forgetful(VendorModel[VendorConfig]):
    """A vendor model that writes ``prompt`` but forgot to declare it among its body keys."""

    __slots__ = ()

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        return {"prompt": request.id}

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        return {"x-own": "1"}

    def _parser(self, request_id: str) -> VendorPlay:
        raise AssertionError("never reached: the call fails before anything is sent")


FORGETFUL = VendorWire("forgetful", "FORGETFUL_KEY", "/v1/x", lambda body: VendorErrorBody())
REQUEST = CourseModelRequest("request-1", (CourseUserMessage("u-1", "Hi"),))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"extra_body": {"prompt": "other"}}, "extra_body['prompt']"),
        ({"extra_headers": {"X-Own": "2"}}, "extra_headers['x-own']"),
    ],
)
async def test_an_extra_entry_never_replaces_what_the_adapter_wrote(
    fields: dict[str, Any], message: str
) -> None:
    config = VendorConfig("m", base_url="http://x.invalid", **fields)
    transport = RecordedTransport([])
    model = _Forgetful(config, FORGETFUL, api_key=None, transport=transport)

    failed = await replay(model, REQUEST)

    assert failed.error is not None
    assert failed.error.code is VendorErrorCode.VENDOR_INVALID_REQUEST
    assert failed.error.message == (
        f"{message} would replace what the forgetful adapter writes itself"
    )
    assert transport.requests == ()
