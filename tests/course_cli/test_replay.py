"""``course replay``: byte-stable JSON Lines of chunks and responses; typed failures on stderr."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

from course_cli._recordings import play_recording
from course_protocol import (
    CourseModelUsage,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextDeltaChunk,
    CourseToolCall,
    CourseToolCallChunk,
    parse_chunk,
    parse_response,
)
from course_scripted import ScriptedModel, reply_tool_call
from course_vendor import VendorPlugin, VendorWire
from tests.course_cli.helpers import (
    END,
    GOLDEN,
    INVALID,
    ROUNDTRIP,
    START,
    TEXT,
    CourseRunner,
    write_fixture,
)


def test_replay_of_the_round_trip_matches_the_golden_file_byte_for_byte(
    course: CourseRunner,
) -> None:
    run = course("replay", ROUNDTRIP)
    assert run.status == 0
    assert run.err == ""
    assert run.out == (GOLDEN / "replay-roundtrip.jsonl").read_text(encoding="ascii")


def test_replay_output_is_identical_on_every_run(course: CourseRunner) -> None:
    first = course("replay", ROUNDTRIP)
    second = course("replay", ROUNDTRIP)
    assert first.out.encode() == second.out.encode()
    assert first.out.count("\n") == 4


def test_replay_prints_chunks_then_the_response_of_each_call_in_order(
    course: CourseRunner,
) -> None:
    lines = course("replay", ROUNDTRIP).out.splitlines()
    kinds = [
        ("chunk", value["type"]) if "type" in value else ("response", value["stopReason"])
        for value in map(json.loads, lines)
    ]
    assert kinds == [
        ("chunk", "toolCall"),
        ("response", "toolCall"),
        ("chunk", "textDelta"),
        ("response", "stop"),
    ]


def test_every_replayed_line_parses_back_as_course_json(course: CourseRunner) -> None:
    lines = course("replay", ROUNDTRIP).out.splitlines()
    tool_chunk = parse_chunk(json.loads(lines[0])).unwrap()
    assert isinstance(tool_chunk, CourseToolCallChunk)
    assert tool_chunk.tool_call.id == "call-add-001"
    assert parse_response(json.loads(lines[1])).unwrap().id == "response-tool-001"
    text_chunk = parse_chunk(json.loads(lines[2])).unwrap()
    assert isinstance(text_chunk, CourseTextDeltaChunk)
    assert text_chunk.delta == "The sum is 42."
    assert parse_response(json.loads(lines[3])).unwrap().message.id == "message-response-text-002"


def test_request_ids_are_the_prefix_and_the_call_number_from_one(course: CourseRunner) -> None:
    default = [
        json.loads(line)["requestId"] for line in course("replay", ROUNDTRIP).out.splitlines()
    ]
    assert default == ["replay-1", "replay-1", "replay-2", "replay-2"]
    run = course("replay", ROUNDTRIP, "--request-id", "ci run")
    chosen = [json.loads(line)["requestId"] for line in run.out.splitlines()]
    assert chosen == ["ci run-1", "ci run-1", "ci run-2", "ci run-2"]


def test_non_ascii_text_and_lone_surrogates_are_escaped_so_the_output_is_ascii(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = tmp_path / "unicode.json"
    path.write_text(
        '{"schemaVersion": 1, "responses": [{"records": ['
        + json.dumps(START)
        + ', {"type": "text_delta", "text": "caf\u00e9 \\ud800 \\n"}, '
        + json.dumps(END)
        + "]}]}",
        encoding="utf-8",
    )
    run = course("replay", path)
    assert run.status == 0
    assert run.out.isascii()
    assert '"delta":"caf\\u00e9 \\ud800 \\n"' in run.out
    assert len(run.out.splitlines()) == 2


def test_a_fixture_without_responses_prints_nothing_and_succeeds(
    course: CourseRunner, tmp_path: Path
) -> None:
    run = course("replay", write_fixture(tmp_path / "fixture.json"))
    assert (run.status, run.out, run.err) == (0, "", "")


def test_a_failure_keeps_the_lines_already_printed_and_reports_on_stderr(
    course: CourseRunner,
) -> None:
    path = INVALID / "PROVIDER_MISSING_TERMINAL.json"
    run = course("replay", path)
    assert run.status == 1
    [chunk] = run.out.splitlines()
    assert json.loads(chunk)["toolCall"]["id"] == "call-add-001"
    [error] = run.err.splitlines()
    assert error.startswith(f"{path}: response 0, record 2: PROVIDER_MISSING_TERMINAL: ")


def test_replay_stops_at_the_first_failed_response(course: CourseRunner, tmp_path: Path) -> None:
    bad = {"type": "mystery"}
    path = write_fixture(tmp_path / "fixture.json", [START, TEXT, END], [START, bad], [bad])
    run = course("replay", path)
    assert run.status == 1
    assert [json.loads(line)["requestId"] for line in run.out.splitlines()] == [
        "replay-1",
        "replay-1",
    ]
    # The message itself is the adapter's; the line's shape and position are ours.
    assert run.err.startswith(
        f"{path}: response 1, record 1: PROVIDER_UNKNOWN_EVENT: responses[1].records[1]"
    )
    assert "'mystery'" in run.err
    assert run.err.count("\n") == 1


def test_a_file_that_is_not_strict_json_is_a_typed_failure_without_positions(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = tmp_path / "dup.json"
    path.write_text('{"schemaVersion": 1, "schemaVersion": 1, "responses": []}', encoding="utf-8")
    run = course("replay", path)
    assert run.status == 1
    assert run.out == ""
    assert run.err.startswith(f"{path}: PROVIDER_INVALID_FIXTURE: ")
    assert "duplicate object key" in run.err
    assert run.err.count("\n") == 1


class PluginThatPlaysAScript:
    """Stands in for a wire whose mapping gives rich values: its model is a scripted turn."""

    # What play_recording reads of a wire besides its model: the body's framing.
    wire = VendorWire("scripted", "NO_KEY", "/scripted", lambda body: None)

    def __init__(self, model: ScriptedModel) -> None:
        self.model = model

    def replay_model(self, transport: object) -> ScriptedModel:
        return self.model


async def test_replay_prints_rich_chunks_and_responses_in_the_course_vocabulary(
    tmp_path: Path,
) -> None:
    signature = CourseOpaque("anthropic-messages", {"signature": "EqQB"})
    thinking = CourseReasoningBlock("Add them.", opaque=signature)
    usage = CourseModelUsage(input_tokens=50, output_tokens=20, cache_read_tokens=40)
    model = ScriptedModel(
        [
            reply_tool_call(
                "toolu_01",
                "add",
                {"left": 20},
                response_id="msg_01",
                message_id="m-1",
                usage=usage,
                reasoning=thinking,
            )
        ]
    )
    lines: list[str] = []
    body = tmp_path / "answer.sse"
    body.write_bytes(b"")

    problem = await play_recording(
        str(body), cast(VendorPlugin, PluginThatPlaysAScript(model)), "replay-1", lines.append
    )

    assert problem is None
    assert lines[0] == ('{"type":"reasoningDelta","requestId":"replay-1","delta":"Add them."}\n')
    response = json.loads(lines[2])
    assert response["message"]["content"][0] == {
        "type": "reasoning",
        "text": "Add them.",
        "opaque": {"wire": "anthropic-messages", "data": {"signature": "EqQB"}},
    }
    assert response["usage"] == {"inputTokens": 50, "outputTokens": 20, "cacheReadTokens": 40}
    assert len(lines) == 3
    assert parse_response(response).unwrap().message.content == (
        thinking,
        CourseToolCall("toolu_01", "add", {"left": 20}),
    )
