"""Each compatible server's dialect of Chat: its declared differences, both ways, on our own bodies.

The bodies are built from each server's documentation (``tests.course_provider_openai.bodies``
pieces plus the server's own fields). For every difference: the dialect
reads its form and carries what it says; plain ``openai-chat`` keeps refusing
it where OpenAI's grammar refuses it (or, for a field OpenAI's SDK leaves
unread, carries nothing of it). Every dialect's error names its own wire.
"""

from __future__ import annotations

from typing import Any

import pytest
from frozendict import frozendict

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import (
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
)
from course_provider_openai import (
    CHAT_DIALECTS,
    DEEPSEEK,
    GROQ,
    MISTRAL,
    OPENAI_CHAT,
    OPENROUTER,
    TOGETHER,
    VLLM,
    XAI,
    ChatDialect,
    ChatMapping,
    ChatUsage,
    UsagePlace,
)
from tests.course_provider_openai.bodies import (
    DONE,
    chat_events,
    chunk,
    finish,
    text,
    tool_arguments,
    tool_start,
    usage,
)
from tests.course_provider_openai.dialect_grammar import COUNTS, ROLE, folded, mapped, read, refused
from tests.course_provider_openai.driving import replay

Code = VendorErrorCode


def reasoning(field: str, piece: object) -> dict[str, Any]:
    return chunk({field: piece})


def test_every_dialect_is_named_once_with_its_own_base_url_and_key_variable() -> None:
    assert {(d.wire, d.base_url, d.key_variable) for d in CHAT_DIALECTS} == {
        ("openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"),
        ("groq", "https://api.groq.com/openai/v1", "GROQ_API_KEY"),
        ("deepseek", "https://api.deepseek.com", "DEEPSEEK_API_KEY"),
        ("xai", "https://api.x.ai/v1", "XAI_API_KEY"),
        ("mistral", "https://api.mistral.ai/v1", "MISTRAL_API_KEY"),
        ("together", "https://api.together.xyz/v1", "TOGETHER_API_KEY"),
        ("ollama", "http://localhost:11434/v1", "OLLAMA_API_KEY"),
        ("vllm", "http://localhost:8000/v1", "VLLM_API_KEY"),
    }
    assert len({dialect.wire for dialect in CHAT_DIALECTS}) == len(CHAT_DIALECTS)
    assert OPENAI_CHAT.wire == "openai-chat"


def test_a_dialect_is_frozen_and_openais_declares_no_difference() -> None:
    with pytest.raises(AttributeError):
        GROQ.usage = frozenset()  # type: ignore[misc]
    assert type(TOGETHER.finish_reasons) is frozendict
    assert OPENAI_CHAT.usage == frozenset({UsagePlace.LAST_CHUNK})
    assert OPENAI_CHAT.reasoning_fields == ()
    assert not OPENAI_CHAT.content_parts
    assert not OPENAI_CHAT.repeated_finish
    assert not OPENAI_CHAT.reasoning_details
    assert not OPENAI_CHAT.finish_reasons
    assert not OPENAI_CHAT.created_varies
    assert not OPENAI_CHAT.reasoning_apart


@pytest.mark.parametrize(
    ("dialect", "field"),
    [(DEEPSEEK, "reasoning_content"), (XAI, "reasoning_content"), (GROQ, "reasoning"),
     (OPENROUTER, "reasoning"), (TOGETHER, "reasoning"), (VLLM, "reasoning"),
     (VLLM, "reasoning_content")],
)  # fmt: skip
def test_a_dialects_reasoning_field_is_read_and_openais_grammar_leaves_it_unread(
    dialect: ChatDialect, field: str
) -> None:
    body = (
        ROLE,
        reasoning(field, "Two and"),
        reasoning(field, " two."),
        text("4"),
        finish("stop"),
        usage(),
        DONE,
    )

    assert read(dialect, *body).choices[0].reasoning == "Two and two."
    assert read(dialect, *body).choices[0].content == "4"
    plain = read(OPENAI_CHAT, *body).choices[0]
    assert (plain.reasoning, plain.content) == ("", "4")


