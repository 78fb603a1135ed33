"""``course replay|check --wire VENDOR``: recorded vendor bodies through the vendor's model.

The bodies are our own (``tests.course_vendor.wires``); the shared recordings
are checked at the end when ``../shared`` is present. Each file is one call
over an in-process recorded transport, printed in the same course JSON Lines
as a fixture's calls.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course_protocol import parse_chunk, parse_response
from course_vendor import load_vendor
from tests.course_cli.helpers import REPO, ROUNDTRIP, CourseRunner
from tests.course_vendor.wires import WIRES, Wire, every_wire

SHARED = REPO / ".." / "shared" / "provider-transcripts"


def write(tmp_path: Path, name: str, body: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(body)
    return path


def cut_before_terminal(wire: Wire) -> bytes:
    # Cut right after the last text: on every wire the terminal comes later (on Chat,
    # what follows the finish is optional, so the last event alone is not the terminal).
    events = wire.text_events("The sum ", "is 42.")
    last_text = next(index for index, event in enumerate(events) if "is 42." in event.data)
    return wire.framed(events[: last_text + 1])


@every_wire
def test_replay_prints_the_chunks_then_the_response_as_course_json_lines(
    wire: Wire, course: CourseRunner, tmp_path: Path
) -> None:
    path = write(tmp_path, "answer.sse", wire.text_body("The sum ", "is 42."))

    run = course("replay", "--wire", wire.name, path, "--request-id", "run")

    assert (run.status, run.err) == (0, "")
    lines = run.out.splitlines()
    assert [parse_chunk(json.loads(line)).unwrap().delta for line in lines[:2]] == [  # type: ignore[union-attr]
        "The sum ",
        "is 42.",
    ]
    response = parse_response(json.loads(lines[2])).unwrap()
    assert (response.request_id, response.message.content[0].text) == (  # type: ignore[union-attr]
        "run-1",
        "The sum is 42.",
    )
    assert len(lines) == 3
    assert course("replay", "--wire", wire.name, path, "--request-id", "run").out == run.out


@every_wire
def test_replay_of_a_tool_call_prints_the_call_with_the_providers_id(
    wire: Wire, course: CourseRunner, tmp_path: Path
) -> None:
    path = write(tmp_path, "tool.sse", wire.tool_body())

    run = course("replay", "--wire", wire.name, path)

    assert run.status == 0
    values = [json.loads(line) for line in run.out.splitlines()]
    calls = [value["toolCall"] for value in values if value.get("type") == "toolCall"]
    assert [(call["name"], call["arguments"]) for call in calls] == [
        ("add", {"left": 20, "right": 22})
    ]
    assert values[-1]["stopReason"] == "toolCall"
    assert values[-1]["requestId"] == "replay-1"


@every_wire
def test_a_typed_failure_keeps_the_lines_printed_and_reports_file_code_message(
    wire: Wire, course: CourseRunner, tmp_path: Path
) -> None:
    path = write(tmp_path, "cut.sse", cut_before_terminal(wire))

    run = course("replay", "--wire", wire.name, path)

    assert run.status == 1
    assert [json.loads(line)["delta"] for line in run.out.splitlines()] == ["The sum ", "is 42."]
    assert run.err.startswith(f"{path}: VENDOR_MISSING_TERMINAL: ")
    assert run.err.count("\n") == 1


@every_wire
def test_a_body_that_is_not_utf8_is_one_typed_failure(
    wire: Wire, course: CourseRunner, tmp_path: Path
) -> None:
    # Not UTF-8 to an SSE wire; to a binary one, a prelude whose CRC does not match.
    path = write(tmp_path, "torn.sse", b"data: \xff\xfe\n\n")

    run = course("replay", "--wire", wire.name, path)

    assert (run.status, run.out) == (1, "")
    assert run.err.startswith(f"{path}: VENDOR_INVALID_EVENT: event 0: ")
    assert run.err.count("\n") == 1


UNNAMED = [wire for wire in WIRES if not load_vendor(wire.name).named_events]


@pytest.mark.parametrize("wire", UNNAMED, ids=[wire.name for wire in UNNAMED])
def test_a_data_only_jsonl_recording_plays_as_unnamed_frames_on_the_openai_wires(
    wire: Wire, course: CourseRunner, tmp_path: Path
) -> None:
    lines = [event.data for event in wire.text_events("hi")]
    path = write(tmp_path, "answer.jsonl", ("\n".join(lines) + "\n\n").encode())

    run = course("replay", "--wire", wire.name, path)

    assert (run.status, run.err) == (0, "")
    assert json.loads(run.out.splitlines()[0])["delta"] == "hi"


def test_a_data_only_recording_is_refused_on_anthropic_whose_events_are_named(
    course: CourseRunner, tmp_path: Path
) -> None:
    wire = WIRES[0]
    lines = [event.data for event in wire.text_events("hi")]
    path = write(tmp_path, "answer.jsonl", "\n".join(lines).encode())

    run = course("replay", "--wire", wire.name, path)

    assert (run.status, run.out) == (2, "")
    assert f"{path}: a .jsonl file keeps only the data of each event" in run.err


@every_wire
@pytest.mark.parametrize("command", ["replay", "check"])
def test_a_json_file_is_refused_and_the_other_files_still_checked(
    wire: Wire, command: str, course: CourseRunner, tmp_path: Path
) -> None:
    good = write(tmp_path, "good.sse", wire.text_body("hi"))
    error = write(tmp_path, "error-401.json", wire.error_body("authentication_error", "bad key"))
    files = [error] if command == "replay" else [good, error]

    run = course(command, "--wire", wire.name, *files)

    assert run.status == 2
    if command == "replay":
        assert run.out == ""
        assert f"{error}: a .json file holds an HTTP error body or a request" in run.err
        assert run.err.count("\n") == 1
    else:
        assert run.err == ""
        assert f"{error}: FILE_UNREADABLE: a .json file holds an HTTP error body" in run.out
        assert run.out.splitlines()[-1].startswith("checked 2 files, 1 response: 1 problem")


@every_wire
def test_check_plays_every_file_and_prints_one_problem_line_per_bad_file(
    wire: Wire, course: CourseRunner, tmp_path: Path
) -> None:
    files = [
        write(tmp_path, "a-cut.sse", cut_before_terminal(wire)),
        write(tmp_path, "b-good.sse", wire.text_body("fine")),
        write(tmp_path, "c-tool.sse", wire.tool_body()),
        write(tmp_path, "d-empty.sse", b""),
    ]

    run = course("check", "--wire", wire.name, *files)

    assert run.status == 1
    lines = run.out.splitlines()
    assert [line.split(": ")[:2] for line in lines[:-1]] == [
        [str(files[0]), "VENDOR_MISSING_TERMINAL"],
        [str(files[3]), "VENDOR_MISSING_TERMINAL"],
    ]
    assert lines[-1] == "checked 4 files, 4 responses: 2 problems in 2 files"


@every_wire
def test_check_of_clean_files_exits_zero(wire: Wire, course: CourseRunner, tmp_path: Path) -> None:
    files = [write(tmp_path, f"{n}.sse", wire.text_body(str(n))) for n in range(3)]

    run = course("check", "--wire", wire.name, *files)

    assert (run.status, run.out) == (0, "checked 3 files, 3 responses: clean\n")


@pytest.mark.parametrize("command", ["replay", "check"])
def test_the_fixture_wire_is_the_default_and_todays_behaviour(
    command: str, course: CourseRunner
) -> None:
    assert course(command, "--wire", "fixture", ROUNDTRIP) == course(command, ROUNDTRIP)


def test_an_unknown_wire_is_a_usage_error(course: CourseRunner) -> None:
    run = course("replay", "--wire", "no-such-wire", ROUNDTRIP)

    assert run.status == 2
    assert "argument --wire: invalid choice: 'no-such-wire'" in run.err


@pytest.mark.parametrize(
    ("command", "extra"), [("replay", []), ("check", ["cassette"])], ids=["replay", "check"]
)
def test_the_help_lists_every_wire(command: str, extra: list[str], course: CourseRunner) -> None:
    shown = " ".join(course(command, "--help").out.split())

    assert "{" + ",".join(["fixture", *(wire.name for wire in WIRES), *extra]) + "}" in shown


SHARED_WIRES = [wire for wire in WIRES if (SHARED / wire.name).is_dir()]
"""The wires the shared recordings have a folder for (none when they are absent)."""


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"the shared recordings are not at {SHARED}")
@pytest.mark.parametrize("wire", SHARED_WIRES, ids=[wire.name for wire in SHARED_WIRES])
def test_check_of_a_shared_folder_finds_exactly_the_recordings_that_fail(
    wire: Wire, course: CourseRunner
) -> None:
    folder = SHARED / wire.name
    if not folder.is_dir():
        pytest.skip(f"no shared recordings of {wire.name} at {folder}")
    files = sorted(
        path for path in folder.iterdir() if path.suffix == ".sse" or path.suffix == ".jsonl"
    )
    if load_vendor(wire.name).named_events:
        # A .jsonl file kept only each event's data: it cannot be played on such a wire.
        files = [path for path in files if path.suffix == ".sse"]

    run = course("check", "--wire", wire.name, *files)

    failing = {line.split(": ")[0] for line in run.out.splitlines()[:-1]}
    expected = {
        # Judged by its grammar: a response cut by max_tokens is valid traffic.
        "anthropic-messages": set(),
        # The grammar judges: every recording is valid Gemini traffic but a
        # mock that sends a chunk after its candidate finished.
        "gemini": {"mock-error-mid-stream.sse"},
        # Judged by its grammar: a response cut by length, a refusal and a
        # compatible server's error event are valid traffic; OpenRouter's second
        # finish for one choice is not OpenAI's.
        "openai-chat": {"compat-openrouter-comments-inchunk-error.sse"},
        # Judged by its grammar: an incomplete, refused or failed response is valid traffic.
        "openai-responses": set(),
    }[wire.name]
    assert run.status == (1 if expected else 0)
    assert {Path(name).name for name in failing} == expected
    assert run.out.splitlines()[-1].startswith(f"checked {len(files)} files")


def test_check_on_openrouter_responses_takes_its_done_marker_and_openai_responses_refuses_it(
    course: CourseRunner, tmp_path: Path
) -> None:
    wire = next(wire for wire in WIRES if wire.name == "openrouter-responses")
    body = wire.framed(wire.text_events("The sum ", "is 42."))
    assert body.endswith(b"data: [DONE]\n\n")
    path = write(tmp_path, "answer.sse", body)

    taken = course("check", "--wire", "openrouter-responses", path)
    refused = course("check", "--wire", "openai-responses", path)

    assert (taken.status, taken.out.splitlines()[-1]) == (0, "checked 1 file, 1 response: clean")
    assert refused.status == 1
    assert f"{path}: VENDOR_EVENT_ORDER: " in refused.out
    assert "follows the terminal event; nothing may" in refused.out
