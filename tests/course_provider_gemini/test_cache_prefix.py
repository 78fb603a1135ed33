"""What Gemini caches of a request, and the calls that move it.

Bodies in the documented ``generateContent`` shape: implicit caching reuses
the longest shared prefix (the system instruction, the Tools and their
configuration, the contents); ``cachedContent`` names an explicit cache the
contents are appended to. The model is in the path.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from course_provider_gemini import GEMINI_PLUGIN
from course_vendor import CachePrefix, prompt_cache_moves
from tests.course_vendor.prompt_cache import moves_of, recorded

FLASH = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
PRO = "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"


def body(**changes: Any) -> dict[str, Any]:
    """A request with a system instruction, one Tool and a question."""
    request: dict[str, Any] = {
        "systemInstruction": {"parts": [{"text": "You answer questions about places."}]},
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "get_weather",
                        "description": "Get the current weather.",
                        "parametersJsonSchema": {"type": "object"},
                    }
                ]
            }
        ],
        "contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}],
    }
    request.update(changes)
    return request


def turn_two(first: dict[str, Any]) -> dict[str, Any]:
    second = copy.deepcopy(first)
    second["contents"] += [
        {
            "role": "model",
            "parts": [{"functionCall": {"name": "get_weather", "args": {"location": "Paris"}}}],
        },
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "get_weather", "response": {"c": 18}}}],
        },
    ]
    return second


def test_a_call_that_appends_moves_nothing() -> None:
    assert moves_of(FLASH, body(), turn_two(body())) == []


def test_the_system_instruction_a_tool_and_an_earlier_turn_are_named() -> None:
    second = turn_two(body())
    second["systemInstruction"]["parts"][0]["text"] = "You answer questions about cities."
    assert moves_of(FLASH, body(), second) == [
        "call 2 moved the prefix gemini cached for call 1 at systemInstruction.parts[0].text: "
        'recorded "You answer questions about places.", '
        'then "You answer questions about cities."'
    ]
    second = turn_two(body())
    second["tools"][0]["functionDeclarations"][0]["description"] = "Get the weather."
    [move] = moves_of(FLASH, body(), second)
    assert " at tools[0].functionDeclarations[0].description: " in move
    second = turn_two(body())
    second["contents"][0]["parts"][0]["text"] = "Weather in Lyon?"
    [move] = moves_of(FLASH, body(), second)
    assert " at contents[0].parts[0].text: " in move


def test_an_explicit_cache_comes_first_and_its_change_is_named() -> None:
    first = {"cachedContent": "cachedContents/a1", "contents": body()["contents"]}
    second = turn_two(first)
    assert moves_of(FLASH, first, second) == []
    second["cachedContent"] = "cachedContents/b2"
    [move] = moves_of(FLASH, first, second)
    assert ' at cachedContent: recorded "cachedContents/a1", then "cachedContents/b2"' in move


def test_calls_to_another_model_are_compared_only_with_calls_to_it() -> None:
    other = body(systemInstruction={"parts": [{"text": "Summarize."}]})
    [move] = moves_of(FLASH, body(), other)
    assert " at systemInstruction.parts[0].text: " in move
    calls = [recorded(FLASH, body()), recorded(PRO, other), recorded(FLASH, turn_two(body()))]
    assert prompt_cache_moves(calls) == ()


@pytest.mark.parametrize("hostile", [[], "text", None, 3, [{"contents": []}]])
def test_a_body_that_is_no_object_has_no_prefix(hostile: object) -> None:
    prefix = GEMINI_PLUGIN.cache_prefix
    assert prefix is not None
    assert prefix(hostile) == CachePrefix("", (), 0)


def test_fields_of_the_wrong_type_are_parts_compared_whole() -> None:
    prefix = GEMINI_PLUGIN.cache_prefix
    assert prefix is not None
    assert prefix({"contents": "hi", "tools": 1, "toolConfig": []}).parts == (
        ("tools", 1),
        ("toolConfig", []),
        ("contents", "hi"),
    )
