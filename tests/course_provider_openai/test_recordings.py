"""Every recorded OpenAI body in ../shared replays to a tested outcome, the production way.

The recordings are other projects' data: they are read in place and never
copied. Each response file is replayed through its model
(`OpenAIChatModel`, `OpenAIResponsesModel`) over a `RecordedTransport`: the
HTTP client, course_http's SSE decoder, the parser and the shared producer
loop, whole and re-chunked (per byte for small bodies, at seeded random
cuts for all). Every cut must give the outcome listed here: the course
response (its stop reason, usage and the kinds and names of its blocks,
checked against the chunks that were streamed), or the typed failure
(code, event, the vendor's own names). Each error body must give the
vendor's type and code to ``describe_error``. The ``.jsonl`` recording kept
only each event's data; it is replayed as the SSE body of one unnamed
``data:`` frame per line, which the Responses API accepts (its event names
are optional and repeat the type).

The two ``compat-*`` chat recordings come from OpenAI-compatible vendors:
- Groq sends ``event: error`` (a named event in a stream that has none)
  with an ``error`` object and then closes: ``VENDOR_ERROR_EVENT`` with
  Groq's type and code.
- OpenRouter (17 comment lines first) ends a ``max_completion_tokens: 10``
  request with ``finish_reason: "length"`` twice and then an in-chunk
  ``error`` ("Token limit reached"): the first ``length`` ends the answer
  (``LENGTH``), and the second finish is off OpenAI's grammar, which
  plain ``openai-chat`` refuses there; the error chunk after it is never read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from course_conformance import Scenario, assert_conforms
from course_http import HttpTransport, RecordedResponse, RecordedTransport, VendorErrorCode
from course_protocol import (
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    parse_response,
    text_from_assistant,
    to_json,
)
from course_provider_openai import (
    OpenAIChatModel,
    OpenAIConfig,
    OpenAIResponsesModel,
    describe_error,
)
from tests.course_cassettes.replays import data_only_body, replay_every_cut
from tests.course_vendor.wires import REQUEST

TRANSCRIPTS = Path(__file__).resolve().parents[2] / ".." / "shared" / "provider-transcripts"
Code = VendorErrorCode
MODELS: dict[str, type[OpenAIChatModel] | type[OpenAIResponsesModel]] = {
    "openai-chat": OpenAIChatModel,
    "openai-responses": OpenAIResponsesModel,
}
CONFIG = OpenAIConfig("gpt-recorded")

pytestmark = pytest.mark.skipif(
    not TRANSCRIPTS.is_dir(),
    reason=f"the shared provider transcripts are not present at {TRANSCRIPTS}",
)


class Answer(NamedTuple):
    """A response: chunks streamed, stop reason, usage, and (type, Tool name) per block."""

    chunks: int
    stop_reason: str
    usage: tuple[int, int]
    blocks: tuple[tuple[str, str | None], ...]


class Failure(NamedTuple):
    """A typed failure: chunks streamed first, the code, its event, the vendor's names."""

    chunks: int
    code: VendorErrorCode
    event_index: int
    vendor_type: str | None
    vendor_code: str | None = None


TEXT = (("text", None),)
OUTCOMES: dict[str, Answer | Failure] = {
    "openai-chat/text-include-usage.sse": Answer(10, "stop", (16, 10), TEXT),
    "openai-chat/parallel-tool-calls.sse": Answer(
        2,
        "toolCall",
        (75, 53),
        (("toolCall", "secret_retrieval_tool"), ("toolCall", "secret_retrieval_tool")),
    ),
    "openai-chat/two-different-tools.sse": Answer(
        2, "toolCall", (149, 60), (("toolCall", "GetWeatherArgs"), ("toolCall", "get_stock_price"))
    ),
    "openai-chat/single-tool-call-first-chunk-has-role.sse": Answer(
        1, "toolCall", (53, 15), (("toolCall", "get_capital"),)
    ),
    "openai-chat/finish-length-reasoning-only.sse": Answer(0, "length", (13, 50), ()),
    "openai-chat/refusal-structured-output.sse": Answer(1, "refusal", (79, 11), TEXT),
    "openai-chat/compat-groq-midstream-error-event.sse": Failure(
        0, Code.VENDOR_ERROR_EVENT, 94, "invalid_request_error", "tool_use_failed"
    ),
    "openai-chat/compat-openrouter-comments-inchunk-error.sse": Failure(
        0, Code.VENDOR_EVENT_ORDER, 2, None
    ),
    "openai-responses/text.sse": Answer(10, "stop", (16, 11), TEXT),
    "openai-responses/text-after-function-call-output.sse": Answer(30, "stop", (136, 32), TEXT),
    "openai-responses/background-queued.sse": Answer(8, "stop", (15, 9), TEXT),
    "openai-responses/parallel-function-calls.sse": Answer(
        2,
        "toolCall",
        (36, 54),
        (("toolCall", "secret_retrieval_tool"), ("toolCall", "secret_retrieval_tool")),
    ),
    "openai-responses/reasoning-then-function-call.sse": Answer(
        1, "toolCall", (53, 469), (("toolCall", "final_result"),)
    ),
    "openai-responses/reasoning-text-and-function-call.sse": Answer(
        14, "toolCall", (63, 69), (("text", None), ("toolCall", "get_capital"))
    ),
    "openai-responses/incomplete-max-output-tokens.sse": Failure(
        50, Code.VENDOR_INCOMPLETE, 57, "max_output_tokens"
    ),
    "openai-responses/refusal.sse": Failure(0, Code.VENDOR_REFUSAL, 13, "refusal"),
    "openai-responses/error-midstream-insufficient-quota.jsonl": Failure(
        0, Code.VENDOR_ERROR_EVENT, 2, "insufficient_quota", "insufficient_quota"
    ),
}
ERROR_BODIES: dict[str, tuple[str, str]] = {
    "openai-chat/error-http-401-invalid-api-key.json": ("invalid_request_error", "invalid_api_key"),
    "openai-responses/error-http-400-model-not-found.json": (
        "invalid_request_error",
        "model_not_found",
    ),
}