def test_a_reasoning_field_that_is_not_text_is_refused_at_its_path() -> None:
    error = refused(DEEPSEEK, ROLE, reasoning("reasoning_content", 7))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert "choices[0].delta.reasoning_content must be a string or null, got 7" in (error.message)


def test_only_the_first_reasoning_field_a_delta_carries_is_its_reasoning() -> None:
    both = chunk({"reasoning": "once", "reasoning_content": "once"})

    assert read(VLLM, ROLE, both, finish("stop"), usage()).choices[0].reasoning == "once"
    error = refused(VLLM, ROLE, chunk({"reasoning": "once", "reasoning_content": ["x"]}))
    assert error.code is Code.VENDOR_INVALID_EVENT


def test_openrouters_reasoning_details_are_kept_in_order_and_frozen() -> None:
    details = [
        {"type": "reasoning.text", "text": "Hm", "index": 0, "format": None},
        {"type": "reasoning.encrypted", "data": "gAAA", "index": 1},
    ]
    body = (
        ROLE,
        chunk({"reasoning": "Hm", "reasoning_details": details[:1]}),
        chunk({"reasoning": None, "reasoning_details": details[1:]}),
        chunk({"reasoning_details": []}),
        finish("stop"),
        usage(),
    )

    choice = read(OPENROUTER, *body).choices[0]

    assert choice.reasoning == "Hm"
    assert choice.reasoning_details == tuple(frozendict(detail) for detail in details)
    assert all(type(detail) is frozendict for detail in choice.reasoning_details)
    assert read(OPENAI_CHAT, *body).choices[0].reasoning_details == ()
    assert read(GROQ, *body).choices[0].reasoning_details == ()


@pytest.mark.parametrize(
    ("details", "code", "says"),
    [
        ({"type": "reasoning.text"}, Code.VENDOR_INVALID_EVENT, "must be an array or null"),
        (["text"], Code.VENDOR_INVALID_EVENT, "reasoning_details[0] must be an object"),
        ([{"type": "reasoning.hidden"}], Code.VENDOR_UNKNOWN_EVENT, "'reasoning.hidden'"),
        ([{"text": "no type"}], Code.VENDOR_INVALID_EVENT, "reasoning_details[0].type"),
    ],
)
def test_reasoning_details_off_openrouters_grammar_are_refused(
    details: object, code: VendorErrorCode, says: str
) -> None:
    error = refused(OPENROUTER, ROLE, chunk({"reasoning_details": details}))

    assert (error.code, error.event_index) == (code, 1)
    assert says in error.message


def test_openrouters_repeated_finish_passes_and_openais_grammar_refuses_it() -> None:
    again = chunk(
        {"role": "assistant", "content": "", "reasoning": None, "reasoning_details": []},
        finish_reason="length",
        native_finish_reason="length",
    )
    body = (ROLE, text("Hi"), finish("length"), again, usage(), DONE)

    result = read(OPENROUTER, *body)

    assert [choice.finish_reason for choice in result.choices] == ["length"]
    assert result.choices[0].content == "Hi"
    error = folded(OPENAI_CHAT, *body)
    assert type(error) is VendorError
    assert (error.code, error.event_index, error.vendor) == (
        Code.VENDOR_EVENT_ORDER,
        3,
        "openai-chat",
    )


@pytest.mark.parametrize(
    "again",
    [
        chunk({"content": "more"}, finish_reason="length"),
        chunk({}, finish_reason="stop"),
        chunk({"role": "user"}, finish_reason="length"),
        chunk({"reasoning": "late"}, finish_reason="length"),
        chunk({"content": ""}),
    ],
    ids=["new-text", "other-finish", "other-role", "new-reasoning", "no-finish"],
)
def test_a_repeat_that_says_something_new_is_still_off_openrouters_grammar(
    again: dict[str, Any],
) -> None:
    error = refused(OPENROUTER, ROLE, text("Hi"), finish("length"), again)

    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 3)


