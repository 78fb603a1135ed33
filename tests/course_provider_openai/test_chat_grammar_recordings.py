"""Every recorded Chat body in ../shared passes the openai-chat grammar, read in place.

Each ``.sse`` body of ``openai-chat/`` is judged by `judge_body` with the
wire's plug-in, and its result holds what the recording says: the finish,
the calls, the refusal, every usage count. The two ``compat-*`` recordings
come from OpenAI-compatible servers, whose differences are dialects of
their own (``test_chat_dialect_wires`` reads them with theirs); the plain
grammar reads them as OpenAI's SDK does:

- Groq streams unknown ``reasoning``/``channel`` delta fields (left unread,
  as the SDK leaves them) and ends with ``event: error``: the vendor's
  error, which ends the stream, so the body passes and its result holds
  the error (no finish, no ``[DONE]``).
- OpenRouter sends ``finish_reason: "length"`` twice for one choice:
  OpenAI sends one finish per choice, so the second is
  ``VENDOR_EVENT_ORDER`` at event 2, before its in-chunk error.

A body that leaves out what OpenAI documents as optional (the usage chunk,
``[DONE]``) passes too: the strict check of a cassette judges the grammar,
not the adapter's own rule that a request asking for usage must get it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from course_http import RecordedResponse, VendorError, VendorErrorCode
from course_provider_openai import CHAT_PLUGIN, ChatResult, ChatStreamError, ChatUsage
from course_vendor import judge_body, recorded_stream_problem

TRANSCRIPTS = (
    Path(__file__).resolve().parents[2] / ".." / "shared" / "provider-transcripts" / "openai-chat"
)

pytestmark = pytest.mark.skipif(
    not TRANSCRIPTS.is_dir(),
    reason=f"the shared provider transcripts are not present at {TRANSCRIPTS}",
)


class Said(NamedTuple):
    """What a recording's one choice said, its usage, and how the stream ended."""

    finish_reason: str | None
    calls: tuple[str, ...]
    content: str
    refusal: str
    usage: ChatUsage | None
    done: bool = True
    error: ChatStreamError | None = None


ZEROS = {"cached_tokens": 0, "prompt_audio_tokens": 0, "completion_audio_tokens": 0}
PREDICTIONS = {"accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
SAID: dict[str, Said] = {
    "text-include-usage.sse": Said(
        "stop",
        (),
        "4200 + 42 equals 4242.",
        "",
        ChatUsage(16, 10, 26, reasoning_tokens=0, **ZEROS, **PREDICTIONS),
    ),
    "parallel-tool-calls.sse": Said(
        "tool_calls",
        ("secret_retrieval_tool", "secret_retrieval_tool"),
        "",
        "",
        ChatUsage(75, 53, 128, reasoning_tokens=0, **ZEROS, **PREDICTIONS),
    ),
    "two-different-tools.sse": Said(
        "tool_calls",
        ("GetWeatherArgs", "get_stock_price"),
        "",
        "",
        ChatUsage(149, 60, 209, reasoning_tokens=0),
    ),
    "single-tool-call-first-chunk-has-role.sse": Said(
        "tool_calls",
        ("get_capital",),
        "",
        "",
        ChatUsage(53, 15, 68, reasoning_tokens=0, **ZEROS, **PREDICTIONS),
    ),
    "finish-length-reasoning-only.sse": Said(
        "length", (), "", "", ChatUsage(13, 50, 63, reasoning_tokens=50, **ZEROS, **PREDICTIONS)
    ),
    "refusal-structured-output.sse": Said(
        "stop",
        (),
        "",
        "I'm sorry, I can't assist with that request.",
        ChatUsage(79, 11, 90, reasoning_tokens=0),
    ),
    "compat-groq-midstream-error-event.sse": Said(
        None,
        (),
        "",
        "",
        None,
        done=False,
        error=ChatStreamError(
            "invalid_request_error",
            "tool_use_failed",
            "Tool call validation failed: tool call validation failed: parameters for tool "
            "get_something_by_name did not match schema: errors: [missing properties: 'name', "
            "additionalProperties 'invalid_param' not allowed]",
        ),
    ),
}
REFUSED: dict[str, tuple[VendorErrorCode, int]] = {
    "compat-openrouter-comments-inchunk-error.sse": (VendorErrorCode.VENDOR_EVENT_ORDER, 2),
}


def stream_files() -> list[str]:
    if not TRANSCRIPTS.is_dir():
        return []
    return sorted(path.name for path in TRANSCRIPTS.iterdir() if path.suffix in {".sse", ".jsonl"})


def test_every_recorded_stream_has_an_expected_verdict() -> None:
    assert stream_files() == sorted([*SAID, *REFUSED])


@pytest.mark.parametrize("name", sorted(SAID))
def test_each_recorded_stream_passes_the_grammar_and_its_result_holds_what_it_said(
    name: str,
) -> None:
    verdict = judge_body(CHAT_PLUGIN, (TRANSCRIPTS / name).read_bytes())

    result = verdict.unwrap()
    assert type(result) is ChatResult
    [choice] = result.choices
    said = SAID[name]
    assert (
        Said(
            choice.finish_reason,
            tuple(call.name for call in choice.tool_calls),
            choice.content,
            choice.refusal,
            result.usage,
            result.done,
            result.error,
        )
        == said
    )
    assert result.id is not None
    assert result.id.startswith("chatcmpl-")
    assert all(call.parsed_arguments is not None for call in choice.tool_calls)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_compatible_servers_dialect_is_refused_where_it_leaves_openais_grammar(
    name: str,
) -> None:
    verdict = judge_body(CHAT_PLUGIN, (TRANSCRIPTS / name).read_bytes())

    error = verdict.failure()
    assert type(error) is VendorError
    assert (error.code, error.event_index) == REFUSED[name]


def without_frames(body: bytes, *needles: bytes) -> bytes:
    frames = body.split(b"\n\n")
    return b"\n\n".join(frame for frame in frames if not any(n in frame for n in needles))


@pytest.mark.parametrize(
    "needles",
    [(b'"choices":[]',), (b"[DONE]",), (b'"choices":[]', b"[DONE]")],
    ids=["no-usage", "no-done", "neither"],
)
def test_a_recorded_answer_without_its_optional_end_passes_the_grammar_and_the_check(
    needles: tuple[bytes, ...],
) -> None:
    whole = (TRANSCRIPTS / "text-include-usage.sse").read_bytes()
    body = without_frames(whole, *needles)
    assert body != whole

    result = judge_body(CHAT_PLUGIN, body).unwrap()

    assert result.choices == judge_body(CHAT_PLUGIN, whole).unwrap().choices
    assert (result.usage is None) is (b'"choices":[]' in needles)
    assert result.done is (b"[DONE]" not in needles)
    response = RecordedResponse(200, {"content-type": "text/event-stream"}, body)
    assert recorded_stream_problem("/v1/chat/completions", response) is None
