"""The dialects as wires: registered by name, picked by path only where unambiguous, replaying
the shared recordings of their servers, and sending DeepSeek's reasoning back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from frozendict import frozendict

from course_conformance import Scenario, assert_conforms
from course_http import (
    RecordedResponse,
    RecordedTransport,
    SseEvent,
    VendorError,
    VendorErrorCode,
)
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    thaw_json,
)
from course_provider_openai import (
    CHAT_DIALECTS,
    CHAT_PLUGIN,
    DEEPSEEK,
    GROQ,
    GROQ_PLUGIN,
    OPENROUTER,
    OPENROUTER_PLUGIN,
    XAI,
    ChatDialect,
    ChatResult,
    ChatStreamError,
    OpenAIChatModel,
    OpenAIConfig,
)
from course_vendor import (
    VendorPlugin,
    VendorRegistry,
    judge_body,
    load_vendor,
    vendor_for_path,
)
from tests.course_cassettes.replays import replay
from tests.course_provider_openai.bodies import (
    chat_events,
    chat_text_stream,
    chunk,
    finish,
    text,
    usage,
)
from tests.course_vendor.wire import REQUEST, SSE, sse_bytes

TRANSCRIPTS = (
    Path(__file__).resolve().parents[2] / ".." / "shared" / "provider-transcripts" / "openai-chat"
)
recorded = pytest.mark.skipif(
    not TRANSCRIPTS.is_dir(),
    reason=f"the shared provider transcripts are not present at {TRANSCRIPTS}",
)


@pytest.mark.parametrize("dialect", CHAT_DIALECTS, ids=[d.wire for d in CHAT_DIALECTS])
def test_each_dialect_is_a_registered_wire_with_its_base_url_and_key(dialect: ChatDialect) -> None:
    plugin = load_vendor(dialect.wire)

    assert plugin.name == dialect.wire
    assert (plugin.base_url, plugin.wire.key_variable) == (dialect.base_url, dialect.key_variable)
    assert plugin.wire.path == "/chat/completions"
    assert plugin.dialect_of == "openai-chat"
    assert plugin.grammar is not None
    assert plugin.grammar().dialect is dialect  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("path", "wire"),
    [
        ("/openai/v1/chat/completions", "groq"),
        ("/api/v1/chat/completions", "openrouter"),
        ("/v1/chat/completions", "openai-chat"),
        ("/chat/completions", "openai-chat"),
        ("/proxy/v2/chat/completions", "openai-chat"),
        ("/openai/v1/responses", "openai-responses"),
    ],
)
def test_a_recorded_path_picks_a_dialect_only_under_its_own_base_path(path: str, wire: str) -> None:
    plugin = vendor_for_path(path)

    assert plugin is not None
    assert plugin.name == wire


def test_a_dialect_never_claims_its_base_wires_base_path_or_an_empty_one() -> None:
    # xAI, Mistral, Together, Ollama, vLLM share OpenAI's /v1; DeepSeek has none:
    # a recording tells none of them apart, so `--wire` picks them.
    shared = [
        d for d in CHAT_DIALECTS if d.base_url.endswith("/v1") and "/openai/" not in d.base_url
    ]
    assert {d.wire for d in shared} >= {"xai", "mistral", "together", "ollama", "vllm"}
    for path in ("/v1/chat/completions", "/chat/completions"):
        plugin = vendor_for_path(path)
        assert plugin is not None
        assert plugin.name == "openai-chat"


def test_without_its_base_wire_a_dialect_still_claims_only_its_own_base_path() -> None:
    class Point:
        def __init__(self, name: str, value: str) -> None:
            self.name, self.value, self.group = name, value, "course.vendors"
            self.dist = None

        def load(self) -> VendorPlugin:
            return GROQ_PLUGIN

    registry = VendorRegistry([Point("groq", "course_provider_openai:GROQ_PLUGIN")])  # type: ignore[list-item]

    groq = registry.for_path("/openai/v1/chat/completions")
    assert groq is not None
    assert groq.name == "groq"
    assert registry.for_path("/v1/chat/completions") is None


def test_a_plugin_whose_dialect_of_is_not_text_is_refused_where_it_is_built() -> None:
    with pytest.raises(TypeError, match=r"VendorPlugin.dialect_of must be a str or None, not int"):
        VendorPlugin(
            wire=CHAT_PLUGIN.wire,
            sdk="openai",
            base_url=CHAT_PLUGIN.base_url,
            base_url_variable=CHAT_PLUGIN.base_url_variable,
            named_events=False,
            replay_model=CHAT_PLUGIN.replay_model,
            grammar=CHAT_PLUGIN.grammar,
            dialect_of=7,  # type: ignore[arg-type]
        )


@recorded
def test_openrouters_recording_passes_its_dialect_and_its_result_holds_what_it_said() -> None:
    body = (TRANSCRIPTS / "compat-openrouter-comments-inchunk-error.sse").read_bytes()

    result = judge_body(OPENROUTER_PLUGIN, body).unwrap()

    assert type(result) is ChatResult
    [choice] = result.choices
    assert (choice.finish_reason, choice.content) == ("length", "")
    assert choice.reasoning == "We need to respond to a greeting. The user"
    # Two text fragments of one block (index 0), joined as OpenRouter's own client joins them.
    assert choice.reasoning_details == (
        frozendict(
            type="reasoning.text",
            text="We need to respond to a greeting. The user",
            index=0,
            format=None,
        ),
    )
    assert result.error == ChatStreamError(None, "400", "Token limit reached")
    assert result.done
    refused = judge_body(CHAT_PLUGIN, body).failure()
    assert (refused.code, refused.event_index) == (VendorErrorCode.VENDOR_EVENT_ORDER, 2)


@recorded
def test_groqs_recording_passes_its_dialect_with_the_reasoning_it_streamed() -> None:
    body = (TRANSCRIPTS / "compat-groq-midstream-error-event.sse").read_bytes()

    result = judge_body(GROQ_PLUGIN, body).unwrap()

    [choice] = result.choices
    assert choice.reasoning.startswith("We need to call")
    assert choice.finish_reason is None
    assert result.error is not None
    assert result.error.code == "tool_use_failed"
    assert judge_body(CHAT_PLUGIN, body).unwrap().choices[0].reasoning == ""


@recorded
@pytest.mark.parametrize("dialect", CHAT_DIALECTS, ids=[d.wire for d in CHAT_DIALECTS])
async def test_openais_own_recordings_replay_on_every_dialect_that_keeps_openais_usage(
    dialect: ChatDialect,
) -> None:
    body = (TRANSCRIPTS / "text-include-usage.sse").read_bytes()
    model = OpenAIChatModel(
        OpenAIConfig("m"),
        dialect=dialect,
        transport=RecordedTransport([RecordedResponse(200, SSE, body)]),
    )

    played = await replay(model)

    if "last_chunk" in dialect.usage:
        assert played.error is None
        assert played.response is not None
        assert played.response.message.content == (CourseTextBlock("4200 + 42 equals 4242."),)
    else:
        assert played.error is not None
        assert (played.error.code, played.error.vendor) == (
            VendorErrorCode.VENDOR_EVENT_ORDER,
            dialect.wire,
        )


def follow_up(*reasoning: CourseReasoningBlock) -> CourseModelRequest:
    call = CourseToolCall("call_w", "weather", {"city": "Oslo"})
    return CourseModelRequest(
        "request-2",
        (
            CourseUserMessage("u-1", "Weather in Oslo?"),
            CourseAssistantMessage("a-1", (*reasoning, call)),
            CourseToolResultMessage("t-1", "call_w", "weather", "sunny"),
            CourseAssistantMessage("a-2", (CourseTextBlock("Sunny."),)),
            CourseUserMessage("u-2", "Thanks"),
        ),
    )


async def sent_messages(dialect: ChatDialect | None, request: CourseModelRequest) -> list[object]:
    transport = RecordedTransport([RecordedResponse(200, SSE, sse_bytes(chat_text_stream("ok")))])
    config = OpenAIConfig("m", system_prompt="Be brief.")
    model = (
        OpenAIChatModel(config, transport=transport)
        if dialect is None
        else OpenAIChatModel(config, dialect=dialect, transport=transport)
    )
    played = await replay(model, request)
    assert played.error is None
    [sent] = transport.requests
    messages = thaw_json(sent.body)["messages"]  # type: ignore[index]
    assert isinstance(messages, list)
    return messages


DEEPSEEK_REASONING = CourseReasoningBlock(
    "Need the weather.",
    opaque=CourseOpaque("deepseek", {"reasoning_content": "Need the weather."}),
)


async def test_deepseek_gets_the_reasoning_of_a_tool_call_turn_back_on_that_message() -> None:
    messages = await sent_messages(DEEPSEEK, follow_up(DEEPSEEK_REASONING))

    # The answer after the Tool result is of the same user turn: its reasoning goes back
    # too, empty since it has none of its own.
    assert [m.get("reasoning_content") for m in messages] == [  # type: ignore[attr-defined]
        None,
        None,
        "Need the weather.",
        None,
        "",
        None,
    ]
    assert messages[2]["tool_calls"][0]["id"] == "call_w"  # type: ignore[index]


@pytest.mark.parametrize(
    "block",
    [
        CourseReasoningBlock("x", opaque=CourseOpaque("openrouter", {"reasoning_content": "x"})),
        CourseReasoningBlock("y"),
    ],
    ids=["another-wire", "no-wire"],
)
async def test_reasoning_another_wire_produced_is_left_out_of_deepseeks_request(
    block: CourseReasoningBlock,
) -> None:
    messages = await sent_messages(DEEPSEEK, follow_up(block))

    # Left out: its turn with Tool calls is sent DeepSeek's field empty instead.
    assert [m.get("reasoning_content") for m in messages] == [  # type: ignore[attr-defined]
        None,
        None,
        "",
        None,
        "",
        None,
    ]
    assert messages[2]["tool_calls"][0]["id"] == "call_w"  # type: ignore[index]


async def test_deepseek_gets_an_empty_reasoning_only_in_user_turns_with_tool_calls() -> None:
    call = CourseToolCall("call_x", "weather", {"city": "Bergen"})
    request = CourseModelRequest(
        "request-3",
        (
            CourseUserMessage("u-1", "Hi"),
            CourseAssistantMessage("a-1", (CourseTextBlock("Hello."),)),
            CourseUserMessage("u-2", "Weather in Bergen?"),
            CourseAssistantMessage("a-2", (CourseTextBlock("Checking."),)),
            CourseAssistantMessage("a-3", (call,)),
            CourseToolResultMessage("t-1", "call_x", "weather", "rain"),
            CourseAssistantMessage("a-4", (CourseTextBlock("Rain."),)),
            CourseUserMessage("u-3", "Thanks"),
            CourseAssistantMessage("a-5", (CourseTextBlock("Welcome."),)),
            CourseUserMessage("u-4", "Bye"),
        ),
    )

    messages = await sent_messages(DEEPSEEK, request)

    assert [(m["role"], m.get("reasoning_content")) for m in messages] == [  # type: ignore[index, attr-defined]
        ("system", None),
        ("user", None),
        ("assistant", None),
        ("user", None),
        ("assistant", ""),
        ("assistant", ""),
        ("tool", None),
        ("assistant", ""),
        ("user", None),
        ("assistant", None),
        ("user", None),
    ]
    for dialect in (None, XAI, OPENROUTER):
        others = await sent_messages(dialect, request)
        assert all("reasoning_content" not in m for m in others)  # type: ignore[operator]


async def test_deepseeks_reasoning_goes_to_no_other_wire() -> None:
    for dialect in (None, GROQ, OPENROUTER):
        messages = await sent_messages(dialect, follow_up(DEEPSEEK_REASONING))
        assert all("reasoning_content" not in m for m in messages)  # type: ignore[operator]


OPENROUTER_DETAILS = [
    {"type": "reasoning.text", "text": "Need the weather.", "format": "unknown", "index": 0},
    {"type": "reasoning.encrypted", "data": "gAAAA-sig", "format": "google-gemini-v1", "index": 1},
]


async def test_openrouter_gets_its_reasoning_details_back_unmodified_on_that_message() -> None:
    fields = {"reasoning": "Need the weather.", "reasoning_details": OPENROUTER_DETAILS}
    own = CourseReasoningBlock("Need the weather.", opaque=CourseOpaque("openrouter", fields))

    messages = await sent_messages(OPENROUTER, follow_up(own))

    assert [m.get("reasoning_details") for m in messages] == [  # type: ignore[attr-defined]
        None,
        None,
        OPENROUTER_DETAILS,
        None,
        None,
        None,
    ]
    assert messages[2]["reasoning"] == "Need the weather."  # type: ignore[index]
    assert messages[2]["tool_calls"][0]["id"] == "call_w"  # type: ignore[index]
    plain = await sent_messages(None, follow_up(own))
    assert all("reasoning_details" not in m for m in plain)  # type: ignore[operator]


async def test_an_openrouter_answer_with_encrypted_details_alone_keeps_them_for_the_way_back() -> (
    None
):
    encrypted = OPENROUTER_DETAILS[1]
    body = sse_bytes(
        chat_events(
            chunk({"role": "assistant", "content": "", "reasoning_details": [encrypted]}),
            chunk({"tool_calls": [_WEATHER_CALL]}),
            finish("tool_calls"),
            usage(),
            "[DONE]",
        )
    )
    transport = RecordedTransport([RecordedResponse(200, SSE, body)])
    model = OpenAIChatModel(OpenAIConfig("m"), dialect=OPENROUTER, transport=transport)

    played = await replay(model, REQUEST)

    assert played.response is not None
    block, call = played.response.message.content
    assert block == CourseReasoningBlock(
        "", opaque=CourseOpaque("openrouter", {"reasoning": "", "reasoning_details": [encrypted]})
    )
    assert call == CourseToolCall("call_w", "weather", {"city": "Oslo"})
    plain_transport = RecordedTransport([RecordedResponse(200, SSE, body)])
    plain = await replay(OpenAIChatModel(OpenAIConfig("m"), transport=plain_transport), REQUEST)
    assert plain.response is not None
    assert plain.response.message.content == (call,)


_WEATHER_CALL = {
    "index": 0,
    "id": "call_w",
    "type": "function",
    "function": {"name": "weather", "arguments": '{"city": "Oslo"}'},
}


async def test_a_dialect_that_takes_no_reasoning_back_leaves_its_own_out() -> None:
    own = CourseReasoningBlock("Hm", opaque=CourseOpaque("groq", {"reasoning": "Hm"}))

    messages = await sent_messages(GROQ, follow_up(own))

    assert all("reasoning" not in m for m in messages)  # type: ignore[operator]
    assert messages[2]["tool_calls"][0]["id"] == "call_w"  # type: ignore[index]


async def test_a_dialects_model_reads_its_own_key_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    model = OpenAIChatModel(OpenAIConfig("m", base_url="http://127.0.0.1:9"), dialect=GROQ)
    try:
        played = await replay(model)
    finally:
        await model.aclose()

    assert played.error is not None
    assert played.error.code is VendorErrorCode.VENDOR_MISSING_API_KEY
    assert "GROQ_API_KEY" in played.error.message


def test_a_dialect_that_is_not_a_chat_dialect_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="dialect must be a ChatDialect, not str"):
        OpenAIChatModel(OpenAIConfig("m"), dialect="groq", transport=RecordedTransport([]))  # type: ignore[arg-type]


def test_a_dialects_grammar_error_is_the_same_object_on_every_later_feed() -> None:
    grammar = GROQ_PLUGIN.grammar
    assert grammar is not None
    fold = grammar()
    with pytest.raises(VendorError) as first:
        fold.feed(SseEvent("message", "{not json"), 0)
    with pytest.raises(VendorError) as again:
        fold.feed(SseEvent("message", "[DONE]"), 1)
    assert again.value is first.value
    assert first.value.vendor == "groq"


async def test_a_deepseek_answer_with_reasoning_conforms() -> None:
    body = sse_bytes(
        chat_events(
            chunk({"role": "assistant", "content": None, "reasoning_content": "Two"}),
            chunk({"content": None, "reasoning_content": " and two."}),
            text("4", reasoning_content=None),
            finish("stop"),
            usage(),
            "[DONE]",
        )
    )

    def model() -> OpenAIChatModel:
        served = RecordedResponse(200, SSE, body)
        transport = RecordedTransport([served], chunking="random", seed=3)
        return OpenAIChatModel(OpenAIConfig("m"), dialect=DEEPSEEK, transport=transport)

    report = await assert_conforms(model, REQUEST)

    response = report.result_for(Scenario.COMPLETE).response
    assert response is not None
    reasoning, answer = response.message.content
    assert (type(reasoning), answer) == (CourseReasoningBlock, CourseTextBlock("4"))
    assert reasoning.text == "Two and two."  # type: ignore[union-attr]
