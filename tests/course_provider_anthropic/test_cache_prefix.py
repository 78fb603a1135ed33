"""What the Messages API caches of a request, and the calls that move it.

Bodies in the documented shape of a Messages request with prompt caching:
``cache_control`` breakpoints on a Tool, a system block or a content block
(the prefix is ``tools``, ``system``, ``messages`` up to the last one), or
once at the top level (automatic caching: the whole prompt).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from course_provider_anthropic import MESSAGES_PLUGIN
from course_vendor import CachePrefix
from tests.course_vendor.prompt_cache import moves_of

PATH = "/v1/messages"
MARK = {"type": "ephemeral"}


def body(**changes: Any) -> dict[str, Any]:
    """A two-Tool, two-turn request, breakpoints on the last Tool and the system block."""
    request: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "tools": [
            {
                "name": "get_weather",
                "description": "Get the current weather in a given location.",
                "input_schema": {"type": "object", "properties": {"location": {"type": "string"}}},
            },
            {
                "name": "get_time",
                "description": "Get the current time in a given time zone.",
                "input_schema": {"type": "object", "properties": {"timezone": {"type": "string"}}},
                "cache_control": MARK,
            },
        ],
        "system": [
            {"type": "text", "text": "You answer questions about places.", "cache_control": MARK}
        ],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
        ],
    }
    request.update(changes)
    return request


def turn_two(first: dict[str, Any]) -> dict[str, Any]:
    """``first`` with the answer and the next question appended."""
    second = copy.deepcopy(first)
    second["messages"] += [
        {
            "role": "assistant",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_01",
                    "name": "get_weather",
                    "input": {"location": "Paris"},
                }
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "18 C"}],
        },
    ]
    return second


def on_last_user_block(request: dict[str, Any]) -> dict[str, Any]:
    """``request`` with its only message breakpoint on the last block of the last message."""
    marked = copy.deepcopy(request)
    for message in marked["messages"]:
        for block in message["content"]:
            block.pop("cache_control", None)
    marked["messages"][-1]["content"][-1]["cache_control"] = MARK
    return marked


def test_a_call_that_appends_turns_moves_nothing_even_as_its_breakpoint_moves_forward() -> None:
    first = on_last_user_block(body())
    second = on_last_user_block(turn_two(first))
    assert moves_of(PATH, first, second) == []


def test_an_edited_tool_description_is_named_with_both_values() -> None:
    second = turn_two(body())
    second["tools"][0]["description"] = "Get the weather."
    assert moves_of(PATH, body(), second) == [
        "call 2 moved the prefix anthropic-messages cached for call 1 at "
        'tools[0].description: recorded "Get the current weather in a given location.", '
        'then "Get the weather."'
    ]


def test_an_edited_system_prompt_is_named_at_its_block() -> None:
    second = turn_two(body())
    second["system"][0]["text"] = "You answer questions about cities."
    [move] = moves_of(PATH, body(), second)
    assert " at system[0].text: recorded " in move


def test_an_edited_earlier_turn_is_named_when_a_breakpoint_covers_it() -> None:
    first = on_last_user_block(body())
    second = on_last_user_block(turn_two(first))
    second["messages"][0]["content"][0]["text"] = "Weather in Lyon?"
    [move] = moves_of(PATH, first, second)
    assert move.endswith(
        'at messages[0].content[0].text: recorded "Weather in Paris?", then "Weather in Lyon?"'
    )


def test_an_edit_after_the_last_breakpoint_moves_nothing() -> None:
    second = turn_two(body())
    second["messages"][0]["content"][0]["text"] = "Weather in Lyon?"
    assert moves_of(PATH, body(), second) == []


def test_a_request_without_a_breakpoint_caches_nothing_so_nothing_moves() -> None:
    unmarked = body(
        tools=[
            {key: value for key, value in tool.items() if key != "cache_control"}
            for tool in body()["tools"]
        ],
        system="You answer questions about places.",
    )
    edited = dict(unmarked, system="You answer questions about cities.")
    prefix = MESSAGES_PLUGIN.cache_prefix
    assert prefix is not None
    assert prefix(unmarked).cached == 0
    assert moves_of(PATH, unmarked, edited) == []


def test_a_top_level_cache_control_caches_the_whole_prompt() -> None:
    first = dict(body(), cache_control=MARK)
    second = turn_two(first)
    assert moves_of(PATH, first, second) == []
    second["messages"][0]["content"][0]["text"] = "Weather in Lyon?"
    [move] = moves_of(PATH, first, second)
    assert " at messages[0].content[0].text: " in move


def test_a_breakpoint_inside_a_tool_result_caches_up_to_its_block() -> None:
    first = turn_two(body())
    first["messages"][2]["content"][0]["content"] = [
        {"type": "text", "text": "18 C", "cache_control": MARK}
    ]
    second = copy.deepcopy(first)
    second["messages"][0]["content"][0]["text"] = "Weather in Lyon?"
    [move] = moves_of(PATH, first, second)
    assert " at messages[0].content[0].text: " in move
    moved_marker = copy.deepcopy(first)
    del moved_marker["messages"][2]["content"][0]["content"][0]["cache_control"]
    assert moves_of(PATH, first, moved_marker) == []


def test_a_new_tool_is_named_where_it_was_put_in_and_a_deferred_one_moves_nothing() -> None:
    added = body()
    added["tools"] = [
        *added["tools"],
        {"name": "get_tide", "description": "Tides.", "input_schema": {}},
    ]
    [move] = moves_of(PATH, body(), added)
    assert " at tools[2]: recorded <missing>, then {" in move
    deferred = body()
    deferred["tools"] = [
        {"name": "get_tide", "description": "Tides.", "input_schema": {}, "defer_loading": True},
        *deferred["tools"],
    ]
    prefix = MESSAGES_PLUGIN.cache_prefix
    assert prefix is not None
    assert [path for path, _ in prefix(deferred).parts][:2] == ["tools[1]", "tools[2]"]
    assert moves_of(PATH, body(), deferred) == []
    deferred["tools"][2]["description"] = "The time."
    [move] = moves_of(PATH, body(), deferred)
    assert (
        ' at tools[2].description: recorded "Get the current time in a given time zone.", ' in move
    )


def test_a_removed_tool_moves_the_tools_after_it_into_its_place() -> None:
    removed = body(tools=body()["tools"][1:])
    [move] = moves_of(PATH, body(), removed)
    assert move.endswith('at tools[0].name: recorded "get_weather", then "get_time"')


def test_tool_choice_keeps_the_cached_tools_and_system_but_not_the_messages() -> None:
    chosen = dict(body(), tool_choice={"type": "any"})
    assert moves_of(PATH, body(), chosen) == []
    first = on_last_user_block(body())
    second = dict(turn_two(first), tool_choice={"type": "any"})
    [move] = moves_of(PATH, first, second)
    assert ' at tool_choice: recorded <missing>, then {"type":"any"}' in move


def test_calls_to_another_model_are_compared_only_with_calls_to_it() -> None:
    other = body(model="claude-haiku-4-5", system=[{"type": "text", "text": "Summarize."}])
    second = turn_two(body())
    assert moves_of(PATH, body(), other, second) == []


@pytest.mark.parametrize("hostile", [[], "text", None, 3, [{"model": "x"}]])
def test_a_body_that_is_no_object_has_no_prefix(hostile: object) -> None:
    prefix = MESSAGES_PLUGIN.cache_prefix
    assert prefix is not None
    assert prefix(hostile) == CachePrefix("", (), 0)


def test_fields_of_the_wrong_type_are_parts_compared_whole() -> None:
    prefix = MESSAGES_PLUGIN.cache_prefix
    assert prefix is not None
    hostile = {
        "model": 7,
        "tools": "get_weather",
        "system": 3,
        "messages": [None, "hi", {"role": "user", "content": {"type": "text"}}],
        "cache_control": MARK,
    }
    assert prefix(hostile) == CachePrefix(
        "7",
        (
            ("tools", "get_weather"),
            ("system", 3),
            ("messages[0]", None),
            ("messages[1]", "hi"),
            ("messages[2]", {"role": "user", "content": {"type": "text"}}),
        ),
        5,
    )