def recorded_files() -> list[str]:
    if not TRANSCRIPTS.is_dir():
        return []
    return sorted(
        f"{folder}/{path.name}"
        for folder in MODELS
        for path in (TRANSCRIPTS / folder).iterdir()
        if not path.name.endswith(".request.json")
    )


def test_every_recorded_file_has_a_tested_outcome() -> None:
    assert recorded_files() == sorted([*OUTCOMES, *ERROR_BODIES])


def block_shape(block: dict[str, Any]) -> tuple[str, str | None]:
    return (block["type"], block.get("name"))


def recorded_body(name: str) -> bytes:
    """The body as it came over HTTP (a ``.jsonl`` file: the data of each event, reframed)."""
    path = TRANSCRIPTS / name
    if path.suffix == ".jsonl":
        return data_only_body(path.read_text(encoding="utf-8"))
    return path.read_bytes()


def replaying(name: str) -> Callable[[HttpTransport], OpenAIChatModel | OpenAIResponsesModel]:
    model = MODELS[name.split("/")[0]]
    return lambda transport: model(CONFIG, transport=transport)


@pytest.mark.parametrize("name", sorted(OUTCOMES))
async def test_each_recorded_stream_replays_to_its_outcome_however_it_is_cut(name: str) -> None:
    folder = name.split("/")[0]

    outcome = await replay_every_cut(replaying(name), recorded_body(name))

    expected = OUTCOMES[name]
    assert len(outcome.chunks) == expected.chunks
    assert all(chunk.request_id == "request-1" for chunk in outcome.chunks)
    if type(expected) is Failure:
        error = outcome.error
        assert error is not None, "the recording must fail"
        assert (error.code, error.event_index) == (expected.code, expected.event_index)
        assert (error.vendor_type, error.vendor_code) == (
            expected.vendor_type,
            expected.vendor_code,
        )
        assert error.vendor == folder
        return
    assert type(expected) is Answer
    assert outcome.error is None, outcome.error
    response = outcome.response
    assert response is not None
    course: dict[str, Any] = to_json(response)  # type: ignore[assignment]
    assert course["stopReason"] == expected.stop_reason
    assert (course["usage"]["inputTokens"], course["usage"]["outputTokens"]) == expected.usage
    assert tuple(block_shape(block) for block in course["message"]["content"]) == expected.blocks
    assert parse_response(course).unwrap() == response
    streamed_text = "".join(
        chunk.delta for chunk in outcome.chunks if type(chunk) is CourseTextDeltaChunk
    )
    assert text_from_assistant(response.message) == streamed_text
    streamed_calls = [
        chunk.tool_call for chunk in outcome.chunks if type(chunk) is CourseToolCallChunk
    ]
    calls = [block for block in response.message.content if type(block) is CourseToolCall]
    assert streamed_calls == calls
    assert all(call.id.startswith("call_") for call in calls), "call ids, never item ids"


@pytest.mark.parametrize("name", sorted(name for name, o in OUTCOMES.items() if type(o) is Answer))
async def test_each_model_conforms_on_a_recorded_answer(name: str) -> None:
    body = recorded_body(name)

    def model() -> OpenAIChatModel | OpenAIResponsesModel:
        served = RecordedResponse(200, {"content-type": "text/event-stream"}, body)
        return replaying(name)(RecordedTransport([served], chunking="random", seed=5))

    report = await assert_conforms(model, REQUEST)

    assert report.result_for(Scenario.COMPLETE).response is not None


@pytest.mark.parametrize("name", sorted(ERROR_BODIES))
def test_each_recorded_error_body_gives_the_vendors_type_and_code(name: str) -> None:
    description = describe_error((TRANSCRIPTS / name).read_bytes())

    assert description is not None
    assert (description.vendor_type, description.vendor_code) == ERROR_BODIES[name]
    assert description.vendor_message


async def test_the_recorded_chat_limit_and_refusal_carry_their_usage_details_and_text() -> None:
    limited = await replay_every_cut(
        replaying("openai-chat/finish-length-reasoning-only.sse"),
        recorded_body("openai-chat/finish-length-reasoning-only.sse"),
    )
    refused = await replay_every_cut(
        replaying("openai-chat/refusal-structured-output.sse"),
        recorded_body("openai-chat/refusal-structured-output.sse"),
    )

    assert limited.response is not None
    counts = limited.response.usage
    # OpenAI sent cached_tokens 0 and reasoning_tokens 50: a 0 it said stays 0.
    assert (counts.cache_read_tokens, counts.cache_write_tokens, counts.reasoning_tokens) == (
        0,
        None,
        50,
    )
    assert refused.response is not None
    assert text_from_assistant(refused.response.message) == (
        "I'm sorry, I can't assist with that request."
    )
    # This one sent no prompt_tokens_details: no cached count, not a 0.
    assert refused.response.usage.cache_read_tokens is None
    assert refused.response.usage.reasoning_tokens == 0
