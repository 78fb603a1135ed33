"""What OpenAI caches of a Chat Completions or Responses request, and the calls that move it.

Bodies in the documented shapes: OpenAI caches the longest prefix a request
shares with a recent one (Tools, the structured-output schema, then the
messages or the instructions and input), with no marker; the model and
``prompt_cache_key`` pick the cache.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from course_provider_openai import CHAT_PLUGIN, RESPONSES_PLUGIN
from course_vendor import CachePrefix
from tests.course_vendor.prompt_cache import moves_of

CHAT = "/v1/chat/completions"
RESPONSES = "/v1/responses"

WEATHER = {
    "type": "object",
    "properties": {"location": {"type": "string"}},
    "required": ["location"],
}


def chat(**changes: Any) -> dict[str, Any]:
    """A Chat Completions request with one Tool, a system message and a question."""
    request: dict[str, Any] = {
        "model": "gpt-4.1",
        "stream": True,
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Get the current weather.",
                    "parameters": WEATHER,
                },
            }
        ],
        "messages": [
            {"role": "system", "content": "You answer questions about places."},
            {"role": "user", "content": "Weather in Paris?"},
        ],
    }
    request.update(changes)
    return request


def chat_turn_two(first: dict[str, Any]) -> dict[str, Any]:
    second = copy.deepcopy(first)
    second["messages"] += [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"location":"Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
    ]
    return second


def responses(**changes: Any) -> dict[str, Any]:
    """A Responses request with one Tool, instructions and a question."""
    request: dict[str, Any] = {
        "model": "gpt-5",
        "stream": True,
        "store": False,
        "instructions": "You answer questions about places.",
        "tools": [
            {
                "type": "function",
                "name": "get_weather",
                "description": "Get the current weather.",
                "parameters": WEATHER,
                "strict": False,
            }
        ],
        "input": [{"role": "user", "content": "Weather in Paris?"}],
    }
    request.update(changes)
    return request


def responses_turn_two(first: dict[str, Any]) -> dict[str, Any]:
    second = copy.deepcopy(first)
    second["input"] += [
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"location":"Paris"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "18 C"},
    ]
    return second


def test_a_chat_call_that_appends_moves_nothing() -> None:
    assert moves_of(CHAT, chat(), chat_turn_two(chat())) == []


def test_a_chat_tool_description_edit_is_named() -> None:
    second = chat_turn_two(chat())
    second["tools"][0]["function"]["description"] = "Get the weather."
    assert moves_of(CHAT, chat(), second) == [
        "call 2 moved the prefix openai-chat cached for call 1 at "
        'tools[0].function.description: recorded "Get the current weather.", '
        'then "Get the weather."'
    ]


def test_a_chat_system_prompt_and_an_earlier_turn_edit_are_named() -> None:
    second = chat_turn_two(chat())
    second["messages"][0]["content"] = "You answer questions about cities."
    [move] = moves_of(CHAT, chat(), second)
    assert " at messages[0].content: recorded " in move
    second = chat_turn_two(chat())
    second["messages"][1]["content"] = "Weather in Lyon?"
    [move] = moves_of(CHAT, chat(), second)
    assert move.endswith(
        'at messages[1].content: recorded "Weather in Paris?", then "Weather in Lyon?"'
    )


def test_a_chat_structured_output_schema_is_part_of_the_prefix() -> None:
    first = chat(
        response_format={"type": "json_schema", "json_schema": {"name": "a", "schema": {}}}
    )
    second = chat_turn_two(first)
    second["response_format"]["json_schema"]["name"] = "b"
    [move] = moves_of(CHAT, first, second)
    assert ' at response_format.json_schema.name: recorded "a", then "b"' in move


def test_chat_calls_under_another_model_or_cache_key_are_not_compared() -> None:
    other_key = chat(
        prompt_cache_key="summaries", messages=[{"role": "user", "content": "Sum up."}]
    )
    other_model = chat(model="gpt-4.1-mini", messages=[{"role": "user", "content": "Sum up."}])
    assert moves_of(CHAT, chat(), other_key, other_model, chat_turn_two(chat())) == []


def test_a_responses_call_that_appends_moves_nothing() -> None:
    assert moves_of(RESPONSES, responses(), responses_turn_two(responses())) == []


def test_responses_instructions_tool_and_earlier_input_edits_are_named() -> None:
    second = responses_turn_two(responses())
    second["instructions"] = "You answer questions about cities."
    [move] = moves_of(RESPONSES, responses(), second)
    assert " at instructions: recorded " in move
    second = responses_turn_two(responses())
    second["tools"][0]["description"] = "Get the weather."
    [move] = moves_of(RESPONSES, responses(), second)
    assert " at tools[0].description: recorded " in move
    second = responses_turn_two(responses())
    second["input"][0]["content"] = "Weather in Lyon?"
    [move] = moves_of(RESPONSES, responses(), second)
    assert move.endswith(
        'at input[0].content: recorded "Weather in Paris?", then "Weather in Lyon?"'
    )


def test_a_responses_schema_is_read_under_text_format() -> None:
    schema = {"type": "json_schema", "name": "weather", "schema": WEATHER, "strict": True}
    first = responses(text={"format": schema, "verbosity": "low"})
    second = responses_turn_two(first)
    second["text"]["verbosity"] = "high"
    assert moves_of(RESPONSES, first, second) == []
    second["text"]["format"]["name"] = "forecast"
    [move] = moves_of(RESPONSES, first, second)
    assert ' at text.format.name: recorded "weather", then "forecast"' in move


def test_a_responses_continuation_compares_only_its_settings() -> None:
    continued = responses(
        previous_response_id="resp_1",
        input=[{"type": "function_call_output", "call_id": "call_1", "output": "18 C"}],
    )
    assert moves_of(RESPONSES, responses(), continued) == []
    continued["instructions"] = "You answer questions about cities."
    [move] = moves_of(RESPONSES, responses(), continued)
    assert " at instructions: recorded " in move
    prefix = RESPONSES_PLUGIN.cache_prefix
    assert prefix is not None
    assert prefix(continued).resumes == 2


@pytest.mark.parametrize("plugin", [CHAT_PLUGIN, RESPONSES_PLUGIN], ids=["chat", "responses"])
@pytest.mark.parametrize("hostile", [[], "text", None, 3.5, [{"model": "x"}]])
def test_a_body_that_is_no_object_has_no_prefix(plugin: Any, hostile: object) -> None:
    assert plugin.cache_prefix(hostile) == CachePrefix("", (), 0)


def test_fields_of_the_wrong_type_are_parts_compared_whole() -> None:
    chat_prefix, responses_prefix = CHAT_PLUGIN.cache_prefix, RESPONSES_PLUGIN.cache_prefix
    assert chat_prefix is not None
    assert responses_prefix is not None
    assert chat_prefix({"tools": {}, "messages": "hi"}).parts == (("tools", {}), ("messages", "hi"))
    assert responses_prefix({"text": "plain", "input": "hi", "tools": None}).parts == (
        ("tools", None),
        ("text", "plain"),
        ("input", "hi"),
    )
