"""Every recorded Gemini file of ../shared: judged by the grammar, and played the production way.

Every streamed body is judged by `GeminiGrammar` alone (`judge_body`): each
is valid Gemini traffic but one mock. Each body also goes through
`GeminiModel` over a `RecordedTransport` (the HTTP client, the Gemini
framing, the grammar and the mapping, the shared producer loop), whole, one
byte per chunk and at seeded random cuts, and every cut must give the same
outcome; every body cut short at every byte fails with a typed error (or,
cut only inside its final blank line, gives the whole response). The
recordings are other projects' data: read in place, never copied. Skipped
when ``../shared`` is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from course_http import RecordedResponse, RecordedTransport, VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseReasoningDeltaChunk,
    CourseTextBlock,
    CourseToolCall,
    CourseToolCallChunk,
    CourseToolResultMessage,
    CourseToolSpec,
    CourseUserMessage,
    freeze_json_object,
    thaw_json,
    to_json,
)
from course_provider_gemini import (
    GEMINI_PLUGIN,
    GeminiConfig,
    GeminiDecoder,
    GeminiFunctionCall,
    GeminiMapping,
    GeminiModel,
    GeminiResult,
    GeminiText,
    describe_error,
    generate_content_body,
)
from course_vendor import judge_body
from tests.course_cassettes.replays import Replayed, data_only_body, replay, replay_every_cut

RECORDINGS = (
    Path(__file__).resolve().parents[2] / ".." / "shared" / "provider-transcripts" / "gemini"
)
pytestmark = pytest.mark.skipif(
    not RECORDINGS.is_dir(),
    reason=f"the shared recordings are not beside the checkout ({RECORDINGS})",
)

C = VendorErrorCode
JSON = {"content-type": "application/json"}
# name -> (stop reason, input tokens, output tokens, text chunks, Tool calls as (name, arguments))
RESPONSES: dict[str, tuple[str, int, int, int, list[tuple[str, dict[str, Any]]]]] = {
    "text-sse.sse": ("stop", 13, 63 + 75, 2, []),
    # The output limit: what came is the answer, its thoughts counted as output.
    "max-tokens.sse": ("length", 9, 10 + 38, 1, []),
    "function-call-followup-text.sse": ("stop", 211, 30, 3, []),
    "parallel-function-calls.sse": (
        "toolCall",
        70,
        40 + 61,
        0,
        [
            ("secret_retrieval_tool", {"password": "mellon"}),
            ("secret_retrieval_tool", {"password": "radiance"}),
        ],
    ),
    "text-then-function-call-thought-signature.sse": (
        "toolCall",
        29,
        10 + 202,
        0,
        [("get_country", {})],
    ),
}
ARRAY_RESPONSES: dict[str, tuple[str, int, int, int, list[tuple[str, dict[str, Any]]]]] = {
    "json-array-stream-no-alt-sse.json": (
        "toolCall",
        32,
        12 + 42,
        1,
        [("pelican_name_generator", {})],
    )
}
# name -> (code, vendor type, event index, chunks delivered before the failure)
FAILURES: dict[str, tuple[VendorErrorCode, str | None, int, int]] = {
    # A mock: its blocked prompt has no responseId and no usage to answer with.
    "mock-prompt-blocked.sse": (C.VENDOR_REFUSAL, "SAFETY", 0, 0),
    # A mock, not a capture: its first chunk finishes with no responseId,
    # which the course response is named by, so the model fails there.
    "mock-error-mid-stream.sse": (C.VENDOR_INVALID_EVENT, None, 0, 1),
}
# Vertex streams three of its four calls' arguments over several chunks
# (partialArgs, willContinue): each is one Tool call once its closing part came.
VERTEX = "vertex-streamed-function-call-args.jsonl"
VERTEX_CALLS = [
    ("read_theme", {}),
    ("read_screen", {"id": "A"}),
    ("read_screen", {"id": "B"}),
    ("read_screen", {"id": "C"}),
]
STREAMS = sorted([*RESPONSES, *ARRAY_RESPONSES, *FAILURES, VERTEX])
ERROR_BODIES = {
    "error-http-400-api-key-invalid.json": (
        "INVALID_ARGUMENT",
        "API_KEY_INVALID",
        "API key not valid. Please pass a valid API key.",
    )
}
REQUESTS = sorted(
    f"{stem}.request.json"
    for stem in (
        "error-http-400-api-key-invalid",
        "function-call-followup-text",
        "json-array-stream-no-alt-sse",
        "max-tokens",
        "parallel-function-calls",
        "text-sse",
        "text-then-function-call-thought-signature",
    )
)


def replaying(transport: RecordedTransport | Any) -> GeminiModel:
    """The model a loop would use, over the recorded body (the configuration is not sent)."""
    return GeminiModel(GeminiConfig("gemini-recorded"), transport=transport)


def body_of(name: str) -> bytes:
    raw = (RECORDINGS / name).read_bytes()
    return data_only_body(raw.decode()) if name.endswith(".jsonl") else raw


def _opaque(data: dict[str, Any]) -> dict[str, Any]:
    return {"wire": "gemini", "data": data}


def lenient_course_json(name: str, request_id: str) -> dict[str, Any]:
    """What the response must be, read the simplest way: every chunk's parts, in order.

    Consecutive text parts of one kind (thought or answer) are one block,
    closed by a part carrying a signature, which is the block's opaque data.
    """
    raw = (RECORDINGS / name).read_text()
    if name.endswith(".json"):
        chunks = json.loads(raw)
    else:
        chunks = [json.loads(line[6:]) for line in raw.splitlines() if line.startswith("data: ")]
    content: list[dict[str, Any]] = []
    open_run = False
    calls = 0
    for item in chunks:
        for part in item["candidates"][0]["content"]["parts"]:
            signature = part.get("thoughtSignature")
            if "functionCall" in part:
                open_run = False
                call = part["functionCall"]
                call_id = call.get("id") or f"{item['responseId']}-call-{calls}"
                calls += 1
                block = {
                    "type": "toolCall",
                    "id": call_id,
                    "name": call["name"],
                    "arguments": call["args"],
                }
                data = {"id": call["id"]} if "id" in call else {}
                if signature is not None:
                    data["thoughtSignature"] = signature
                if data:
                    block["opaque"] = _opaque(data)
                content.append(block)
                continue
            kind = "reasoning" if part.get("thought") else "text"
            if not (open_run and content[-1]["type"] == kind):
                content.append({"type": kind, "text": ""})
            content[-1]["text"] += part.get("text", "")
            open_run = True
            if signature is not None:
                content[-1]["opaque"] = _opaque({"thoughtSignature": signature})
                open_run = False
    content = [
        block
        for block in content
        if block["type"] == "toolCall" or block != {"type": block["type"], "text": ""}
    ]
    last = chunks[-1]
    usage = last["usageMetadata"]
    counts = {
        "inputTokens": usage["promptTokenCount"] + usage.get("toolUsePromptTokenCount", 0),
        "outputTokens": usage.get("candidatesTokenCount", 0) + usage.get("thoughtsTokenCount", 0),
    }
    if "cachedContentTokenCount" in usage:
        counts["cacheReadTokens"] = usage["cachedContentTokenCount"]
    if "thoughtsTokenCount" in usage:
        counts["reasoningTokens"] = usage["thoughtsTokenCount"]
    finish = last["candidates"][0]["finishReason"]
    stop = {"STOP": "toolCall" if calls else "stop", "MAX_TOKENS": "length"}[finish]
    return {
        "id": last["responseId"],
        "requestId": request_id,
        "message": {"role": "assistant", "id": last["responseId"], "content": content},
        "stopReason": stop,
        "usage": counts,
    }


def test_every_recorded_file_has_a_tested_outcome() -> None:
    tested = {*STREAMS, *ERROR_BODIES, *REQUESTS}

    assert sorted(path.name for path in RECORDINGS.iterdir()) == sorted(tested)


def check_response(outcome: Replayed, name: str, expected: tuple[Any, ...]) -> None:
    stop_reason, input_tokens, output_tokens, text_chunks, calls = expected
    assert outcome.error is None, outcome.error
    assert outcome.response is not None
    course = to_json(outcome.response)
    assert course == lenient_course_json(name, outcome.response.request_id)
    assert course["stopReason"] == stop_reason
    assert (course["usage"]["inputTokens"], course["usage"]["outputTokens"]) == (
        input_tokens,
        output_tokens,
    )
    tool_chunks = [chunk for chunk in outcome.chunks if type(chunk) is CourseToolCallChunk]
    assert len(outcome.chunks) - len(tool_chunks) == text_chunks
    assert [
        (chunk.tool_call.name, dict(chunk.tool_call.arguments)) for chunk in tool_chunks
    ] == calls


@pytest.mark.parametrize("name", sorted(RESPONSES))
async def test_a_recorded_sse_response_replays_to_its_course_json_however_it_is_cut(
    name: str,
) -> None:
    outcome = await replay_every_cut(replaying, body_of(name))

    check_response(outcome, name, RESPONSES[name])


@pytest.mark.parametrize("name", sorted(ARRAY_RESPONSES))
@pytest.mark.parametrize("chunking", ["whole", "bytes", "random"])
async def test_the_recorded_json_array_replays_under_application_json(
    name: str, chunking: Any
) -> None:
    served = RecordedResponse(200, JSON, body_of(name))
    async with RecordedTransport([served], chunking=chunking, seed=5) as transport:
        outcome = await replay(replaying(transport))

    check_response(outcome, name, ARRAY_RESPONSES[name])


@pytest.mark.parametrize("name", sorted(FAILURES))
async def test_a_recorded_failure_fails_with_its_code_however_it_is_cut(name: str) -> None:
    code, vendor_type, index, delivered = FAILURES[name]

    outcome = await replay_every_cut(replaying, body_of(name))

    assert outcome.error is not None
    assert (outcome.error.code, outcome.error.vendor_type, outcome.error.event_index) == (
        code,
        vendor_type,
        index,
    )
    assert outcome.error.vendor == "gemini"
    assert len(outcome.chunks) == delivered


def played_directly(body: bytes) -> tuple[VendorError | None, Any]:
    """``body`` through the framing and the parser with no HTTP client (as `stream_events` does)."""
    decoder = GeminiDecoder(vendor="gemini")
    parser = GeminiMapping("request-1")
    count = 0
    try:
        for item in [*decoder.feed_bytes(body), *decoder.close()]:
            parser.item(item, count, lambda chunk: None)
            count += 1
        return None, parser.end(count)
    except VendorError as error:
        return error, None


@pytest.mark.parametrize("name", STREAMS)
def test_every_recorded_body_cut_short_at_any_byte_fails_typed_or_is_whole(name: str) -> None:
    body = body_of(name)
    _, whole = played_directly(body)
    allowed = {C.VENDOR_MISSING_TERMINAL, C.VENDOR_INVALID_EVENT}
    if name in FAILURES:
        allowed.add(FAILURES[name][0])
    for end in range(len(body)):
        error, response = played_directly(body[:end])
        if error is None:
            # Only what follows the finishing chunk's JSON may be missing.
            assert whole is not None, end
            assert body[:end].rstrip().endswith(b"}"), end
            assert response == whole, end
        else:
            assert error.code in allowed, (end, error)
            assert error.vendor == "gemini"


@pytest.mark.parametrize("name", STREAMS)
def test_every_recorded_stream_is_judged_by_the_grammar_alone(name: str) -> None:
    verdict = judge_body(GEMINI_PLUGIN, body_of(name))

    if name == "mock-error-mid-stream.sse":
        # The mock finishes its one candidate twice, then sends an error
        # object: the real API sends nothing after a candidate's finish.
        error = verdict.failure()
        assert (error.code, error.event_index) == (C.VENDOR_EVENT_ORDER, 1)
        return
    found = verdict.unwrap()
    assert type(found) is GeminiResult
    assert found.error is None
    if name == "mock-prompt-blocked.sse":
        assert found.prompt_feedback is not None
        assert (found.prompt_feedback.block_reason, found.candidates) == ("SAFETY", ())
        return
    (candidate,) = found.candidates
    assert candidate.finish_reason == ("MAX_TOKENS" if name == "max-tokens.sse" else "STOP")
    assert found.response_id is not None
    assert found.usage is not None
    assert found.usage.prompt_token_count is not None


def test_the_grammar_keeps_what_the_recorded_vertex_body_said() -> None:
    found = judge_body(GEMINI_PLUGIN, body_of(VERTEX)).unwrap()

    (candidate,) = found.candidates
    calls = [part for part in candidate.parts if type(part) is GeminiFunctionCall]
    assert [(call.name, thaw_json(call.arguments)) for call in calls] == VERTEX_CALLS
    assert [call.streamed for call in calls] == [False, True, True, True]
    assert calls[0].signature is not None
    first = candidate.parts[0]
    assert type(first) is GeminiText
    assert first.thought
    assert found.create_time == "2026-05-04T20:01:02.264968Z"
    assert found.usage is not None
    assert (found.usage.candidates_token_count, found.usage.thoughts_token_count) == (58, 183)
    assert found.usage.traffic_type == "PROVISIONED_THROUGHPUT"


async def test_the_recorded_vertex_body_replays_to_its_four_tool_calls_however_it_is_cut() -> None:
    outcome = await replay_every_cut(replaying, body_of(VERTEX))

    assert outcome.error is None, outcome.error
    response = outcome.response
    assert response is not None
    calls = [chunk.tool_call for chunk in outcome.chunks if type(chunk) is CourseToolCallChunk]
    thinking = [chunk for chunk in outcome.chunks if type(chunk) is CourseReasoningDeltaChunk]
    assert len(calls) + len(thinking) == len(outcome.chunks)
    assert [(call.name, thaw_json(call.arguments)) for call in calls] == VERTEX_CALLS
    [reasoning, *rest] = response.message.content
    assert type(reasoning) is CourseReasoningBlock
    assert reasoning.text == "".join(chunk.delta for chunk in thinking)
    assert tuple(rest) == tuple(calls)
    assert (response.stop_reason.value, response.usage) == (
        "toolCall",
        CourseModelUsage(249, 58 + 183, reasoning_tokens=183),
    )


@pytest.mark.parametrize("name", sorted(ERROR_BODIES))
async def test_the_recorded_error_body_fails_the_call_with_the_vendors_fields(name: str) -> None:
    body = (RECORDINGS / name).read_bytes()
    served = RecordedResponse(400, {"content-type": "text/event-stream"}, body)
    async with RecordedTransport([served]) as transport:
        outcome = await replay(replaying(transport))

    error = outcome.error
    assert error is not None
    assert (error.code, error.status) == (C.HTTP_REQUEST_REJECTED, 400)
    assert (error.vendor_type, error.vendor_code, error.vendor_message) == ERROR_BODIES[name]
    described = describe_error(body)
    assert described is not None
    assert described.vendor_code == "API_KEY_INVALID"


def test_the_recorded_follow_up_request_is_what_the_converter_builds() -> None:
    recorded = json.loads((RECORDINGS / "function-call-followup-text.request.json").read_text())
    turns = recorded["contents"]
    call_parts = turns[1]["parts"]
    results = turns[2]["parts"]
    calls = tuple(
        CourseToolCall(
            f"call-{n}",
            part["functionCall"]["name"],
            freeze_json_object(part["functionCall"]["args"]).unwrap(),
            opaque=(
                CourseOpaque("gemini", {"thoughtSignature": part["thoughtSignature"]})
                if "thoughtSignature" in part
                else None
            ),
        )
        for n, part in enumerate(call_parts)
    )
    request = CourseModelRequest(
        "request-1",
        (
            CourseUserMessage("u-1", turns[0]["parts"][0]["text"]),
            CourseAssistantMessage("a-1", calls),
            *(
                CourseToolResultMessage(
                    f"r-{n}",
                    f"call-{n}",
                    part["functionResponse"]["name"],
                    part["functionResponse"]["response"]["output"],
                )
                for n, part in enumerate(results)
            ),
        ),
    )
    declaration = recorded["tools"][0]["functionDeclarations"][0]
    config = GeminiConfig(
        "gemini-2.5-flash",
        system_prompt=recorded["systemInstruction"]["parts"][0]["text"],
        tools=(
            CourseToolSpec(declaration["name"], declaration["description"], {"type": "object"}),
        ),
    )
    body = generate_content_body(request, config)

    # The SDK also sends the roles of systemInstruction and an empty
    # generationConfig; the turns are the same, the signature on its call only.
    assert body["contents"] == turns
    assert body["systemInstruction"]["parts"] == recorded["systemInstruction"]["parts"]
    assert "thoughtSignature" not in body["contents"][1]["parts"][1]


async def test_a_signature_received_is_sent_back_with_its_call_by_the_same_model() -> None:
    name = "text-then-function-call-thought-signature.sse"
    body = body_of(name)
    recorded = json.loads(body.split(b"\r\n")[0][6:])
    signature = recorded["candidates"][0]["content"]["parts"][0]["thoughtSignature"]
    answer = {
        "candidates": [{"content": {"parts": [{"text": "Paris."}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 2},
        "responseId": "second",
    }
    follow_up = f"data: {json.dumps(answer)}\r\n\r\n".encode()
    sse = {"content-type": "text/event-stream"}
    async with RecordedTransport(
        [RecordedResponse(200, sse, body), RecordedResponse(200, sse, follow_up)]
    ) as transport:
        model = replaying(transport)
        first = await replay(model)
        assert first.response is not None
        call = first.response.message.content[0]
        assert type(call) is CourseToolCall
        request = CourseModelRequest(
            "request-2",
            (
                CourseUserMessage("u-1", "What is the capital of the user country?"),
                first.response.message,
                CourseToolResultMessage("r-1", call.id, call.name, "France"),
            ),
        )
        second = await replay(model, request)

    assert second.error is None
    sent_body: Any = thaw_json(transport.requests[1].body)
    sent = sent_body["contents"]
    assert sent[1]["parts"][0]["thoughtSignature"] == signature
    assert sent[2]["parts"] == [
        {"functionResponse": {"name": "get_country", "response": {"output": "France"}}}
    ]
    assert type(first.response.message.content[0]) is not CourseTextBlock
