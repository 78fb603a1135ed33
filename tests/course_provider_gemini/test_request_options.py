"""Each option in the Gemini API's documented JSON, and what the API has no field for.

One golden body per option; the rules every vendor shares are tested over
every wire in ``tests/course_vendor/test_options_*.py``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from course_http import RecordedResponse, RecordedTransport
from course_protocol import (
    CourseModelRequest,
    CourseToolCall,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    thaw_json,
)
from course_provider_gemini import GeminiConfig, GeminiModel, generate_content_body
from course_vendor import (
    NamedTool,
    ReasoningEffort,
    ThinkingBudget,
    ToolChoice,
    VendorConfigError,
    VendorConfigErrorCode,
)
from tests.course_cassettes.replays import replay
from tests.course_provider_gemini import bodies as gemini
from tests.course_vendor.wire import sse_bytes

ADD = CourseToolSpec("add", "Adds.", {"type": "object"})
MUL = CourseToolSpec("mul", "Multiplies.", {"type": "object"})
INVALID = VendorConfigErrorCode.VENDOR_INVALID_CONFIG
QUESTION = CourseModelRequest("request-1", (CourseUserMessage("u-1", "What is 20 + 22?"),))


def config(**options: Any) -> GeminiConfig:
    return GeminiConfig("gemini-test", **options)


def options_of(settings: GeminiConfig) -> dict[str, Any]:
    """The body without what every request carries, to compare an option's entries alone."""
    # What is sent is JSON: compare what the wire carries, not Python values.
    body = json.loads(json.dumps(generate_content_body(QUESTION, settings)))
    for key in ("contents", "tools"):
        body.pop(key, None)
    return dict(body)


def refusal(**options: Any) -> VendorConfigError:
    with pytest.raises(VendorConfigError) as caught:
        config(**options)
    assert caught.value.code is INVALID
    return caught.value


def generation(**entries: Any) -> dict[str, Any]:
    return {"generationConfig": entries}


@pytest.mark.parametrize(
    ("options", "entries"),
    [
        ({}, {}),
        ({"max_output_tokens": 64}, generation(maxOutputTokens=64)),
        ({"temperature": 0.25}, generation(temperature=0.25)),
        ({"temperature": 2}, generation(temperature=2.0)),
        ({"temperature": 0}, generation(temperature=0.0)),
        ({"top_p": 0.9}, generation(topP=0.9)),
        ({"top_k": 40}, generation(topK=40)),
        ({"seed": -7}, generation(seed=-7)),
        ({"seed": 0}, generation(seed=0)),
        ({"stop_sequences": ("END", "###")}, generation(stopSequences=["END", "###"])),
        (
            {"stop_sequences": [f"S{n}" for n in range(5)]},
            generation(stopSequences=["S0", "S1", "S2", "S3", "S4"]),
        ),
        ({"reasoning": ThinkingBudget(2048)}, generation(thinkingConfig={"thinkingBudget": 2048})),
        ({"reasoning": ReasoningEffort.LOW}, generation(thinkingConfig={"thinkingLevel": "low"})),
        ({"reasoning": "high"}, generation(thinkingConfig={"thinkingLevel": "high"})),
        ({"reasoning": "minimal"}, generation(thinkingConfig={"thinkingLevel": "minimal"})),
        ({"reasoning": "medium"}, generation(thinkingConfig={"thinkingLevel": "medium"})),
        (
            {
                "max_output_tokens": 64,
                "temperature": 0.5,
                "top_p": 0.5,
                "top_k": 3,
                "seed": 1,
                "stop_sequences": ("END",),
                "reasoning": ThinkingBudget(1024),
            },
            generation(
                maxOutputTokens=64,
                temperature=0.5,
                topP=0.5,
                topK=3,
                seed=1,
                stopSequences=["END"],
                thinkingConfig={"thinkingBudget": 1024},
            ),
        ),
    ],
)
def test_each_generation_option_is_its_documented_generation_config_field(
    options: dict[str, Any], entries: dict[str, Any]
) -> None:
    sent = options_of(config(**options))

    assert sent == entries
    assert json.dumps(sent) == json.dumps(entries), "the fields are sent in a fixed order"


