"""chat_request_body: one golden body per shape of course message and configuration."""

from __future__ import annotations

import json
from typing import Any

import pytest

from course_protocol import (
    CourseAssistantMessage,
    CourseMessage,
    CourseModelRequest,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
)
from course_provider_openai import OpenAIConfig, chat_request_body
from course_vendor import VendorConfigError
from tests.course_provider_openai.plain import assert_plain_json

CONFIG = OpenAIConfig("gpt-own")
STREAMING = {"stream": True, "stream_options": {"include_usage": True}}


def body_for(*messages: CourseMessage, config: OpenAIConfig = CONFIG) -> dict[str, Any]:
    return chat_request_body(CourseModelRequest("request-1", messages), config)


def test_a_user_message_alone_streams_with_usage() -> None:
    body = body_for(CourseUserMessage("u1", "What is 20 + 22?"))

    assert body == {
        "model": "gpt-own",
        "messages": [{"role": "user", "content": "What is 20 + 22?"}],
        **STREAMING,
    }
    assert list(body) == ["model", "messages", "stream", "stream_options"]


def test_the_system_prompt_is_the_first_message() -> None:
    config = OpenAIConfig("gpt-own", system_prompt="Be brief.")

    assert body_for(CourseUserMessage("u1", "Hi"), config=config)["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
    ]


def test_a_blank_system_prompt_is_refused_and_none_is_not_sent() -> None:
    with pytest.raises(
        VendorConfigError, match=r"^VENDOR_INVALID_CONFIG: OpenAIConfig\.system_prompt must be"
    ):
        OpenAIConfig("m", system_prompt="")
    prompt = body_for(CourseUserMessage("u1", "Hi"), config=OpenAIConfig("m", system_prompt=" x"))

    assert prompt["messages"][0] == {"role": "system", "content": " x"}
    assert body_for(CourseUserMessage("u1", "Hi"))["messages"][0]["role"] == "user"


def test_assistant_text_blocks_are_joined_in_order() -> None:
    assistant = CourseAssistantMessage(
        "a1", (CourseTextBlock("The sum "), CourseTextBlock("is 42."))
    )

    assert body_for(assistant)["messages"] == [{"role": "assistant", "content": "The sum is 42."}]


def test_assistant_tool_calls_carry_the_providers_ids_and_compact_json_arguments() -> None:
    assistant = CourseAssistantMessage(
        "a1",
        (
            CourseTextBlock("Adding."),
            CourseToolCall("call_1", "add", {"a": 20, "b": 22}),
            CourseToolCall("call_2", "where", {"city": "Zürich", "tags": ["x", None]}),
        ),
    )

    assert body_for(assistant)["messages"] == [
        {
            "role": "assistant",
            "content": "Adding.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "add", "arguments": '{"a":20,"b":22}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {
                        "name": "where",
                        "arguments": '{"city":"Zürich","tags":["x",null]}',
                    },
                },
            ],
        }
    ]


def test_an_assistant_with_only_tool_calls_has_null_content() -> None:
    assistant = CourseAssistantMessage("a1", (CourseToolCall("call_1", "now", {}),))

    assert body_for(assistant)["messages"] == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "now", "arguments": "{}"}}
            ],
        }
    ]


def test_an_empty_assistant_message_has_empty_content() -> None:
    assert body_for(CourseAssistantMessage("a1", ()))["messages"] == [
        {"role": "assistant", "content": ""}
    ]


def test_tool_results_are_tool_messages_and_an_error_result_keeps_its_content() -> None:
    results = (
        CourseToolResultMessage("r1", "call_1", "add", "42"),
        CourseToolResultMessage("r2", "call_2", "where", "Error: no such city", is_error=True),
    )

    assert body_for(*results)["messages"] == [
        {"role": "tool", "tool_call_id": "call_1", "content": "42"},
        {"role": "tool", "tool_call_id": "call_2", "content": "Error: no such city"},
    ]


def test_tools_and_the_token_limit_come_from_the_configuration() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    }
    config = OpenAIConfig(
        "gpt-own",
        max_output_tokens=256,
        tools=(CourseToolSpec("add", "Add two integers.", schema), CourseToolSpec("now", "", {})),
    )

    body = body_for(CourseUserMessage("u1", "Hi"), config=config)

    assert body["tools"] == [
        {
            "type": "function",
            "function": {"name": "add", "description": "Add two integers.", "parameters": schema},
        },
        {"type": "function", "function": {"name": "now", "description": "", "parameters": {}}},
    ]
    assert body["max_completion_tokens"] == 256
    assert list(body) == [
        "model",
        "messages",
        "tools",
        "max_completion_tokens",
        "stream",
        "stream_options",
    ]
    assert_plain_json(body)


def test_a_whole_tool_round_trip_converts_to_the_golden_body() -> None:
    transcript = (
        CourseUserMessage("u1", "What is 20 + 22?"),
        CourseAssistantMessage("a1", (CourseToolCall("call_1", "add", {"a": 20, "b": 22}),)),
        CourseToolResultMessage("r1", "call_1", "add", "42"),
        CourseAssistantMessage("a2", (CourseTextBlock("The sum is 42."),)),
        CourseUserMessage("u2", "Thanks."),
    )
    config = OpenAIConfig("gpt-own", system_prompt="Use the tools.")

    body = body_for(*transcript, config=config)

    assert json.dumps(body, separators=(",", ":")) == (
        '{"model":"gpt-own","messages":['
        '{"role":"system","content":"Use the tools."},'
        '{"role":"user","content":"What is 20 + 22?"},'
        '{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",'
        '"function":{"name":"add","arguments":"{\\"a\\":20,\\"b\\":22}"}}]},'
        '{"role":"tool","tool_call_id":"call_1","content":"42"},'
        '{"role":"assistant","content":"The sum is 42."},'
        '{"role":"user","content":"Thanks."}],'
        '"stream":true,"stream_options":{"include_usage":true}}'
    )


def test_each_call_returns_a_fresh_body_the_caller_may_change() -> None:
    request = CourseModelRequest("request-1", (CourseUserMessage("u1", "Hi"),))
    first = chat_request_body(request, CONFIG)
    first["messages"].append({"role": "user", "content": "changed"})  # type: ignore[attr-defined]

    assert chat_request_body(request, CONFIG)["messages"] == [{"role": "user", "content": "Hi"}]
