"""ChatGrammar: each kind the Chat Completions stream documents, read into its result.

Every body here is our own, one per kind: text, refusal, function and
custom Tool calls, the deprecated ``function_call``, audio, log
probabilities, several choices, every finish reason, usage with every count
and without its details, moderation, the vendor's error, and the optional
parts left out (the usage chunk, ``[DONE]``). Each is read twice, by the
fold frame by frame and by `judge_body` from its bytes, and both must give
the same result (`read`). The result is frozen all the way down, and the
grammar's modules import nothing of the course port.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

import course_provider_openai
from course_http import SseEvent
from course_protocol import JsonObject, freeze_json_object, thaw_json
from course_provider_openai import (
    CHAT_PLUGIN,
    ChatAudio,
    ChatChoice,
    ChatFunctionCall,
    ChatGrammar,
    ChatResult,
    ChatStreamError,
    ChatTokenLogprob,
    ChatToolCall,
    ChatUsage,
)
from course_vendor import StreamJudge
from tests.course_provider_openai.bodies import (
    CHAT_ID,
    DONE,
    chat_events,
    chat_text_stream,
    chunk,
    finish,
    text,
    tool_arguments,
    tool_start,
    usage,
)
from tests.course_provider_openai.chat_grammar import folded, read
from tests.course_vendor.wire import sse_bytes

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR_MODULES = (
    "_chat_grammar",
    "_chat_result",
    "_chat_envelope",
    "_chat_choice",
    "_chat_tool_calls",
    "_chat_audio",
    "_chat_reads",
)
FULL_USAGE = {
    "prompt_tokens": 75,
    "completion_tokens": 53,
    "total_tokens": 128,
    "prompt_tokens_details": {"cached_tokens": 64, "audio_tokens": 2},
    "completion_tokens_details": {
        "reasoning_tokens": 30,
        "audio_tokens": 3,
        "accepted_prediction_tokens": 4,
        "rejected_prediction_tokens": 5,
    },
}


def frozen(value: dict[str, Any]) -> JsonObject:
    return freeze_json_object(value).unwrap()


def only_choice(result: ChatResult) -> ChatChoice:
    [choice] = result.choices
    return choice


def custom_start(index: int, call_id: str, name: str) -> dict[str, Any]:
    fragment = {"index": index, "id": call_id, "type": "custom", "custom": {"name": name}}
    return chunk({"tool_calls": [fragment]})


def custom_input(index: int, piece: str) -> dict[str, Any]:
    return chunk({"tool_calls": [{"index": index, "custom": {"input": piece}}]})


def test_a_text_answer_keeps_its_joined_text_the_chunks_shared_fields_and_the_end() -> None:
    envelope = {
        "created": 1766084435,
        "system_fingerprint": "fp_deacdd5f6f",
        "service_tier": "default",
    }
    result = read(
        chunk({"role": "assistant", "content": "", "refusal": None}, **envelope),
        text("The sum", obfuscation="nYdS", **envelope),
        text(" is 42.", obfuscation="", **envelope),
        chunk({}, finish_reason="stop", **envelope),
        chunk(None, usage=FULL_USAGE, **envelope),
        DONE,
    )

    assert (result.id, result.model, result.created) == (CHAT_ID, "gpt-own", 1766084435)
    assert (result.system_fingerprint, result.service_tier) == ("fp_deacdd5f6f", "default")
    assert only_choice(result) == ChatChoice(
        0, "assistant", "The sum is 42.", "", (), None, None, None, None, "stop"
    )
    assert result.usage == ChatUsage(128 - 53, 53, 128, 64, 2, 30, 3, 4, 5)
    assert (result.moderations, result.error, result.done) == ((), None, True)


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({}, ChatUsage(12, 7, 19)),
        (
            {"prompt_tokens_details": None, "completion_tokens_details": None},
            ChatUsage(12, 7, 19),
        ),
        (
            {"completion_tokens_details": {"reasoning_tokens": 0}},
            ChatUsage(12, 7, 19, reasoning_tokens=0),
        ),
        (
            {"prompt_tokens_details": {"cached_tokens": None, "audio_tokens": 0}},
            ChatUsage(12, 7, 19, prompt_audio_tokens=0),
        ),
    ],
    ids=["no-details", "null-details", "one-detail", "null-and-zero"],
)
def test_a_count_the_usage_chunk_leaves_out_is_none_never_zero(
    counts: dict[str, object], expected: ChatUsage
) -> None:
    whole = {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19, **counts}

    result = read(text("a"), finish("stop"), chunk(None, usage=whole), DONE)

    assert result.usage == expected


def test_the_usage_chunk_and_done_are_optional_and_the_result_says_which_came() -> None:
    without_usage = read(text("a"), finish("stop"), DONE)
    without_done = read(text("a"), finish("stop"), usage())
    without_both = read(text("a"), finish("stop"))

    assert (without_usage.usage, without_usage.done) == (None, True)
    assert (without_done.usage, without_done.done) == (ChatUsage(12, 7, 19), False)
    assert (without_both.usage, without_both.done) == (None, False)
    assert only_choice(without_both).content == "a"


def test_usage_null_on_every_other_chunk_is_the_same_as_no_usage_key() -> None:
    absent = read(text("a"), finish("stop"), usage(), DONE)
    null = read(text("a", usage=None), chunk({}, finish_reason="stop", usage=None), usage(), DONE)

    assert absent == null


def test_parallel_function_calls_are_kept_in_index_order_with_their_arguments_parsed() -> None:
    result = read(
        chunk({"role": "assistant", "content": None}),
        tool_start(0, "call_a", "lookup"),
        tool_arguments(0, '{"pa'),
        tool_start(1, "call_b", "other", "{"),
        tool_arguments(1, '"x": [1, 2]}'),
        tool_arguments(0, 'ss": "mel\\"lon"}'),
        finish("tool_calls"),
        usage(),
        DONE,
    )

    assert only_choice(result).tool_calls == (
        ChatToolCall(
            0, "call_a", "function", "lookup", '{"pass": "mel\\"lon"}', frozen({"pass": 'mel"lon'})
        ),
        ChatToolCall(1, "call_b", "function", "other", '{"x": [1, 2]}', frozen({"x": [1, 2]})),
    )


def test_a_call_that_streams_no_arguments_means_an_empty_object() -> None:
    start = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "now"}}
    first = chunk({"role": "assistant", "content": None, "refusal": None, "tool_calls": [start]})

    result = read(first, finish("tool_calls"))

    assert only_choice(result).tool_calls == (
        ChatToolCall(0, "call_1", "function", "now", "", frozen({})),
    )


def test_a_call_whose_start_leaves_out_its_type_is_a_function_call() -> None:
    untyped = {"index": 0, "id": "call_1", "function": {"name": "now", "arguments": "{}"}}

    result = read(chunk({"tool_calls": [untyped]}), finish("tool_calls"))

    assert only_choice(result).tool_calls[0].type == "function"


def test_a_custom_tool_call_keeps_its_joined_input_as_text() -> None:
    result = read(
        custom_start(0, "call_c", "grep"),
        custom_input(0, "needle "),
        custom_input(0, "in haystack"),
        finish("tool_calls"),
    )

    assert only_choice(result).tool_calls == (
        ChatToolCall(0, "call_c", "custom", "grep", "needle in haystack", None),
    )


def test_the_deprecated_function_call_is_kept_with_its_arguments_parsed() -> None:
    result = read(
        chunk(
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "add", "arguments": ""},
            }
        ),
        chunk({"function_call": {"arguments": '{"a": '}}),
        chunk({"function_call": {"arguments": "1}"}}),
        finish("function_call"),
        usage(),
        DONE,
    )

    choice = only_choice(result)
    assert choice.function_call == ChatFunctionCall("add", '{"a": 1}', frozen({"a": 1}))
    assert (choice.tool_calls, choice.finish_reason) == ((), "function_call")


def test_a_refusal_is_kept_as_its_joined_text_beside_the_empty_content() -> None:
    result = read(
        chunk({"role": "assistant", "content": None, "refusal": ""}),
        chunk({"refusal": "I can't"}),
        chunk({"refusal": " help with that."}),
        finish("stop"),
        usage(),
        DONE,
    )

    choice = only_choice(result)
    assert (choice.content, choice.refusal, choice.finish_reason) == (
        "",
        "I can't help with that.",
        "stop",
    )


def test_log_probabilities_of_content_and_refusal_are_kept_token_by_token() -> None:
    top = {"token": "Hi", "logprob": -0.01, "bytes": [72, 105]}
    entry = {**top, "top_logprobs": [top, {"token": "Hey", "logprob": -5, "bytes": None}]}
    refusal_entry = {"token": "No", "logprob": -1.5, "bytes": [78, 111], "top_logprobs": []}

    result = read(
        chunk({"content": "Hi"}, logprobs={"content": [entry], "refusal": None}),
        chunk({"content": "!"}, logprobs={"content": [], "refusal": [refusal_entry]}),
        chunk({"content": ""}, logprobs=None),
        finish("stop"),
    )

    choice = only_choice(result)
    hi = ChatTokenLogprob("Hi", -0.01, (72, 105), ())
    assert choice.content_logprobs == (
        ChatTokenLogprob("Hi", -0.01, (72, 105), (hi, ChatTokenLogprob("Hey", -5.0, None, ()))),
    )
    assert choice.refusal_logprobs == (ChatTokenLogprob("No", -1.5, (78, 111), ()),)


def test_a_choice_without_log_probabilities_has_none_not_an_empty_tuple() -> None:
    choice = only_choice(read(text("a", logprobs=None), finish("stop")))

    assert (choice.content_logprobs, choice.refusal_logprobs) == (None, None)


def test_audio_output_ends_its_choice_at_its_expires_at_as_openai_streams_it() -> None:
    # The order gpt-4o-audio-preview streams: a transcript piece before the role.
    result = read(
        chunk({"audio": {"transcript": "Hel"}}),
        chunk(
            {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "audio": {"id": "audio_1", "data": "CAAI"},
            }
        ),
        chunk({"audio": {"data": "AAkA", "transcript": "lo!"}}),
        chunk({"audio": {"expires_at": 1730768595}}),
        usage(),
        DONE,
    )

    assert only_choice(result) == ChatChoice(
        0,
        "assistant",
        "",
        "",
        (),
        None,
        ChatAudio("audio_1", "CAAIAAkA", "Hello!", 1730768595),
        None,
        None,
        None,
    )


def test_an_expired_audio_answer_may_still_get_its_finish() -> None:
    result = read(
        chunk(
            {"role": "assistant", "audio": {"id": "audio_1", "data": "CAAI", "transcript": "Hi"}}
        ),
        chunk({"audio": {"expires_at": 1730768595}}),
        chunk({"role": "assistant", "content": None}, finish_reason="stop"),
    )

    assert only_choice(result).finish_reason == "stop"


def test_several_choices_interleave_each_in_its_own_result() -> None:
    opening = chunk({"role": "assistant", "content": ""})
    opening["choices"].append({"index": 1, "delta": {"role": "assistant", "content": ""}})
    call = tool_start(0, "call_x", "f", "{}")
    call["choices"][0]["index"] = 1

    result = read(
        opening,
        text("Yes", choice_index=1),
        text("No", choice_index=0),
        call,
        finish("stop", choice_index=0),
        finish("tool_calls", choice_index=1),
        usage(),
        DONE,
    )

    first, second = result.choices
    assert (first.index, first.content, first.finish_reason) == (0, "No", "stop")
    assert (second.index, second.content, second.finish_reason) == (1, "Yes", "tool_calls")
    assert second.tool_calls == (ChatToolCall(0, "call_x", "function", "f", "{}", frozen({})),)


@pytest.mark.parametrize(
    "reason", ["stop", "length", "tool_calls", "content_filter", "function_call"]
)
def test_every_documented_finish_reason_ends_a_choice(reason: str) -> None:
    assert only_choice(read(text("a"), finish(reason), usage(), DONE)).finish_reason == reason


@pytest.mark.parametrize("reason", ["length", "content_filter"])
def test_arguments_cut_by_a_limit_are_kept_as_text_and_not_parsed(reason: str) -> None:
    result = read(tool_start(0, "call_1", "write", '{"text": "half'), finish(reason))

    [call] = only_choice(result).tool_calls
    assert (call.arguments, call.parsed_arguments) == ('{"text": "half', None)


@pytest.mark.parametrize("role", ["assistant", "developer", "system", "user", "tool"])
def test_every_role_the_reference_documents_for_a_delta_is_read(role: str) -> None:
    assert only_choice(read(chunk({"role": role, "content": "a"}), finish("stop"))).role == role


def test_a_moderation_chunk_is_kept_frozen_as_the_vendor_sent_it() -> None:
    results = {
        "type": "moderation_results",
        "model": "omni-moderation-latest",
        "results": [{"type": "moderation_result", "flagged": False, "categories": {"hate": False}}],
    }
    moderated = {"input": results, "output": {"type": "error", "code": "x", "message": "m"}}

    result = read(text("a"), finish("stop"), chunk(None, moderation=moderated), usage(), DONE)

    assert [thaw_json(value) for value in result.moderations] == [moderated]
    with pytest.raises(TypeError):
        result.moderations[0]["input"] = {}  # type: ignore[index]


@pytest.mark.parametrize("then_done", [False, True], ids=["alone", "then-done"])
def test_the_vendors_error_frame_ends_the_stream_and_the_result_says_it(then_done: bool) -> None:
    error = {
        "message": "Tool call validation failed",
        "type": "invalid_request_error",
        "code": "tool_use_failed",
    }
    events = [
        *chat_events(text("a")),
        SseEvent("error", '{"error": ' + repr(error).replace("'", '"') + "}"),
        *(chat_events(DONE) if then_done else []),
    ]

    result = folded(events)

    assert type(result) is ChatResult
    assert result.error == ChatStreamError(
        "invalid_request_error", "tool_use_failed", "Tool call validation failed"
    )
    assert only_choice(result).finish_reason is None
    assert result.done is then_done


def test_an_error_object_beside_the_choices_is_the_vendors_error_too() -> None:
    result = read(text("a"), text("", error={"code": 400, "message": "Token limit reached"}), DONE)

    assert result.error == ChatStreamError(None, "400", "Token limit reached")
    assert only_choice(result).content == "a", "the error chunk's own choices are not read"


def test_fields_openai_does_not_document_are_left_unread_as_the_sdk_leaves_them() -> None:
    plain = read(text("Hi"), finish("stop"), usage(), DONE)
    extended = read(
        chunk(
            {"content": "Hi", "reasoning": "thinking...", "channel": "analysis"},
            x_groq={"id": "req"},
        ),
        chunk({}, finish_reason="stop", native_finish_reason="stop"),
        chunk(
            None, usage={"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19, "cost": 0}
        ),
        DONE,
    )

    assert extended == plain


def test_finished_is_true_once_every_choice_ended_and_stays_true_through_the_optional_end() -> None:
    grammar = ChatGrammar()
    events = chat_text_stream("a")
    seen = []
    for index, event in enumerate(events):
        grammar.feed(event, index)
        seen.append(grammar.finished)

    assert seen == [False, False, True, True, True]


def test_a_second_choice_that_starts_clears_finished_until_it_ends() -> None:
    grammar = ChatGrammar()
    events = chat_events(
        text("a"), finish("stop"), text("b", choice_index=1), finish("stop", choice_index=1)
    )
    seen = []
    for index, event in enumerate(events):
        grammar.feed(event, index)
        seen.append(grammar.finished)

    assert seen == [False, True, False, True]


def test_the_choice_is_readable_from_its_finish_on_and_not_before() -> None:
    grammar = ChatGrammar()
    events = chat_text_stream("a", "b")
    closed = []
    for index, event in enumerate(events):
        grammar.feed(event, index)
        closed.append(grammar.choice(0))

    assert closed[:3] == [None, None, None]
    assert closed[3] is not None
    assert closed[3].content == "ab"
    assert closed[3] is closed[4] is grammar.end(len(events)).choices[0]
    assert grammar.choice(1) is None


@pytest.mark.parametrize(
    "events",
    [
        chat_text_stream("The sum", " is 42."),
        chat_events(tool_start(0, "c", "f", '{"a": [1, "x"]}'), finish("tool_calls"), usage()),
        chat_events(text("a"), text("b", choice_index=1), finish("stop"), finish("stop", 1), DONE),
    ],
    ids=["text", "tool", "two-choices"],
)
def test_judging_the_bytes_one_at_a_time_gives_the_result_of_the_fold(
    events: list[SseEvent],
) -> None:
    judge = StreamJudge(CHAT_PLUGIN)
    for byte in sse_bytes(events):
        assert judge.feed_bytes(bytes([byte])) is None

    assert judge.close() is None
    assert judge.result == folded(events)
    assert judge.finished


def test_the_result_is_frozen_all_the_way_down() -> None:
    result = read(
        chunk(
            {"role": "assistant", "content": "a"},
            logprobs={"content": [{"token": "a", "logprob": 0, "bytes": [97], "top_logprobs": []}]},
        ),
        tool_start(0, "c", "f", '{"list": [1, {"deep": true}]}'),
        finish("tool_calls"),
        usage(),
    )

    hash(result)  # every part is immutable, so the whole is hashable
    for value in (result, result.choices[0], result.choices[0].tool_calls[0], result.usage):
        assert dataclasses.is_dataclass(value)
        assert value is not None
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)
    arguments = result.choices[0].tool_calls[0].parsed_arguments
    assert arguments is not None
    with pytest.raises(TypeError):
        arguments["list"] = ()  # type: ignore[index]


def _imported_names(module: str) -> list[tuple[str, str]]:
    path = Path(course_provider_openai.__file__).parent / f"{module}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            names.extend((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            names.extend((alias.name, "") for alias in node.names)
    return names


def test_the_grammar_modules_import_nothing_of_the_course_port() -> None:
    port_names = {
        name
        for name in dir(__import__("course_protocol"))
        if name.startswith("Course") or name in {"text_from_assistant", "terminal_semantics_error"}
    }
    offenders = [
        f"{module}: {source}.{name}"
        for module in GRAMMAR_MODULES
        for source, name in _imported_names(module)
        if source.startswith("course_stream")
        or (source == "course_protocol" and name in port_names)
        or source
        in {"course_protocol._messages", "course_protocol._response", "course_protocol._port"}
    ]

    assert offenders == []
    contract = (ROOT / ".importlinter").read_text(encoding="utf-8")
    section = contract.split("[importlinter:contract:openai-chat-grammar-apart-from-the-port]")[1]
    section = section.split("[importlinter:")[0]
    for module in GRAMMAR_MODULES:
        assert f"course_provider_openai.{module}\n" in section, module