@pytest.mark.parametrize(
    ("dialect", "reason"),
    [(OPENROUTER, "error"), (DEEPSEEK, "insufficient_system_resource"),
     (MISTRAL, "error"), (TOGETHER, "eos"), (TOGETHER, "error"), (VLLM, "abort"),
     (VLLM, "repetition")],
)  # fmt: skip
def test_a_dialects_own_finish_reason_passes_and_openais_grammar_refuses_it(
    dialect: ChatDialect, reason: str
) -> None:
    body: tuple[object, ...] = (ROLE, text("Hi"), finish(reason))
    if UsagePlace.LAST_CHUNK in dialect.usage:
        body = (*body, usage())

    assert read(dialect, *body).choices[0].finish_reason == reason
    error = folded(OPENAI_CHAT, *body)
    assert type(error) is VendorError
    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 2)
    assert "is not a finish reason OpenAI documents" in error.message


def test_mistral_streams_no_model_length_finish_though_its_whole_answers_may() -> None:
    # The SDK's streamed choice finishes stop, length, error or tool_calls; model_length
    # is the non-streamed choice's alone.
    error = refused(MISTRAL, ROLE, text("Hi"), chunk({}, finish_reason="model_length"))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 2)
    assert "'model_length' is not a finish reason mistral or OpenAI documents" in error.message


def test_a_finish_reason_no_server_documents_is_refused_naming_the_dialect() -> None:
    error = refused(TOGETHER, ROLE, finish("done"))

    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert "'done' is not a finish reason together or OpenAI documents" in error.message


def test_groqs_usage_in_x_groq_is_read_and_openais_grammar_leaves_it_unread() -> None:
    first = chunk({"role": "assistant", "content": ""}, x_groq={"id": "req_1"})
    last = chunk({}, finish_reason="stop", x_groq={"id": "req_1", "usage": COUNTS})
    body = (first, text("Hi"), last, DONE)

    assert read(GROQ, *body).usage == ChatUsage(12, 7, 19)
    assert read(OPENAI_CHAT, *body).usage is None
    plain = replay(ChatMapping("request-1"), chat_events(*body))
    assert plain.error is not None
    assert plain.error.code is Code.VENDOR_MISSING_TERMINAL
    assert mapped(GROQ, *body).response is not None


@pytest.mark.parametrize(
    ("payloads", "code", "at"),
    [
        ((ROLE, chunk({"content": "Hi"}, x_groq={"usage": COUNTS})), Code.VENDOR_EVENT_ORDER, 1),
        ((ROLE, chunk({}, finish_reason="stop", x_groq=[])), Code.VENDOR_INVALID_EVENT, 1),
        (
            (ROLE, finish("stop"), usage(), chunk(None, x_groq={"usage": COUNTS})),
            Code.VENDOR_EVENT_ORDER,
            3,
        ),
        (
            (ROLE, chunk({}, finish_reason="stop", x_groq={"usage": {"prompt_tokens": -1}})),
            Code.VENDOR_INVALID_EVENT,
            1,
        ),
    ],
    ids=["before-the-finish", "not-an-object", "after-the-usage", "bad-count"],
)
def test_x_groq_usage_off_groqs_grammar_is_refused(
    payloads: tuple[object, ...], code: VendorErrorCode, at: int
) -> None:
    error = refused(GROQ, *payloads)

    assert (error.code, error.event_index) == (code, at)


def test_usage_beside_the_finishing_choice_passes_where_declared_and_openai_refuses_it() -> None:
    body = (ROLE, text("Hi"), chunk({}, finish_reason="stop", usage=COUNTS), DONE)

    for dialect in (MISTRAL, TOGETHER, OPENROUTER):
        assert read(dialect, *body).usage == ChatUsage(12, 7, 19)
    for dialect in (OPENAI_CHAT, DEEPSEEK, GROQ, XAI):
        error = folded(dialect, *body)
        assert type(error) is VendorError
        assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 2)


def test_usage_beside_a_choice_that_does_not_finish_is_refused() -> None:
    error = refused(MISTRAL, ROLE, text("Hi", usage=COUNTS))

    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 1)
    assert "before choice 0 finished" in error.message


def test_mistral_sends_no_usage_chunk_of_its_own() -> None:
    error = refused(MISTRAL, ROLE, finish("stop"), usage())

    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 2)
    assert "mistral sends it beside choices" in error.message


