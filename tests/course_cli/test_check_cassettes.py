"""``course check`` on cassettes: problems in cassette terms, and every recorded stream replayed.

A cassette's recorded streams (2xx ``text/event-stream`` answers on a
vendor's path) are played through that vendor's strict parser, so a stream
broken by hand is reported with the code and message its replay fails
with; a file that cannot be read or is not a cassette is
``HTTP_RECORDING_INVALID``. Exit status: 0 clean, 1 problems, 2 a file
could not be read.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from frozendict import frozendict

from course_cassettes import (
    Cassette,
    CassetteCall,
    CassetteTransport,
    RequestMatching,
    load_cassette,
    write_cassette,
)
from course_cli._wires import vendor_wire_for_path
from course_http import (
    RecordedRequest,
    RecordedResponse,
    RecordedTransport,
    ResponseEnd,
    SseEvent,
    VendorError,
)
from course_provider_openai import CHAT_WIRE
from tests.course_cassettes.replays import replay
from tests.course_cassettes.sdk_upstream import ANTHROPIC_SSE, Upstream
from tests.course_cassettes.test_httpx2_transports import recorded
from tests.course_cli.helpers import ROUNDTRIP, CourseRunner
from tests.course_cli.serving import serving
from tests.course_provider_openai import bodies as openai
from tests.course_vendor.wires import (
    JSON,
    SSE,
    WIRES,
    Wire,
    checked_on,
    sse_bytes,
)
from tests.course_vendor.wires import (
    every_path_wire as every_wire,
)


def named(name: str) -> Wire:
    """The shared tests' `Wire` registered as ``name``."""
    return next(wire for wire in WIRES if wire.name == name)


def sent_request(wire: Wire) -> RecordedRequest:
    """The request ``wire``'s model sends for the shared test request, as a cassette keeps it."""

    async def send() -> RecordedRequest:
        answer = RecordedResponse(200, wire.media, wire.text_body("x"))
        async with RecordedTransport([answer]) as transport:
            await replay(wire.model(transport=transport))
        [sent] = transport.requests
        return RecordedRequest(sent.method, sent.path, sent.body, frozendict())

    return asyncio.run(send())


def call(
    wire: Wire, body: bytes, *, status: int = 200, end: ResponseEnd = "complete"
) -> CassetteCall:
    headers = wire.media if status < 300 else JSON
    return CassetteCall(sent_request(wire), RecordedResponse(status, headers, body, end))


def written(path: Path, *calls: CassetteCall) -> Path:
    write_cassette(path, Cassette(calls))
    return path


def replayed_error(path: Path, wire: Wire, call_index: int) -> VendorError | None:
    """What replaying call ``call_index`` of the cassette at ``path`` fails with, if anything."""
    cassette = load_cassette(path).unwrap()

    async def play() -> VendorError | None:
        transport = CassetteTransport(cassette, matching=RequestMatching("order"))
        async with transport:
            outcome = None
            for _ in range(call_index + 1):
                outcome = await replay(wire.model(transport=transport))
        assert outcome is not None
        return outcome.error

    return asyncio.run(play())


def cut_before_the_terminal(wire: Wire) -> tuple[bytes, str, int]:
    # Two events are the start of an answer on every wire, never its end (on Chat,
    # what follows the finish is optional).
    events = wire.text_events("The sum ", "is 42.")
    return wire.framed(events[:2]), "VENDOR_MISSING_TERMINAL", 2


def with_an_invalid_event(wire: Wire) -> tuple[bytes, str, int]:
    events = wire.text_events("The sum ", "is 42.")
    events[1] = SseEvent(events[1].event, '{"not": json')
    return wire.framed(events), "VENDOR_INVALID_EVENT", 1


@every_wire
def test_a_good_cassette_of_every_wire_is_clean(
    course: CourseRunner, tmp_path: Path, wire: Wire
) -> None:
    path = written(
        tmp_path / "good.json", call(wire, wire.text_body("Hi")), call(wire, wire.tool_body())
    )

    run = course("check", path, ROUNDTRIP)

    assert (run.status, run.err) == (0, "")
    assert run.out == "checked 2 files, 4 responses: clean\n"


@every_wire
@pytest.mark.parametrize("breaking", [cut_before_the_terminal, with_an_invalid_event])
def test_a_stream_broken_by_hand_is_reported_as_its_replay_fails(
    course: CourseRunner, tmp_path: Path, wire: Wire, breaking: object
) -> None:
    body, code, event_index = breaking(wire)  # type: ignore[operator]
    path = written(tmp_path / "broken.json", call(wire, wire.text_body("fine")), call(wire, body))

    run = course("check", path)

    assert run.status == 1
    [line, summary] = run.out.splitlines()
    error = replayed_error(path, wire, 1)
    assert error is not None
    assert (error.code, error.event_index) == (code, event_index)
    assert line == (
        f"{path}: response 1: {code}: calls[1].response.body: {checked_on(wire.name)}: "
        f"{error.message}"
    )
    assert summary == "checked 1 file, 2 responses: 1 problem in 1 file"