@pytest.mark.parametrize(
    ("choice", "calling"),
    [
        (ToolChoice.AUTO, {"mode": "AUTO"}),
        ("none", {"mode": "NONE"}),
        (ToolChoice.REQUIRED, {"mode": "ANY"}),
        (NamedTool("mul"), {"mode": "ANY", "allowedFunctionNames": ["mul"]}),
    ],
)
def test_a_tool_choice_is_a_function_calling_config_after_the_tools(
    choice: object, calling: dict[str, Any]
) -> None:
    settings = config(tools=(ADD, MUL), tool_choice=choice, temperature=1)
    body = json.loads(json.dumps(generate_content_body(QUESTION, settings)))

    assert body["toolConfig"] == {"functionCallingConfig": calling}
    assert list(body) == ["contents", "tools", "toolConfig", "generationConfig"]


def test_no_tool_choice_sends_no_tool_config() -> None:
    assert "toolConfig" not in options_of(config(tools=(ADD,)))


@pytest.mark.parametrize(
    ("options", "path", "message"),
    [
        (
            {"tools": (ADD,), "parallel_tool_calls": False},
            "GeminiConfig.parallel_tool_calls",
            "is not supported by gemini: leave it None",
        ),
        (
            {"tools": (ADD,), "parallel_tool_calls": True},
            "GeminiConfig.parallel_tool_calls",
            "is not supported by gemini: leave it None",
        ),
        (
            {"user_id": "user-7f3a"},
            "GeminiConfig.user_id",
            "is not supported by gemini: leave it None",
        ),
        (
            {"temperature": 2.5},
            "GeminiConfig.temperature",
            "must be from 0 to 2 for gemini, got 2.5",
        ),
        (
            {"stop_sequences": tuple(f"S{n}" for n in range(6))},
            "GeminiConfig.stop_sequences",
            "holds 6 stop sequences; gemini takes at most 5",
        ),
        (
            {"reasoning": ReasoningEffort.NONE},
            "GeminiConfig.reasoning",
            "is 'none', which gemini has no thinking level for "
            "(it takes 'minimal', 'low', 'medium', 'high')",
        ),
        (
            {"reasoning": "xhigh"},
            "GeminiConfig.reasoning",
            "is 'xhigh', which gemini has no thinking level for "
            "(it takes 'minimal', 'low', 'medium', 'high')",
        ),
        (
            {"reasoning": ThinkingBudget(2**31)},
            "GeminiConfig.reasoning.tokens",
            "must be at most 2**31 - 1 for gemini, got 2147483648",
        ),
        (
            {"top_k": 0},
            "GeminiConfig.top_k",
            "must be an int from 1 to 2**31 - 1 or None, got 0",
        ),
        (
            {"top_k": True},
            "GeminiConfig.top_k",
            "must be an int from 1 to 2**31 - 1 or None, got True",
        ),
        (
            {"top_k": 2**31},
            "GeminiConfig.top_k",
            "must be an int from 1 to 2**31 - 1 or None, got 2147483648",
        ),
        (
            {"seed": 1.5},
            "GeminiConfig.seed",
            "must be an int from -2**31 to 2**31 - 1 or None, got 1.5",
        ),
        (
            {"seed": -(2**31) - 1},
            "GeminiConfig.seed",
            "must be an int from -2**31 to 2**31 - 1 or None, got -2147483649",
        ),
        (
            {"seed": 10**400},
            "GeminiConfig.seed",
            "must be an int from -2**31 to 2**31 - 1 or None, got a large int",
        ),
    ],
)
def test_what_the_gemini_api_has_no_field_for_is_refused_naming_the_option(
    options: dict[str, Any], path: str, message: str
) -> None:
    refused = refusal(**options)

    assert refused.path == path
    assert (refused.path, refused.message) == (path, f"{path} {message}")