def test_vllms_usage_on_every_chunk_keeps_the_last_counts_and_openai_refuses_it() -> None:
    running = [
        {"prompt_tokens": 12, "completion_tokens": n, "total_tokens": 12 + n} for n in (1, 2, 3)
    ]
    body = (
        chunk({"role": "assistant", "content": ""}, usage=running[0]),
        text("Hi", usage=running[1]),
        chunk({}, finish_reason="stop", usage=running[2]),
        usage(12, 3, 15),
        DONE,
    )

    assert read(VLLM, *body).usage == ChatUsage(12, 3, 15)
    assert read(VLLM, *body[:3]).usage == ChatUsage(12, 3, 15)
    error = folded(OPENAI_CHAT, *body)
    assert type(error) is VendorError
    assert (error.code, error.event_index) == (Code.VENDOR_EVENT_ORDER, 0)


def test_mistrals_content_parts_are_read_and_openais_grammar_refuses_an_array() -> None:
    thinking = {"type": "thinking", "thinking": [{"type": "text", "text": "Add them."}]}
    body = (
        ROLE,
        chunk({"content": [thinking]}),
        chunk({"content": [{"type": "text", "text": "4"}, {"type": "text", "text": "."}]}),
        chunk({}, finish_reason="stop", usage=COUNTS),
    )

    choice = read(MISTRAL, *body).choices[0]

    assert (choice.reasoning, choice.content) == ("Add them.", "4.")
    error = folded(OPENAI_CHAT, *body)
    assert type(error) is VendorError
    assert (error.code, error.event_index) == (Code.VENDOR_INVALID_EVENT, 1)
    assert "choices[0].delta.content must be a string or null, got an array" in error.message
    played = mapped(MISTRAL, *body)
    assert played.chunks == (
        CourseReasoningDeltaChunk("request-1", "Add them."),
        CourseTextDeltaChunk("request-1", "4."),
    )


@pytest.mark.parametrize(
    ("parts", "code", "path"),
    [
        ([{"type": "image_url", "image_url": "x"}], Code.VENDOR_UNKNOWN_EVENT, "content[0].type"),
        (["4"], Code.VENDOR_INVALID_EVENT, "content[0] must be an object"),
        ([{"type": "text", "text": 4}], Code.VENDOR_INVALID_EVENT, "content[0].text"),
        ([{"type": "thinking", "thinking": "x"}], Code.VENDOR_INVALID_EVENT, "thinking must be"),
        (
            [{"type": "thinking", "thinking": [{"type": "thinking", "thinking": []}]}],
            Code.VENDOR_UNKNOWN_EVENT,
            "content[0].thinking[0].type",
        ),
    ],
    ids=["unknown-part", "not-an-object", "text-not-text", "thinking-not-array", "nested"],
)
def test_content_parts_off_mistrals_grammar_are_refused_at_their_path(
    parts: list[Any], code: VendorErrorCode, path: str
) -> None:
    error = refused(MISTRAL, ROLE, chunk({"content": parts}))

    assert (error.code, error.event_index) == (code, 1)
    assert path in error.message


def test_a_dialect_that_declares_no_parts_refuses_an_array_as_openai_does() -> None:
    error = refused(DEEPSEEK, ROLE, chunk({"content": [{"type": "text", "text": "4"}]}))

    assert error.code is Code.VENDOR_INVALID_EVENT


@pytest.mark.parametrize("dialect", CHAT_DIALECTS, ids=[d.wire for d in CHAT_DIALECTS])
def test_every_dialects_grammar_names_its_wire_at_the_end_too(dialect: ChatDialect) -> None:
    error = refused(dialect, ROLE, text("cut"))

    assert (error.code, error.event_index) == (Code.VENDOR_MISSING_TERMINAL, 2)


def deepseek_tool_turn() -> tuple[object, ...]:
    return (
        chunk({"role": "assistant", "content": None, "reasoning_content": ""}),
        reasoning("reasoning_content", "Need the "),
        reasoning("reasoning_content", "weather."),
        tool_start(0, "call_w", "weather"),
        tool_arguments(0, '{"city": "Oslo"}'),
        finish("tool_calls"),
        usage(),
        DONE,
    )