@pytest.mark.parametrize("wire_option", [(), ("--wire", "cassette")])
def test_a_cassette_that_says_strict_false_is_read_but_not_judged_and_says_so(
    course: CourseRunner, tmp_path: Path, wire_option: tuple[str, ...]
) -> None:
    anthropic = WIRES[0]
    body, _code, _index = cut_before_the_terminal(anthropic)
    loose = tmp_path / "loose.json"
    write_cassette(loose, Cassette([call(anthropic, body)], strict=False))
    strict = written(tmp_path / "strict.json", call(anthropic, body))

    run = course("check", *wire_option, loose, strict)

    assert run.status == 1
    [problem, note, summary] = run.out.splitlines()
    assert problem.startswith(f"{strict}: response 0: VENDOR_MISSING_TERMINAL: ")
    assert note == f"{loose}: not judged: the cassette says strict: false"
    assert summary == (
        "checked 2 files, 2 responses (1 file not judged: strict: false): 1 problem in 1 file"
    )

    alone = course("check", *wire_option, loose)
    assert (alone.status, alone.out.splitlines()[-1]) == (
        0,
        "checked 1 file, 1 response (1 file not judged: strict: false): clean",
    )

    broken = tmp_path / "broken.json"
    broken.write_text(loose.read_text(encoding="utf-8").replace('"strict": false', '"strict": 0'))
    invalid = course("check", *wire_option, broken)
    assert invalid.status == 1
    assert "HTTP_RECORDING_INVALID: strict: must be true or false, not 0" in invalid.out
    assert "not judged" not in invalid.out


def test_a_stream_edited_in_the_cassette_file_is_reported(
    course: CourseRunner, tmp_path: Path
) -> None:
    wire = WIRES[0]
    path = written(tmp_path / "edited.json", call(wire, wire.text_body("The sum ", "is 42.")))
    document = json.loads(path.read_text(encoding="utf-8"))
    body: list[str] = document["calls"][0]["response"]["body"]
    stop = next(index for index, line in enumerate(body) if "message_stop" in line)
    del body[stop:]
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")

    run = course("check", "--wire", "cassette", path)

    assert run.status == 1
    [problem, _summary] = run.out.splitlines()
    assert problem.startswith(
        f"{path}: response 0: VENDOR_MISSING_TERMINAL: calls[0].response.body: "
    )
    assert "without message_stop" in problem


def test_a_repeated_tool_call_id_in_a_recorded_stream_is_reported_at_its_event(
    course: CourseRunner, tmp_path: Path
) -> None:
    wire = named(CHAT_WIRE)
    events = openai.chat_events(
        openai.tool_start(0, "call_1", "add", "{}"),
        openai.tool_start(1, "call_1", "add", "{}"),
        openai.finish("tool_calls"),
        openai.usage(),
        openai.DONE,
    )
    repeat = 1
    path = written(tmp_path / "twice.json", call(wire, sse_bytes(events)))

    run = course("check", path)

    assert run.status == 1
    assert (
        f"VENDOR_INVALID_EVENT: calls[0].response.body: {checked_on(wire.name)}: event {repeat}: "
        in run.out
    )


