"""The per-chunk short paths of the Chat dialects read exactly what the long paths read.

A delta of text beside the dialect's null reasoning fields skips the rest of
OpenAI's delta fields only when it holds nothing else; a content-part array
is read in one pass and, at a part off the form, read again to name its
path; usage without detail objects is read without them. Each test puts a
bad value where a short path that checked less would let it through.
"""

from __future__ import annotations

from typing import Any

import pytest
from frozendict import frozendict

from course_http import VendorError, VendorErrorCode
from course_protocol import CourseOpaque, CourseReasoningBlock, CourseTextBlock
from course_provider_openai import (
    AZURE_OPENAI_CHAT,
    DEEPSEEK,
    MISTRAL,
    OPENROUTER,
    VLLM,
    ChatDialect,
    ChatGrammar,
    ChatMapping,
    ChatResult,
    ChatUsage,
)
from course_vendor import VendorConfigError, VendorConfigErrorCode
from tests.course_provider_openai.bodies import DONE, chat_events, chunk, finish, usage
from tests.course_provider_openai.dialect_grammar import COUNTS, ROLE, folded
from tests.course_provider_openai.driving import replay

Code = VendorErrorCode


def refusal_of(dialect: ChatDialect, *payloads: object) -> tuple[Code, int | None, str]:
    error = folded(dialect, *payloads)
    assert type(error) is VendorError, error
    return error.code, error.event_index, error.message


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("refusal", 5, "choices[0].delta.refusal must be a string or null"),
        ("role", "narrator", "choices[0].delta.role 'narrator' is not a role"),
        ("tool_calls", "x", "tool_calls"),
        ("annotations", 3, "choices[0].delta.annotations"),
    ],
)
def test_a_text_delta_beside_a_null_reasoning_field_still_reads_every_other_field(
    field: str, value: object, says: str
) -> None:
    delta = {"content": "x", "reasoning_content": None, field: value}

    code, index, message = refusal_of(DEEPSEEK, ROLE, chunk(delta), finish("stop"))

    assert (code, index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert says in message


def test_a_null_reasoning_field_alone_beside_text_reads_as_text() -> None:
    result = folded(
        DEEPSEEK,
        ROLE,
        chunk({"content": "Hi", "reasoning_content": None}),
        chunk({"content": " there", "reasoning_content": None}),
        finish("stop"),
        usage(),
        DONE,
    )

    assert type(result) is ChatResult
    [choice] = result.choices
    assert (choice.content, choice.reasoning) == ("Hi there", "")


def test_openrouters_details_beside_text_are_still_read_and_checked() -> None:
    bad = {"content": "x", "reasoning": None, "reasoning_details": [{"type": "reasoning.other"}]}

    code, index, message = refusal_of(OPENROUTER, ROLE, chunk(bad), finish("stop"))

    assert (code, index) == (Code.VENDOR_UNKNOWN_EVENT, 1)
    assert "choices[0].delta.reasoning_details[0].type 'reasoning.other'" in message


@pytest.mark.parametrize(
    ("parts", "code", "says"),
    [
        ([{"type": "text", "text": "a"}, "b"], Code.VENDOR_INVALID_EVENT, "content[1] must be"),
        ([{"type": "text", "text": 1}], Code.VENDOR_INVALID_EVENT, "content[0].text must be"),
        ([{"type": "image"}], Code.VENDOR_UNKNOWN_EVENT, "content[0].type 'image'"),
        ([{"type": 7}], Code.VENDOR_INVALID_EVENT, "content[0].type must be a string"),
        (
            [{"type": "thinking", "thinking": "t"}],
            Code.VENDOR_INVALID_EVENT,
            "content[0].thinking must be an array",
        ),
        (
            [{"type": "thinking", "thinking": [{"type": "text", "text": "a"}, {"type": "x"}]}],
            Code.VENDOR_UNKNOWN_EVENT,
            "content[0].thinking[1].type 'x'",
        ),
        (
            [{"type": "thinking", "thinking": [{"type": "text", "text": None}]}],
            Code.VENDOR_INVALID_EVENT,
            "content[0].thinking[0].text must be a string",
        ),
        (
            [{"type": "thinking", "thinking": [], "closed": "yes"}],
            Code.VENDOR_INVALID_EVENT,
            "content[0].closed must be a boolean or null",
        ),
        (
            [{"type": "text", "text": "a"}, {"type": "reference", "reference_ids": [-1]}],
            Code.VENDOR_INVALID_EVENT,
            "content[1].reference_ids[0] must be a non-negative integer",
        ),
    ],
)
def test_a_content_part_off_the_form_is_refused_at_its_path(
    parts: list[Any], code: Code, says: str
) -> None:
    refused = refusal_of(MISTRAL, ROLE, chunk({"content": parts}), finish("stop"))

    assert refused[:2] == (code, 1)
    assert f"choices[0].delta.{says}" in refused[2]


def test_content_parts_read_in_order_into_text_and_reasoning() -> None:
    thinking = {"type": "thinking", "thinking": [{"type": "text", "text": "Plan."}]}
    parts = [thinking, {"type": "text", "text": "Do"}, {"type": "text", "text": "ne."}]

    result = folded(
        MISTRAL, ROLE, chunk({"content": parts}), chunk({}, finish_reason="stop", usage=COUNTS)
    )

    assert type(result) is ChatResult
    [choice] = result.choices
    assert (choice.content, choice.reasoning) == ("Done.", "Plan.")


def test_references_and_closed_flags_take_the_full_read_and_no_text_is_read_twice() -> None:
    reference = {"type": "reference", "reference_ids": [0, 2]}
    thinking = {
        "type": "thinking",
        "thinking": [{"type": "text", "text": "Plan."}, reference],
        "closed": True,
    }
    parts = [{"type": "text", "text": "Do"}, thinking, {"type": "text", "text": "ne."}, reference]

    result = folded(
        MISTRAL, ROLE, chunk({"content": parts}), chunk({}, finish_reason="stop", usage=COUNTS)
    )

    assert type(result) is ChatResult
    [choice] = result.choices
    assert (choice.content, choice.reasoning) == ("Done.", "Plan.")


def test_usage_on_every_chunk_is_checked_on_every_chunk_and_the_last_counts() -> None:
    bad = chunk({"content": "x"}, usage={**COUNTS, "completion_tokens": -1})
    code, index, message = refusal_of(VLLM, ROLE, bad, finish("stop"), usage(), DONE)
    assert (code, index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert "usage.completion_tokens" in message

    details = {**COUNTS, "completion_tokens_details": {"reasoning_tokens": 3}}
    text = chunk({"content": "x"}, usage=COUNTS)
    result = folded(VLLM, text, finish("stop"), chunk(None, usage=details), DONE)
    assert type(result) is ChatResult
    assert result.usage == ChatUsage(12, 7, 19, reasoning_tokens=3)
    bare = folded(VLLM, text, chunk({}, finish_reason="stop", usage={**COUNTS, "total_tokens": 20}))
    assert type(bare) is ChatResult
    assert bare.usage == ChatUsage(12, 7, 20)
    bad_details = {**COUNTS, "prompt_tokens_details": {"cached_tokens": "3"}}
    code, index, message = refusal_of(VLLM, chunk({"content": "x"}, usage=bad_details))
    assert (code, index) == (Code.VENDOR_INVALID_EVENT, 0)
    assert "usage.prompt_tokens_details.cached_tokens" in message


def test_openrouters_reasoning_block_keeps_every_detail_in_order() -> None:
    detail = {"type": "reasoning.text", "text": "A", "index": 0, "format": None}
    second = {"type": "reasoning.encrypted", "data": "e", "index": 0, "format": None}
    played = replay(
        ChatMapping("request-1", OPENROUTER),
        chat_events(
            ROLE,
            chunk({"reasoning": "A", "reasoning_details": [detail]}),
            chunk({"reasoning": None, "reasoning_details": [second]}),
            chunk({"content": "Done."}),
            finish("stop"),
            usage(),
            DONE,
        ),
    )

    response = played.response
    assert response is not None
    block, answer = response.message.content
    assert type(block) is CourseReasoningBlock
    assert block.opaque == CourseOpaque(
        "openrouter", {"reasoning": "A", "reasoning_details": [detail, second]}
    )
    assert type(block.opaque.data["reasoning_details"]) is tuple
    assert all(type(each) is frozendict for each in block.opaque.data["reasoning_details"])
    assert answer == CourseTextBlock("Done.")


@pytest.mark.parametrize(
    ("counts", "path"),
    [
        ({**COUNTS, "prompt_tokens": True}, "usage.prompt_tokens"),
        ({**COUNTS, "completion_tokens": 7.0}, "usage.completion_tokens"),
        ({**COUNTS, "total_tokens": "19"}, "usage.total_tokens"),
        ({**COUNTS, "total_tokens": 2**53}, "usage.total_tokens"),
        ({**COUNTS, "prompt_tokens": -1}, "usage.prompt_tokens"),
        ({"prompt_tokens": 1, "completion_tokens": 2, "total": 3}, "usage.total_tokens"),
        ({"prompt_tokens": 1, "completion_tokens": 2}, "usage.total_tokens"),
        ({**COUNTS, "prompt_tokens_details": []}, "usage.prompt_tokens_details"),
    ],
)
def test_every_chunks_usage_off_the_three_counts_is_refused_where_it_comes(
    counts: dict[str, object], path: str
) -> None:
    good = chunk({"content": "x"}, usage=COUNTS)
    bad = chunk({"content": "y"}, usage=counts)

    code, index, message = refusal_of(VLLM, ROLE, good, bad, finish("stop"), usage(), DONE)

    assert (code, index) == (Code.VENDOR_INVALID_EVENT, 2)
    assert path in message


@pytest.mark.parametrize(
    ("delta", "code"),
    [
        (
            {"content": None, "reasoning_content": "x", "role": "user"},
            Code.VENDOR_UNSUPPORTED_CONTENT,
        ),
        ({"reasoning_content": "x", "role": "tool"}, Code.VENDOR_UNSUPPORTED_CONTENT),
        ({"reasoning_content": "x", "refusal": 3}, Code.VENDOR_INVALID_EVENT),
        ({"reasoning_content": None, "audio": {"id": 1}}, Code.VENDOR_INVALID_EVENT),
        (
            {"reasoning_content": "x", "function_call": {"name": "f", "arguments": ""}},
            Code.VENDOR_UNSUPPORTED_CONTENT,
        ),
    ],
)
def test_a_delta_without_content_beside_its_reasoning_still_has_the_rest_read(
    delta: dict[str, Any], code: VendorErrorCode
) -> None:
    played = replay(ChatMapping("request-1", DEEPSEEK), chat_events(chunk(delta)))

    assert type(played.error) is VendorError
    assert (played.error.code, played.error.event_index) == (code, 0)


def said_after_each(dialect: ChatDialect, *payloads: object) -> list[tuple[str | None, str, bool]]:
    grammar = ChatGrammar(dialect)
    said = []
    for index, event in enumerate(chat_events(*payloads)):
        grammar.feed(event, index)
        said.append(grammar.said(0))
    return said


def test_said_is_what_each_entry_said_and_a_repeated_finish_says_nothing_again() -> None:
    said = said_after_each(
        OPENROUTER,
        ROLE,
        chunk({"reasoning": "r", "reasoning_details": None}),
        chunk({"content": "x"}, finish_reason="stop"),
        chunk({"content": ""}, finish_reason="stop", usage=COUNTS),
    )

    assert said == [("", "", False), (None, "r", True), ("x", "", True), (None, "", False)]


def test_said_after_an_azure_annotation_is_nothing_and_before_a_choice_is_an_index_error() -> None:
    grammar = ChatGrammar(AZURE_OPENAI_CHAT)
    with pytest.raises(IndexError):
        grammar.said(0)
    annotation = {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "choices": [{"index": 0, "finish_reason": None, "content_filter_results": {}}],
    }
    for index, event in enumerate(chat_events(ROLE, chunk({"content": "x"}), annotation)):
        grammar.feed(event, index)

    assert grammar.said(0) == (None, "", False)
    with pytest.raises(IndexError):
        grammar.said(-1)  # never the last choice, as a list would give


@pytest.mark.parametrize(
    ("declared", "path"),
    [
        ({"reasoning_fields": ("reasoning", "reasoning")}, "ChatDialect.reasoning_fields"),
        ({"reasoning_fields": ("reasoning", "tool_calls")}, "ChatDialect.reasoning_fields"),
        (
            {"reasoning_fields": ("reasoning_details",), "reasoning_details": True},
            "ChatDialect.reasoning_fields",
        ),
        (
            {"reasoning_back": True, "reasoning_in_tool_turns": True},
            "ChatDialect.reasoning_in_tool_turns",
        ),
        (
            {"reasoning_fields": ("reasoning",), "reasoning_in_tool_turns": True},
            "ChatDialect.reasoning_in_tool_turns",
        ),
    ],
)
def test_a_dialect_whose_fields_would_hide_the_rest_of_a_delta_is_refused_where_it_is_built(
    declared: dict[str, Any], path: str
) -> None:
    # A field counted twice would make a delta of it and tool_calls look plain, its
    # calls unread; reasoning in tool turns needs a field to send and a turn to send it on.
    with pytest.raises(VendorConfigError) as caught:
        ChatDialect("own", "https://llm.example/v1", "OWN_API_KEY", **declared)

    assert (caught.value.code, caught.value.path) == (
        VendorConfigErrorCode.VENDOR_INVALID_CONFIG,
        path,
    )
    assert caught.value.message.startswith(path)