def test_deepseeks_reasoning_streams_as_reasoning_chunks_and_opens_the_answer() -> None:
    played = mapped(DEEPSEEK, *deepseek_tool_turn())

    assert played.error is None
    call = CourseToolCall("call_w", "weather", {"city": "Oslo"})
    assert [type(each) for each in played.chunks] == [
        CourseReasoningDeltaChunk,
        CourseReasoningDeltaChunk,
        type(played.chunks[2]),
    ]
    assert [getattr(each, "delta", None) for each in played.chunks[:2]] == ["Need the ", "weather."]
    assert played.response is not None
    block, called = played.response.message.content
    assert block == CourseReasoningBlock(
        "Need the weather.",
        opaque=CourseOpaque("deepseek", {"reasoning_content": "Need the weather."}),
    )
    assert called == call
    assert played.response.stop_reason is CourseStopReason.TOOL_CALL


def test_openai_chat_carries_no_reasoning_of_a_compatible_servers_field() -> None:
    played = replay(ChatMapping("request-1"), chat_events(*deepseek_tool_turn()))

    assert played.response is not None
    assert not any(type(each) is CourseReasoningDeltaChunk for each in played.chunks)
    assert [type(block) for block in played.response.message.content] == [CourseToolCall]


def test_openrouters_reasoning_block_keeps_its_details_for_the_way_back() -> None:
    detail = {"type": "reasoning.text", "text": "Hm", "index": 0}
    body = (
        ROLE,
        chunk({"reasoning": "Hm", "reasoning_details": [detail]}),
        text("Hi"),
        finish("stop"),
        usage(),
    )

    played = mapped(OPENROUTER, *body)

    assert played.response is not None
    block, answer = played.response.message.content
    assert answer == CourseTextBlock("Hi")
    assert type(block) is CourseReasoningBlock
    assert block.opaque == CourseOpaque(
        "openrouter", {"reasoning": "Hm", "reasoning_details": [detail]}
    )


def test_a_repeated_finish_maps_to_nothing_more() -> None:
    again = chunk({"content": ""}, finish_reason="stop")

    played = mapped(OPENROUTER, ROLE, text("Hi"), finish("stop"), again, usage(), DONE)

    assert played.chunks == (CourseTextDeltaChunk("request-1", "Hi"),)
    assert played.response is not None
    assert played.response.message.content == (CourseTextBlock("Hi"),)


@pytest.mark.parametrize(
    ("dialect", "reason", "stop"),
    [(TOGETHER, "eos", CourseStopReason.STOP), (MISTRAL, "error", None),
     (OPENROUTER, "error", None), (DEEPSEEK, "insufficient_system_resource", None),
     (VLLM, "abort", None), (VLLM, "repetition", None)],
)  # fmt: skip
def test_a_dialects_own_finish_maps_to_what_it_means(
    dialect: ChatDialect, reason: str, stop: CourseStopReason | None
) -> None:
    last = chunk({}, finish_reason=reason, usage=COUNTS)
    body: tuple[object, ...] = (ROLE, text("Hi"), last)
    if UsagePlace.FINISH_CHUNK not in dialect.usage:
        body = (ROLE, text("Hi"), finish(reason), usage())

    played = mapped(dialect, *body)

    if stop is not None:
        assert played.response is not None
        assert played.response.stop_reason is stop
    else:
        assert played.error is not None
        assert (played.error.code, played.error.vendor_type) == (Code.VENDOR_INCOMPLETE, reason)
        assert played.error.vendor == dialect.wire


def test_a_groq_event_error_mid_reasoning_is_the_vendors_error() -> None:
    events = [
        *chat_events(ROLE, reasoning("reasoning", "We")),
        SseEvent("error", '{"error":{"message":"bad","type":"invalid_request_error"}}'),
    ]

    played = replay(ChatMapping("request-1", GROQ), events)

    assert played.chunks == (CourseReasoningDeltaChunk("request-1", "We"),)
    assert played.error is not None
    assert (played.error.code, played.error.vendor_message) == (Code.VENDOR_ERROR_EVENT, "bad")
    assert played.error.vendor == "groq"
