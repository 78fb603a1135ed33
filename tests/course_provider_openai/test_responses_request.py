"""responses_request_body: one golden body per shape of course message and configuration."""

from __future__ import annotations

import json
from typing import Any

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
from course_provider_openai import OpenAIConfig, responses_request_body
from tests.course_provider_openai.plain import assert_plain_json

CONFIG = OpenAIConfig("gpt-own")


def body_for(*messages: CourseMessage, config: OpenAIConfig = CONFIG) -> dict[str, Any]:
    return responses_request_body(CourseModelRequest("request-1", messages), config)


def assistant_text(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "assistant", "content": text}


def test_a_user_message_alone_is_one_input_item_never_stored() -> None:
    body = body_for(CourseUserMessage("u1", "What is 20 + 22?"))

    assert body == {
        "model": "gpt-own",
        "input": [{"type": "message", "role": "user", "content": "What is 20 + 22?"}],
        "store": False,
        "stream": True,
    }
    assert list(body) == ["model", "input", "store", "stream"]


def test_the_system_prompt_is_the_instructions() -> None:
    body = body_for(CourseUserMessage("u1", "Hi"), config=OpenAIConfig("m", system_prompt="Brief."))

    assert body["instructions"] == "Brief."
    assert list(body)[:3] == ["model", "instructions", "input"]
    assert [item["role"] for item in body["input"]] == ["user"]


def test_assistant_text_and_calls_keep_their_order_as_items() -> None:
    assistant = CourseAssistantMessage(
        "a1",
        (
            CourseTextBlock("Let me "),
            CourseTextBlock("check."),
            CourseToolCall("call_1", "add", {"a": 20, "b": 22}),
            CourseToolCall("call_2", "where", {"city": "Zürich"}),
            CourseTextBlock("Then more."),
        ),
    )

    assert body_for(assistant)["input"] == [
        assistant_text("Let me check."),
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "add",
            "arguments": '{"a":20,"b":22}',
        },
        {
            "type": "function_call",
            "call_id": "call_2",
            "name": "where",
            "arguments": '{"city":"Zürich"}',
        },
        assistant_text("Then more."),
    ]


def test_empty_text_runs_are_dropped_but_an_empty_message_is_kept() -> None:
    only_call = CourseAssistantMessage(
        "a1", (CourseTextBlock(""), CourseToolCall("call_1", "now", {}), CourseTextBlock(""))
    )

    assert body_for(only_call)["input"] == [
        {"type": "function_call", "call_id": "call_1", "name": "now", "arguments": "{}"}
    ]
    assert body_for(CourseAssistantMessage("a2", ()))["input"] == [assistant_text("")]
    assert body_for(CourseAssistantMessage("a3", (CourseTextBlock(""),)))["input"] == [
        assistant_text("")
    ]


def test_tool_results_are_function_call_outputs_and_an_error_result_keeps_its_content() -> None:
    results = (
        CourseToolResultMessage("r1", "call_1", "add", "42"),
        CourseToolResultMessage("r2", "call_2", "where", "Error: no such city", is_error=True),
    )

    assert body_for(*results)["input"] == [
        {"type": "function_call_output", "call_id": "call_1", "output": "42"},
        {"type": "function_call_output", "call_id": "call_2", "output": "Error: no such city"},
    ]


def test_tools_are_sent_in_the_responses_shape_with_the_specs_strict_mode() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    config = OpenAIConfig(
        "gpt-own", max_output_tokens=64, tools=(CourseToolSpec("inc", "Add one.", schema),)
    )

    body = body_for(CourseUserMessage("u1", "Hi"), config=config)

    assert body["tools"] == [
        {
            "type": "function",
            "name": "inc",
            "description": "Add one.",
            "parameters": schema,
            "strict": False,
        }
    ]
    assert body["max_output_tokens"] == 64
    assert list(body) == ["model", "input", "tools", "max_output_tokens", "store", "stream"]
    assert_plain_json(body)


def test_a_whole_tool_round_trip_converts_to_the_golden_body() -> None:
    transcript = (
        CourseUserMessage("u1", "What is 20 + 22?"),
        CourseAssistantMessage("a1", (CourseToolCall("call_1", "add", {"a": 20, "b": 22}),)),
        CourseToolResultMessage("r1", "call_1", "add", "42"),
        CourseAssistantMessage("a2", (CourseTextBlock("The sum is 42."),)),
    )
    config = OpenAIConfig("gpt-own", system_prompt="Use the tools.")

    body = body_for(*transcript, config=config)

    assert json.dumps(body, separators=(",", ":")) == (
        '{"model":"gpt-own","instructions":"Use the tools.","input":['
        '{"type":"message","role":"user","content":"What is 20 + 22?"},'
        '{"type":"function_call","call_id":"call_1","name":"add",'
        '"arguments":"{\\"a\\":20,\\"b\\":22}"},'
        '{"type":"function_call_output","call_id":"call_1","output":"42"},'
        '{"type":"message","role":"assistant","content":"The sum is 42."}],'
        '"store":false,"stream":true}'
    )


def test_each_call_returns_a_fresh_body_the_caller_may_change() -> None:
    request = CourseModelRequest("request-1", (CourseUserMessage("u1", "Hi"),))
    first = responses_request_body(request, CONFIG)
    first["input"].clear()  # type: ignore[attr-defined]

    assert len(responses_request_body(request, CONFIG)["input"]) == 1  # type: ignore[arg-type]