# Every top-level key the adapter writes, in both spellings the API's JSON
# mapping reads: the JSON name and the protobuf field name (the same for
# ``contents`` and ``tools``).
OWNED_KEYS = [
    "contents",
    "systemInstruction",
    "system_instruction",
    "tools",
    "toolConfig",
    "tool_config",
    "generationConfig",
    "generation_config",
]


@pytest.mark.parametrize("key", OWNED_KEYS)
def test_extra_body_may_not_hold_a_key_the_adapter_writes_in_either_spelling(key: str) -> None:
    refused = refusal(extra_body={key: {}})

    assert refused.path == f"GeminiConfig.extra_body[{key!r}]"
    assert "written by the gemini adapter itself" in str(refused)


def test_generation_config_in_its_protobuf_spelling_cannot_bypass_the_range_checks() -> None:
    refused = refusal(extra_body={"generation_config": {"temperature": 9, "candidate_count": 3}})

    assert refused.path == "GeminiConfig.extra_body['generation_config']"


@pytest.mark.parametrize("key", ["safetySettings", "safety_settings", "cachedContent", "labels"])
def test_extra_body_may_hold_a_field_the_adapter_never_writes(key: str) -> None:
    assert config(extra_body={key: []}).extra_body == {key: ()}


async def test_extra_body_and_headers_are_sent_after_what_the_adapter_writes() -> None:
    transport = RecordedTransport(
        [
            RecordedResponse(
                200, {"content-type": "text/event-stream"}, sse_bytes(gemini.text_body("hi"))
            )
        ]
    )
    settings = config(
        temperature=0.5,
        extra_body={"safetySettings": [{"category": "HARM_CATEGORY_HATE_SPEECH"}]},
        extra_headers={"X-Course-Probe": "1"},
    )

    await replay(GeminiModel(settings, transport=transport), QUESTION)

    [sent] = transport.requests
    body = thaw_json(sent.body)
    assert isinstance(body, dict)
    assert list(body) == ["contents", "generationConfig", "safetySettings"]
    assert body["safetySettings"] == [{"category": "HARM_CATEGORY_HATE_SPEECH"}]
    assert sent.headers["x-course-probe"] == "1"


async def test_another_model_sends_back_the_thought_signatures_from_the_transcript_alone() -> None:
    first_transport = RecordedTransport(
        [
            RecordedResponse(
                200, {"content-type": "text/event-stream"}, sse_bytes(gemini.tool_body())
            )
        ]
    )
    first = await replay(GeminiModel(config(tools=(ADD,)), transport=first_transport), QUESTION)
    assert first.response is not None
    [call] = [block for block in first.response.message.content if type(block) is CourseToolCall]

    # A new model, as another process would make: it knows only the transcript.
    transport = RecordedTransport(
        [
            RecordedResponse(
                200, {"content-type": "text/event-stream"}, sse_bytes(gemini.text_body("42"))
            )
        ]
    )
    other = GeminiModel(config(tools=(ADD,), tool_choice="none"), transport=transport)
    loop = CourseModelRequest(
        "request-2",
        (
            *QUESTION.messages,
            first.response.message,
            CourseToolResultMessage("t-1", call.id, call.name, "42"),
        ),
    )
    second = await replay(other, loop)

    assert second.error is None
    sent = thaw_json(transport.requests[0].body)
    assert isinstance(sent, dict)
    [model_turn] = [turn for turn in sent["contents"] if turn["role"] == "model"]
    assert model_turn["parts"] == [
        {"text": "Adding. "},
        {
            "functionCall": {"name": "add", "args": {"left": 20, "right": 22}},
            "thoughtSignature": "c2lnbmF0dXJl",
        },
    ]