@every_wire
def test_what_was_recorded_as_a_failure_is_not_a_problem(
    course: CourseRunner, tmp_path: Path, wire: Wire
) -> None:
    events = wire.text_events("The sum ", "is 42.")
    cut = wire.framed(events[:2])
    next_event = wire.framed(events[2:3])
    path = written(
        tmp_path / "failures.json",
        call(wire, wire.error_body("rate_limit_error", "slow down"), status=429),
        call(wire, cut, end="interrupted"),
        call(wire, cut + next_event[: len(next_event) // 2], end="interrupted"),
        call(wire, cut, end="stalled"),
    )

    run = course("check", path)

    assert (run.status, run.err) == (0, "")
    assert run.out == "checked 1 file, 4 responses: clean\n"


@every_wire
def test_an_invalid_event_before_a_recorded_cut_is_still_a_problem(
    course: CourseRunner, tmp_path: Path, wire: Wire
) -> None:
    body, code, event_index = with_an_invalid_event(wire)
    path = written(
        tmp_path / "cut.json", call(wire, body[: len(body) // 2 + 40], end="interrupted")
    )

    run = course("check", path)

    assert run.status == 1
    where = f"calls[0].response.body: {checked_on(wire.name)}: event {event_index}: "
    assert f": response 0: {code}: {where}" in run.out


def test_a_stream_on_a_path_no_vendor_posts_to_is_not_played(
    course: CourseRunner, tmp_path: Path
) -> None:
    request = RecordedRequest("POST", "/v1/elsewhere", frozendict(), frozendict())
    response = RecordedResponse(200, SSE, b"data: not a vendor event\n\n")
    path = written(tmp_path / "other.json", CassetteCall(request, response))

    run = course("check", path)

    assert (run.status, run.out) == (0, "checked 1 file, 1 response: clean\n")


def test_a_known_path_with_a_query_is_still_played(course: CourseRunner, tmp_path: Path) -> None:
    wire = named("gemini")
    sent = sent_request(wire)
    request = RecordedRequest(sent.method, sent.path + "?beta=true", sent.body, frozendict())
    body, code, _ = cut_before_the_terminal(wire)
    response = RecordedResponse(200, wire.media, body)
    path = written(tmp_path / "query.json", CassetteCall(request, response))

    run = course("check", path)

    assert run.status == 1
    assert f": {code}: " in run.out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{\n  "course_cassette": 1,\n  "calls": [\n', "not JSON: Expecting value"),
        (b'{"course_cassette": 1, "calls": []}}', "not JSON: Extra data"),
        (b'{"calls": [], "course_cassette" : 1,', "not JSON"),
    ],
    ids=["cut-short", "stray-brace", "key-not-first"],
)
def test_a_cassette_that_is_not_json_is_an_invalid_cassette_not_a_fixture(
    course: CourseRunner, tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "mangled.json"
    path.write_bytes(content)

    run = course("check", path)

    assert run.status == 1
    [problem, summary] = run.out.splitlines()
    assert problem.startswith(f"{path}: HTTP_RECORDING_INVALID: {message}")
    assert "PROVIDER_INVALID_FIXTURE" not in run.out
    assert summary == "checked 1 file, 0 responses: 1 problem in 1 file"


def test_a_cassette_that_cannot_be_read_is_reported_with_the_cassette_code_and_status_2(
    course: CourseRunner, tmp_path: Path
) -> None:
    wire = named(CHAT_WIRE)
    good = written(tmp_path / "good.json", call(wire, wire.text_body("Hi")))
    folder = tmp_path / "folder"
    folder.mkdir()
    missing = tmp_path / "missing.json"

    run = course("check", "--wire", "cassette", good, missing, folder)

    assert run.status == 2
    assert run.out.splitlines() == [
        f"{missing}: HTTP_RECORDING_INVALID: cannot be read: No such file or directory",
        f"{folder}: HTTP_RECORDING_INVALID: cannot be read: is not a regular file (a folder)",
        "checked 3 files, 1 response: 2 problems in 2 files (2 files could not be read)",
    ]


def test_broken_streams_and_an_unreadable_file_give_status_2_after_every_file_was_checked(
    course: CourseRunner, tmp_path: Path
) -> None:
    wire = WIRES[0]
    body, code, _ = cut_before_the_terminal(wire)
    broken = written(tmp_path / "broken.json", call(wire, body))

    run = course("check", "--wire", "cassette", tmp_path / "missing.json", broken)

    assert run.status == 2
    assert [line.split(": ")[1] for line in run.out.splitlines()[:-1]] == [
        "HTTP_RECORDING_INVALID",
        "response 0",
    ]
    assert f"{broken}: response 0: {code}: " in run.out


@every_wire
def test_the_path_check_knows_a_wire_by_is_the_path_its_model_posts_to(wire: Wire) -> None:
    path = sent_request(wire).path
    bare = path.partition("?")[0]

    found = vendor_wire_for_path(path)

    assert found is not None
    assert found.name == wire.name
    assert found.wire.base_path(bare) == ""
    assert vendor_wire_for_path(bare + "?stream=true") is found
    assert vendor_wire_for_path(bare + "/") is None


def test_course_check_reads_what_the_sdk_transports_recorded(
    course: CourseRunner, tmp_path: Path
) -> None:
    good = recorded(tmp_path / "good", "sync", "anthropic-stream")
    cut = ANTHROPIC_SSE[: ANTHROPIC_SSE.index(b"event: message_stop")]
    bad = recorded(tmp_path / "bad", "sync", "anthropic-stream", Upstream(anthropic_sse=cut))

    clean = course("check", good)
    assert (clean.status, clean.out) == (0, "checked 1 file, 1 response: clean\n")
    broken = course("check", bad)
    assert broken.status == 1
    assert broken.out.startswith(
        f"{bad}: response 0: VENDOR_MISSING_TERMINAL: calls[0].response.body: "
        "judged on anthropic-messages: "
    ), broken.out


def test_a_named_pipe_checked_as_a_cassette_is_one_problem_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)  # no writer: reading it would wait forever
    command = (sys.executable, "-m", "course_cli")
    with serving("check", "--wire", "cassette", str(pipe), command=command) as child:
        out, err = child.finish()

    assert (child.process.returncode, err) == (2, "")
    assert out.splitlines() == [
        f"{pipe}: HTTP_RECORDING_INVALID: cannot be read: is not a regular file (a named pipe)",
        "checked 1 file, 0 responses: 1 problem in 1 file (1 file could not be read)",
    ]
