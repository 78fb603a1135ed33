"""``course check`` over cassettes, and ``course serve``'s arguments and failures (in-process)."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import pytest
from frozendict import frozendict

import course_cli._cli
from course_cassettes import Cassette, CassetteCall, cassette_to_json, write_cassette
from course_http import RecordedRequest, RecordedResponse, RecordedTransport
from tests.course_cassettes.replays import replay
from tests.course_cli.helpers import ROUNDTRIP, CourseRunner
from tests.course_vendor.wires import PATH_WIRES, WIRES, Wire


async def _recorded(wire: Wire, *deltas: str, base_url: str | None = None) -> Cassette:
    """A cassette of one call: the request ``wire``'s model sends, answered with ``deltas``.

    Recorded under ``base_url``, the vendor's own by default, so it holds the
    full path the API is called on (``/v1/chat/completions``).
    """
    answer = RecordedResponse(200, wire.media, wire.text_body(*deltas))
    async with RecordedTransport([answer], base_url=base_url or wire.base_url) as transport:
        await replay(wire.model(transport=transport, tools=()))
    [sent] = transport.requests
    request = RecordedRequest(sent.method, sent.path, sent.body, frozendict())
    return Cassette([CassetteCall(request, answer)])


def write_wire_cassette(path: Path, wire: Wire, base_url: str | None = None) -> Path:
    """Write the cassette of ``wire``'s call under ``base_url`` answering "The sum is 42."."""
    write_cassette(path, asyncio.run(_recorded(wire, "The sum ", "is 42.", base_url=base_url)))
    return path


def write_wire_cassettes(folder: Path) -> dict[str, Path]:
    """One cassette per wire a path names (`PATH_WIRES`) under ``folder``: "The sum is 42."."""
    return {
        wire.name: write_wire_cassette(folder / f"{wire.name}.json", wire) for wire in PATH_WIRES
    }


def test_check_knows_a_cassette_by_its_version_key_and_counts_its_calls(
    course: CourseRunner, tmp_path: Path
) -> None:
    paths = write_wire_cassettes(tmp_path)

    run = course("check", ROUNDTRIP, *paths.values())

    assert (run.status, run.err) == (0, "")
    # The round-trip fixture holds two responses; each wire's cassette one.
    assert run.out == f"checked {1 + len(paths)} files, {2 + len(paths)} responses: clean\n"


def test_check_reports_the_first_problem_of_a_cassette_with_its_call(
    course: CourseRunner, tmp_path: Path
) -> None:
    [path, *_] = write_wire_cassettes(tmp_path).values()
    document = json.loads(path.read_text())
    document["calls"][0]["response"]["headers"]["authorization"] = "Bearer sk-x"
    path.write_text(json.dumps(document))

    run = course("check", path)

    assert run.status == 1
    assert run.out.splitlines() == [
        f"{path}: response 0: HTTP_RECORDING_INVALID: calls[0].response.headers.authorization: "
        "holds credentials: a cassette never keeps it",
        "checked 1 file, 0 responses: 1 problem in 1 file",
    ]


def test_check_reads_a_cassette_that_is_not_strict_json_as_a_cassette(
    course: CourseRunner, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"course_cassette": 1, "calls": [], "calls": []}')

    run = course("check", broken)

    assert run.out.splitlines() == [
        f'{broken}: HTTP_RECORDING_INVALID: not strict JSON: duplicate object key "calls"',
        "checked 1 file, 0 responses: 1 problem in 1 file",
    ]


def test_check_wire_cassette_insists_that_every_file_is_one(
    course: CourseRunner, tmp_path: Path
) -> None:
    [path, *_] = write_wire_cassettes(tmp_path).values()
    broken = tmp_path / "broken.json"
    broken.write_text('{"course_cassette": 1, "calls": [], "calls": []}')

    run = course("check", "--wire", "cassette", path, ROUNDTRIP, broken, tmp_path / "nope")

    assert run.status == 2, "a file could not be read at all"
    assert run.out.splitlines() == [
        f"{ROUNDTRIP}: HTTP_RECORDING_INVALID: course_cassette: is missing",
        f'{broken}: HTTP_RECORDING_INVALID: not strict JSON: duplicate object key "calls"',
        f"{tmp_path / 'nope'}: HTTP_RECORDING_INVALID: cannot be read: No such file or directory",
        "checked 4 files, 1 response: 3 problems in 3 files (1 file could not be read)",
    ]


