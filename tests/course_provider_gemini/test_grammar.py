"""GeminiGrammar on bodies of our own: every documented kind passes and its result holds it.

The grammar reads the whole streamed ``GenerateContentResponse`` whether or
not the course port can carry it; each mutation off the grammar fails at
its event with its code. The grammar is a fold: frame by frame it agrees
with `judge_body` over both framings.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from frozendict import frozendict
from returns.result import Failure, Success

from course_http import RecordedResponse, SseEvent, VendorError, VendorErrorCode
from course_protocol import JsonObject, freeze_json_object
from course_provider_gemini import (
    GEMINI_PLUGIN,
    GeminiCandidate,
    GeminiFunctionCall,
    GeminiGrammar,
    GeminiModalityCount,
    GeminiOpaquePart,
    GeminiPromptFeedback,
    GeminiResult,
    GeminiStreamError,
    GeminiText,
    GeminiUsage,
)
from course_vendor import judge_body, recorded_stream_problem
from tests.course_provider_gemini.bodies import (
    RESPONSE_ID,
    call,
    chunk,
    error_object,
    event,
    json_array,
    judged,
    raw,
    sse,
    text,
    thought,
    usage,
)

C = VendorErrorCode
PACKAGE = Path(__file__).resolve().parents[2] / "packages" / "course-provider-gemini" / "src"
PROTOCOL = Path(__file__).resolve().parents[2] / "packages" / "course-protocol" / "src"


def frozen(value: dict[str, Any]) -> JsonObject:
    return freeze_json_object(value).unwrap()


def result_of(events: list[SseEvent]) -> GeminiResult:
    outcome = judged(events)
    assert isinstance(outcome, GeminiResult), outcome
    return outcome


def failure_of(events: list[SseEvent]) -> VendorError:
    outcome = judged(events)
    assert isinstance(outcome, VendorError), outcome
    assert outcome.vendor == "gemini"
    return outcome


def only_candidate(events: list[SseEvent]) -> GeminiCandidate:
    (candidate,) = result_of(events).candidates
    return candidate


SIGNATURE = "c2lnbmF0dXJl"


def test_every_part_kind_the_api_documents_passes_in_order_with_its_data() -> None:
    image = {"mimeType": "image/png", "data": "iVBORw0KGgo="}
    video = {"mimeType": "video/mp4", "fileUri": "gs://bucket/clip.mp4"}
    code = {"language": "PYTHON", "code": "print(2 + 2)", "id": "code-1"}
    ran = {"outcome": "OUTCOME_OK", "output": "4\n", "id": "code-1"}
    answered = {"name": "lookup", "response": {"output": "a"}, "id": "call-9"}
    server_call = {"id": "t-1", "toolType": "GOOGLE_SEARCH_WEB", "args": {"q": "x"}}
    server_result = {"id": "t-1", "toolType": "GOOGLE_SEARCH_WEB", "response": {"hits": []}}
    events = [
        chunk(thought("Planning"), thought(" the answer.")),
        chunk(text("The sum "), text("is 4.", thoughtSignature=SIGNATURE)),
        chunk({"inlineData": image, "thought": True}),
        chunk({"fileData": video, "videoMetadata": {"startOffset": "1s"}}),
        chunk({"executableCode": code}, {"codeExecutionResult": ran}),
        chunk({"functionResponse": answered}),
        chunk({"toolCall": server_call}, {"toolResponse": server_result}),
        chunk(
            call("lookup", {"q": "a"}, thoughtSignature="c2ln"),
            {"functionCall": {"name": "now", "id": "fc-2"}},
            {"thoughtSignature": "ZW5k"},
            finish="STOP",
            finishMessage="Model generated function call(s).",
        ),
    ]

    candidate = only_candidate(events)

    assert candidate.parts == (
        GeminiText("Planning the answer.", thought=True, signature=None),
        GeminiText("The sum is 4.", thought=False, signature=SIGNATURE),
        GeminiOpaquePart("inlineData", frozen(image), thought=True, signature=None),
        GeminiOpaquePart("fileData", frozen(video), thought=False, signature=None),
        GeminiOpaquePart("executableCode", frozen(code), thought=False, signature=None),
        GeminiOpaquePart("codeExecutionResult", frozen(ran), thought=False, signature=None),
        GeminiOpaquePart("functionResponse", frozen(answered), False, None),
        GeminiOpaquePart("toolCall", frozen(server_call), False, None),
        GeminiOpaquePart("toolResponse", frozen(server_result), False, None),
        GeminiFunctionCall("lookup", frozendict(q="a"), None, "c2ln", streamed=False),
        GeminiFunctionCall("now", frozendict(), "fc-2", None, streamed=False),
        GeminiText("", thought=False, signature="ZW5k"),
    )
    assert (candidate.index, candidate.finish_reason, candidate.finish_message) == (
        0,
        "STOP",
        "Model generated function call(s).",
    )
    lookup = candidate.parts[-3]
    assert type(lookup) is GeminiFunctionCall
    assert type(lookup.arguments) is frozendict


def test_text_runs_of_one_kind_join_and_each_change_of_kind_starts_a_run() -> None:
    events = [
        chunk(text("a"), text("b")),
        chunk(thought("t1")),
        chunk(text("c"), text("")),
        chunk(thought("t2"), text("d"), finish="STOP"),
    ]

    assert only_candidate(events).parts == (
        GeminiText("ab", False, None),
        GeminiText("t1", True, None),
        GeminiText("c", False, None),
        GeminiText("t2", True, None),
        GeminiText("d", False, None),
    )


def test_a_signature_closes_its_run_and_the_next_text_starts_another() -> None:
    events = [chunk(text("a", thoughtSignature="AA=="), text("b"), finish="STOP")]

    assert only_candidate(events).parts == (
        GeminiText("a", False, "AA=="),
        GeminiText("b", False, None),
    )


FINISH_REASONS = [
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "LANGUAGE",
    "OTHER",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "MALFORMED_FUNCTION_CALL",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_OTHER",
    "NO_IMAGE",
    "IMAGE_RECITATION",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
    "MISSING_THOUGHT_SIGNATURE",
    "MALFORMED_RESPONSE",
    "ESCALATION",
    "PUP_LIMITED_DISABLED",
    "CONTINUATION",
    "MODEL_ARMOR",
    "FINISH_REASON_UNSPECIFIED",
    "A_REASON_NOT_INVENTED_YET",
]


@pytest.mark.parametrize("reason", FINISH_REASONS)
def test_every_finish_reason_ends_the_stream_spelled_as_the_vendor_spelled_it(reason: str) -> None:
    grammar = GeminiGrammar()
    grammar.feed(chunk(text("cut")), 0)
    finished = [grammar.finished]
    grammar.feed(chunk(finish=reason, finishMessage=f"stopped: {reason}"), 1)
    finished.append(grammar.finished)

    assert finished == [False, True]
    candidate = grammar.end(2).candidates[0]
    assert (candidate.finish_reason, candidate.finish_message) == (reason, f"stopped: {reason}")


def test_usage_keeps_every_count_and_detail_the_vendor_sent() -> None:
    sent = {
        "promptTokenCount": 120,
        "candidatesTokenCount": 30,
        "totalTokenCount": 215,
        "thoughtsTokenCount": 40,
        "cachedContentTokenCount": 100,
        "toolUsePromptTokenCount": 25,
        "promptTokensDetails": [
            {"modality": "TEXT", "tokenCount": 100},
            {"modality": "IMAGE", "tokenCount": 20},
        ],
        "candidatesTokensDetails": [{"modality": "TEXT", "tokenCount": 30}],
        "cacheTokensDetails": [{"modality": "TEXT"}],
        "toolUsePromptTokensDetails": [],
        "trafficType": "ON_DEMAND",
        "serviceTier": "standard",
    }

    found = result_of([chunk(text("x"), finish="STOP", counts=sent)]).usage

    assert found == GeminiUsage(
        prompt_token_count=120,
        candidates_token_count=30,
        total_token_count=215,
        thoughts_token_count=40,
        cached_content_token_count=100,
        tool_use_prompt_token_count=25,
        prompt_tokens_details=(
            GeminiModalityCount("TEXT", 100),
            GeminiModalityCount("IMAGE", 20),
        ),
        candidates_tokens_details=(GeminiModalityCount("TEXT", 30),),
        cache_tokens_details=(GeminiModalityCount("TEXT", None),),
        tool_use_prompt_tokens_details=(),
        traffic_type="ON_DEMAND",
    )


def test_a_count_the_vendor_left_out_is_none_never_zero_and_the_last_usage_counts() -> None:
    events = [
        chunk(text("a"), counts=usage(100, 50, 9)),
        chunk(finish="STOP", counts={"promptTokenCount": 3}),
    ]

    found = result_of(events).usage

    assert found is not None
    assert (found.prompt_token_count, found.candidates_token_count) == (3, None)
    assert (found.thoughts_token_count, found.total_token_count) == (None, None)
    assert found.prompt_tokens_details is None


def test_a_body_without_usage_or_ids_is_on_the_grammar() -> None:
    bare = {"candidates": [{"content": {"parts": [{"text": "hi"}]}, "finishReason": "STOP"}]}

    found = result_of([event(bare)])

    assert (found.response_id, found.model_version, found.create_time) == (None, None, None)
    assert found.usage is None
    assert found.candidates[0].parts == (GeminiText("hi", False, None),)


def test_the_response_names_are_kept_as_the_chunks_gave_them() -> None:
    first = json.loads(chunk(text("a")).data)
    first["createTime"] = "2026-05-04T20:01:02.264968Z"
    first["modelStatus"] = {"modelStage": "PREVIEW"}
    events = [event(first), chunk(finish="STOP")]

    found = result_of(events)

    assert (found.response_id, found.model_version, found.create_time) == (
        RESPONSE_ID,
        "gemini-test",
        "2026-05-04T20:01:02.264968Z",
    )
    assert found.model_status == frozen({"modelStage": "PREVIEW"})


def test_a_candidates_metadata_is_kept_one_value_per_chunk_that_sent_it() -> None:
    ratings = [{"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "NEGLIGIBLE"}]
    citations = {"citationSources": [{"startIndex": 0, "endIndex": 3, "uri": "https://a"}]}
    grounding = {"webSearchQueries": ["sum"], "groundingChunks": [{"web": {"uri": "https://a"}}]}
    url_context = {"urlMetadata": [{"retrievedUrl": "https://a"}]}
    logprobs = {"chosenCandidates": [{"token": "a", "logProbability": -0.5}]}
    events = [
        chunk(text("a"), safetyRatings=ratings, citationMetadata=citations, tokenCount=1),
        chunk(
            text("b"),
            finish="STOP",
            safetyRatings=ratings,
            groundingMetadata=grounding,
            urlContextMetadata=url_context,
            logprobsResult=logprobs,
            avgLogprobs=-0.25,
            tokenCount=2,
        ),
    ]

    candidate = only_candidate(events)

    assert candidate.safety_ratings == ((frozen(ratings[0]),), (frozen(ratings[0]),))
    assert candidate.citation_metadata == (frozen(citations),)
    assert candidate.grounding_metadata == (frozen(grounding),)
    assert candidate.url_context_metadata == (frozen(url_context),)
    assert candidate.logprobs_result == (frozen(logprobs),)
    assert (candidate.avg_logprobs, candidate.token_count) == (-0.25, 2)
    assert hash(candidate) == hash(only_candidate(events))


def test_a_blocked_prompt_ends_the_stream_with_its_feedback() -> None:
    ratings = [{"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "HIGH"}]
    feedback = {"blockReason": "SAFETY", "blockReasonMessage": "no", "safetyRatings": ratings}

    found = result_of([event({"promptFeedback": feedback, "usageMetadata": usage(5, None)})])

    assert found.prompt_feedback == GeminiPromptFeedback("SAFETY", "no", (frozen(ratings[0]),))
    assert found.candidates == ()


def test_feedback_without_a_block_reason_is_only_feedback() -> None:
    first = json.loads(chunk(text("a")).data)
    first["promptFeedback"] = {"safetyRatings": []}

    found = result_of([event(first), chunk(finish="STOP")])

    assert found.prompt_feedback == GeminiPromptFeedback(None, None, ())


def test_the_vendors_error_object_ends_the_stream_and_the_result_says_it() -> None:
    details = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "QUOTA"}]
    error = {"error": {"code": 429, "message": "slow down", "status": "RESOURCE_EXHAUSTED"}}
    error["error"]["details"] = details
    grammar = GeminiGrammar()
    grammar.feed(chunk(text("First ")), 0)
    grammar.feed(raw(json.dumps(error, indent=2)), 1)

    assert grammar.finished
    found = grammar.end(2)
    assert found.error == GeminiStreamError(
        429, "RESOURCE_EXHAUSTED", "slow down", "QUOTA", (frozen(details[0]),)
    )
    assert grammar.error is found.error
    assert found.candidates[0].parts == (GeminiText("First ", False, None),)


def test_two_candidates_stream_side_by_side_and_the_end_waits_for_both() -> None:
    def pair(first: dict[str, Any], second: dict[str, Any]) -> SseEvent:
        return event({"candidates": [first, second], "usageMetadata": usage()})

    grammar = GeminiGrammar()
    grammar.feed(pair({"content": {"parts": [{"text": "A"}]}}, {"index": 1, "content": {}}), 0)
    grammar.feed(
        pair(
            {"index": 1, "content": {"parts": [{"text": "B"}]}, "finishReason": "STOP"},
            {"content": {"parts": [{"text": "a"}]}},
        ),
        1,
    )
    finished = [grammar.finished]
    grammar.feed(event({"candidates": [{"finishReason": "MAX_TOKENS"}]}), 2)
    finished.append(grammar.finished)

    assert finished == [False, True]
    first, second = grammar.end(3).candidates
    assert (first.index, first.parts, first.finish_reason) == (
        0,
        (GeminiText("Aa", False, None),),
        "MAX_TOKENS",
    )
    assert (second.index, second.parts, second.finish_reason) == (
        1,
        (GeminiText("B", False, None),),
        "STOP",
    )


def test_a_chunk_with_no_candidates_is_on_the_grammar_and_ends_nothing() -> None:
    grammar = GeminiGrammar()
    grammar.feed(event({"usageMetadata": usage(3, 1), "responseId": RESPONSE_ID}), 0)
    grammar.feed(event({"candidates": []}), 1)

    assert not grammar.finished
    with pytest.raises(VendorError) as missing:
        grammar.end(2)
    assert (missing.value.code, missing.value.event_index) == (C.VENDOR_MISSING_TERMINAL, 2)


DEEP: Any = {}
for _ in range(80):
    DEEP = {"a": DEEP}


def _with(**fields: Any) -> SseEvent:
    data = json.loads(chunk(text("x")).data)
    data.update(fields)
    return event(data)


def _call_with(**fields: Any) -> dict[str, Any]:
    return {"functionCall": {"name": "f", **fields}}


def _candidate(**fields: Any) -> SseEvent:
    return event({"candidates": [{"content": {"parts": [{"text": "x"}]}, **fields}]})


OFF_GRAMMAR = {
    "not JSON": ([raw("{not json")], C.VENDOR_INVALID_EVENT, 0),
    "an array": ([raw("[1]")], C.VENDOR_INVALID_EVENT, 0),
    "a named event": ([raw("{}", name="message_start")], C.VENDOR_INVALID_EVENT, 0),
    "a chunk after the end": (
        [chunk(text("a"), finish="STOP"), chunk(text("b"))],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "an error after the end": (
        [chunk(text("a"), finish="STOP"), raw(error_object())],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "a second error": ([raw(error_object()), raw(error_object())], C.VENDOR_EVENT_ORDER, 1),
    "candidates not an array": ([raw('{"candidates": {"0": {}}}')], C.VENDOR_INVALID_EVENT, 0),
    "a candidate not an object": ([raw('{"candidates": ["text"]}')], C.VENDOR_INVALID_EVENT, 0),
    "a negative index": ([_candidate(index=-1)], C.VENDOR_INVALID_EVENT, 0),
    "a boolean index": ([_candidate(index=True)], C.VENDOR_INVALID_EVENT, 0),
    "a float index": ([_candidate(index=0.0)], C.VENDOR_INVALID_EVENT, 0),
    "an index past int32": ([_candidate(index=2**31)], C.VENDOR_INVALID_EVENT, 0),
    "one index twice": ([raw('{"candidates": [{}, {"index": 0}]}')], C.VENDOR_INVALID_EVENT, 0),
    "a finished candidate again": (
        [
            event({"candidates": [{"finishReason": "STOP"}, {"index": 1}]}),
            event({"candidates": [{"content": {"parts": [{"text": "more"}]}}]}),
        ],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "content not an object": ([_candidate(content=[])], C.VENDOR_INVALID_EVENT, 0),
    "a user role": (
        [raw('{"candidates": [{"content": {"role": "user"}}]}')],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "parts not an array": (
        [raw('{"candidates": [{"content": {"parts": {"0": {}}}}]}')],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a part not an object": ([chunk("text")], C.VENDOR_INVALID_EVENT, 0),  # type: ignore[arg-type]
    "an unknown part kind": ([chunk({"hologram": {}})], C.VENDOR_UNKNOWN_EVENT, 0),
    "two kinds in one part": (
        [chunk({"text": "a", "functionCall": {"name": "f"}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "text not a string": ([chunk({"text": 3})], C.VENDOR_INVALID_EVENT, 0),
    "thought not a boolean": ([chunk({"text": "a", "thought": "yes"})], C.VENDOR_INVALID_EVENT, 0),
    "a signature not a string": (
        [chunk({"text": "a", "thoughtSignature": 1})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "videoMetadata not an object": (
        [chunk({"text": "a", "videoMetadata": "1s"})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "inline data not an object": ([chunk({"inlineData": "AA=="})], C.VENDOR_INVALID_EVENT, 0),
    "inline data without its media type": (
        [chunk({"inlineData": {"data": "AA=="}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "file data without its uri": (
        [chunk({"fileData": {"mimeType": "video/mp4"}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "code without its language": (
        [chunk({"executableCode": {"code": "1"}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a code result without its outcome": (
        [chunk({"codeExecutionResult": {"output": "1"}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a function response with a blank name": (
        [chunk({"functionResponse": {"name": " ", "response": {}}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a server tool call with a blank id": (
        [chunk({"toolCall": {"id": "\u3000"}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a server tool response that is not an object": (
        [chunk({"toolResponse": {"response": []}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "an opaque payload nested too deep": (
        [chunk({"toolCall": {"args": DEEP}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a call's arguments not an object": (
        [chunk(call("f", [1, 2]))],
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        0,
    ),
    "a call's arguments as text": ([chunk(call("f", "{}"))], C.VENDOR_INVALID_TOOL_ARGUMENTS, 0),
    "a call's arguments nested too deep": (
        [chunk(call("f", DEEP))],
        C.VENDOR_INVALID_TOOL_ARGUMENTS,
        0,
    ),
    "a blank call name": ([chunk(call(""))], C.VENDOR_INVALID_EVENT, 0),
    "a call name that is not text": ([chunk(_call_with(name=7))], C.VENDOR_INVALID_EVENT, 0),
    "a blank call id": ([chunk(_call_with(id="\u00a0"))], C.VENDOR_INVALID_EVENT, 0),
    "a call id that is not text": ([chunk(_call_with(id=1))], C.VENDOR_INVALID_EVENT, 0),
    "one call id twice": (
        [chunk(_call_with(id="c-1")), chunk(_call_with(id="c-1"))],
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "an unknown call field": (
        [chunk({"functionCall": {"name": "f", "arguments": {}}})],
        C.VENDOR_UNKNOWN_EVENT,
        0,
    ),
    "a changed responseId": (
        [chunk(text("a")), chunk(finish="STOP", response_id="other")],
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a blank responseId": ([chunk(text("a"), response_id="\ufeff")], C.VENDOR_INVALID_EVENT, 0),
    "a responseId that is not text": ([_with(responseId=12)], C.VENDOR_INVALID_EVENT, 0),
    "a changed modelVersion": (
        [chunk(text("a")), _with(modelVersion="gemini-other")],
        C.VENDOR_INVALID_EVENT,
        1,
    ),
    "a createTime that is not text": ([_with(createTime=1)], C.VENDOR_INVALID_EVENT, 0),
    "modelStatus not an object": ([_with(modelStatus="PREVIEW")], C.VENDOR_INVALID_EVENT, 0),
    "usage not an object": ([_with(usageMetadata=[])], C.VENDOR_INVALID_EVENT, 0),
    "a negative count": (
        [chunk(text("a"), counts={"promptTokenCount": -1})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a boolean count": (
        [chunk(text("a"), counts={"cachedContentTokenCount": True})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a count past 2**53 - 1": (
        [chunk(text("a"), counts={"toolUsePromptTokenCount": 2**53})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a float count": (
        [chunk(text("a"), counts={"totalTokenCount": 1.5})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "details not an array": (
        [chunk(text("a"), counts={"promptTokensDetails": {}})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a detail that is not an object": (
        [chunk(text("a"), counts={"cacheTokensDetails": ["TEXT"]})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a detail's count as text": (
        [chunk(text("a"), counts={"candidatesTokensDetails": [{"tokenCount": "3"}]})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a detail's modality that is not text": (
        [chunk(text("a"), counts={"toolUsePromptTokensDetails": [{"modality": 1}]})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a traffic type that is not text": (
        [chunk(text("a"), counts={"trafficType": 2})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "feedback not an object": ([raw('{"promptFeedback": []}')], C.VENDOR_INVALID_EVENT, 0),
    "a blank block reason": (
        [raw('{"promptFeedback": {"blockReason": " "}}')],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a block reason message that is not text": (
        [raw('{"promptFeedback": {"blockReason": "SAFETY", "blockReasonMessage": 1}}')],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "feedback ratings not an array": (
        [raw('{"promptFeedback": {"safetyRatings": {}}}')],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a blocked prompt with candidates": (
        [_with(promptFeedback={"blockReason": "SAFETY"})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a prompt blocked after candidates came": (
        [chunk(text("a")), raw('{"promptFeedback": {"blockReason": "SAFETY"}}')],
        C.VENDOR_EVENT_ORDER,
        1,
    ),
    "an error without its message": (
        [raw(json.dumps({"error": {"code": 500}}))],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "an error with a blank status": (
        [raw(json.dumps({"error": {"message": "m", "status": "\t"}}))],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "an error code that is not an integer": (
        [raw(json.dumps({"error": {"message": "m", "code": "499"}}))],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "error details that are not an array": (
        [raw(json.dumps({"error": {"message": "m", "details": {}}}))],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "an error that is not an object": ([raw('{"error": "boom"}')], C.VENDOR_INVALID_EVENT, 0),
    "a blank finish reason": ([chunk(text("a"), finish="")], C.VENDOR_INVALID_EVENT, 0),
    "a finish reason that is not text": ([_candidate(finishReason=1)], C.VENDOR_INVALID_EVENT, 0),
    "a finish message that is not text": (
        [_candidate(finishReason="STOP", finishMessage=[])],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "a negative token count": ([_candidate(tokenCount=-1)], C.VENDOR_INVALID_EVENT, 0),
    "average log probabilities as text": (
        [_candidate(avgLogprobs="-1")],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "safety ratings that are not an array": (
        [_candidate(safetyRatings={})],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "grounding that is not an object": (
        [_candidate(groundingMetadata=[])],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "citations nested too deep": ([_candidate(citationMetadata=DEEP)], C.VENDOR_INVALID_EVENT, 0),
    "log probabilities that are not an object": (
        [_candidate(logprobsResult=1)],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "url context that is not an object": (
        [_candidate(urlContextMetadata="x")],
        C.VENDOR_INVALID_EVENT,
        0,
    ),
    "no finish at all": ([chunk(text("a")), chunk(text("b"))], C.VENDOR_MISSING_TERMINAL, 2),
}


@pytest.mark.parametrize(("events", "code", "index"), OFF_GRAMMAR.values(), ids=OFF_GRAMMAR)
def test_a_chunk_off_the_grammar_fails_at_its_event_with_its_code(
    events: list[SseEvent], code: VendorErrorCode, index: int
) -> None:
    error = failure_of(events)

    assert (error.code, error.event_index) == (code, index)
    if code is not C.VENDOR_MISSING_TERMINAL:
        assert error.message.startswith(f"event {index}: ")


def test_an_unknown_kind_names_itself_as_the_vendor_type() -> None:
    error = failure_of([chunk({"hologram": {}})])

    assert (error.code, error.vendor_type) == (C.VENDOR_UNKNOWN_EVENT, "hologram")
    assert "'hologram', which is not a known kind of part" in error.message


def test_blank_is_the_workspaces_one_rule_not_str_strip() -> None:
    # U+001C is white space to str.strip, not to ECMAScript's trim: not blank.
    found = result_of([chunk(text("a"), finish="STOP", response_id="\x1c")])

    assert found.response_id == "\x1c"
    for blank in ("", " ", "\u00a0", "\ufeff", "\u2028"):
        error = failure_of([chunk(text("a"), response_id=blank)])
        assert "responseId must be a non-blank string, got blank text" in error.message


def test_the_grammar_is_spent_after_its_first_error() -> None:
    grammar = GeminiGrammar()
    grammar.feed(chunk(text("a")), 0)
    with pytest.raises(VendorError) as first:
        grammar.feed(chunk({"text": 3}), 1)

    with pytest.raises(VendorError) as again:
        grammar.feed(chunk(finish="STOP"), 2)
    with pytest.raises(VendorError) as at_end:
        grammar.end(3)
    assert again.value is first.value is at_end.value is grammar.failure
    assert not grammar.finished


BODIES = {
    "text": [chunk(text("Hel")), chunk(text("lo"), finish="STOP")],
    "thoughts and a call": [
        chunk(thought("hmm"), counts=usage(3, None, 4)),
        chunk(call("add", {"left": 1}, thoughtSignature="c2ln"), finish="STOP"),
    ],
    "media and code": [
        chunk({"executableCode": {"language": "PYTHON", "code": "1"}}),
        chunk({"inlineData": {"mimeType": "image/png", "data": "AA=="}}, finish="STOP"),
    ],
    "a blocked prompt": [raw('{"promptFeedback": {"blockReason": "OTHER"}}')],
    "an error mid-stream": [chunk(text("a")), raw(error_object())],
    "off the grammar": [chunk(text("a")), chunk({"hologram": {}})],
    "cut short": [chunk(text("a"))],
}


@pytest.mark.parametrize("events", BODIES.values(), ids=BODIES)
@pytest.mark.parametrize("framing", [sse, json_array], ids=["sse", "array"])
def test_the_fold_frame_by_frame_agrees_with_judging_the_body(
    events: list[SseEvent], framing: Any
) -> None:
    folded = judged(events)

    verdict = judge_body(GEMINI_PLUGIN, framing(events))

    match verdict:
        case Success(found):
            assert found == folded
        case Failure(error):
            assert isinstance(folded, VendorError)
            assert (error.code, error.event_index, error.message) == (
                folded.code,
                folded.event_index,
                folded.message,
            )


def test_the_plugin_judges_with_this_grammar() -> None:
    assert GEMINI_PLUGIN.grammar is GeminiGrammar


GRAMMAR_SIDE = (
    "_grammar",
    "_result",
    "_candidate",
    "_parts",
    "_streamed_call",
    "_usage",
    "_errors",
    "_reads",
)
PORT_MODULES = ("_messages", "_blocks", "_chunks", "_response", "_port", "_transcript")


def _defined(module: Path) -> set[str]:
    tree = ast.parse(module.read_text())
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(target.id for target in targets if isinstance(target, ast.Name))
    return names


def test_the_grammar_side_imports_no_port_type() -> None:
    port = set().union(
        *(_defined(PROTOCOL / "course_protocol" / f"{name}.py") for name in PORT_MODULES)
    )
    assert {"CourseToolCall", "CourseModelResponse", "CourseModel"} <= port
    offenders = []
    for name in GRAMMAR_SIDE:
        tree = ast.parse((PACKAGE / "course_provider_gemini" / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                module = node.module
                imported = {alias.name for alias in node.names}
                if module.startswith("course_stream") or (
                    module.startswith("course_protocol") and imported & port
                ):
                    offenders.append(f"{name}: from {module} import {sorted(imported)}")
                if module in ("course_provider_gemini._mapping", "course_provider_gemini._stop"):
                    offenders.append(f"{name}: from {module}")
            elif isinstance(node, ast.Import):
                offenders.extend(
                    f"{name}: import {alias.name}"
                    for alias in node.names
                    if alias.name.startswith(("course_stream", "course_protocol."))
                )
    assert offenders == []


STREAM = "/v1beta/models/gemini-test:streamGenerateContent"
SSE_HEADERS = {"content-type": "text/event-stream"}


def test_a_recording_cut_short_is_judged_up_to_the_cut_never_at_the_frame_it_tore() -> None:
    torn = b'data: {"candidates": [{"content": {"par'
    good = sse([chunk(text("a")), chunk(text("b"))]) + torn
    bad = sse([chunk(text("a")), raw("{not json")]) + torn

    assert (
        recorded_stream_problem(STREAM, RecordedResponse(200, SSE_HEADERS, good, end="interrupted"))
        is None
    )
    before_the_cut = recorded_stream_problem(
        STREAM, RecordedResponse(200, SSE_HEADERS, bad, end="stalled")
    )
    assert before_the_cut is not None
    assert (before_the_cut.code, before_the_cut.event_index) == (C.VENDOR_INVALID_EVENT, 1)
    ended_torn = recorded_stream_problem(STREAM, RecordedResponse(200, SSE_HEADERS, good))
    assert ended_torn is not None
    assert (ended_torn.code, ended_torn.event_index) == (C.VENDOR_INVALID_EVENT, 2)
    assert ended_torn.message.startswith("judged on gemini: event 2: ")