def test_replay_does_not_take_the_cassette_wire(course: CourseRunner, tmp_path: Path) -> None:
    run = course("replay", "--wire", "cassette", ROUNDTRIP)

    assert run.status == 2
    assert "invalid choice: 'cassette'" in run.err


class ServingIsAFailure:
    """Stands in for ``run_serve``: a command that should have refused fails the test, not hangs."""

    def __call__(self, *arguments: object) -> int:
        pytest.fail("course serve started serving instead of refusing its arguments")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((), "the following arguments are required: CASSETTE_OR_DIR"),
        (("{missing}",), "missing: cannot be read: No such file or directory"),
        (("{empty}",), "no cassette (a *.json file with a 'course_cassette' key) found"),
        (("{broken}",), "calls: must be an array, not an object"),
        (("{edited}",), "edited/b.json: not JSON: Expecting value at line 1 column 34"),
        (("{edited}/b.json",), "edited/b.json: not JSON: Expecting value at line 1 column 34"),
        (("{undecodable}",), "undecodable/b.json: not valid UTF-8 (invalid UTF-8 at byte 0)"),
        (("{good}", "--port", "70000"), "--port: must be from 0 to 65535, got 70000"),
        (("{good}", "--port", "x"), "--port: expected a port number, got 'x'"),
        (("{good}", "--delay", "-1"), "--delay: must be 0 or more, got -1"),
        (("{good}", "--delay", "nan"), "--delay: must be 0 or more, got nan"),
        (("{good}", "--chunk", "lines"), "--chunk: invalid choice: 'lines'"),
    ],
)
def test_serve_refuses_bad_arguments_in_one_line_before_listening(
    course: CourseRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    arguments: tuple[str, ...],
    message: str,
) -> None:
    monkeypatch.setattr(course_cli._cli, "run_serve", ServingIsAFailure())
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "fixture.json").write_text(ROUNDTRIP.read_text())
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "b.json").write_text('{"course_cassette": 1, "calls": {}}')
    good = tmp_path / "good.json"
    write_cassette(good, Cassette())
    # A hand-edited cassette beside a good one: neither may be passed over.
    for name, data in (("edited", b'{"course_cassette": 1, "calls": [}'), ("undecodable", b"\xff")):
        (tmp_path / name).mkdir()
        write_cassette(tmp_path / name / "a.json", Cassette())
        (tmp_path / name / "b.json").write_bytes(data)
    names = {
        "missing": tmp_path / "missing",
        "empty": tmp_path / "empty",
        "broken": tmp_path / "broken",
        "edited": tmp_path / "edited",
        "undecodable": tmp_path / "undecodable",
        "good": good,
    }

    run = course("serve", *(argument.format(**names) for argument in arguments))

    assert run.status == 2
    assert run.out == ""
    [line] = run.err.splitlines()
    assert line.startswith("course serve: error: ")
    assert message in line, line
    assert line.endswith("(see 'course serve --help')")


def test_serve_on_a_port_in_use_is_a_clear_error(course: CourseRunner, tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    write_cassette(good, Cassette())
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]

        run = course("serve", good, "--port", str(port))

    assert (run.status, run.out) == (2, "")
    assert run.err == (
        f"course serve: error: port {port} on 127.0.0.1 is already in use; "
        "choose another with --port\n"
    )


def test_the_cassette_a_check_reads_is_the_one_written(tmp_path: Path) -> None:
    cassette = asyncio.run(_recorded(WIRES[0], "x"))

    assert cassette_to_json(cassette)["course_cassette"] == 2
