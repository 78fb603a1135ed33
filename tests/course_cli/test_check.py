"""``course check``: every response of every file played fully, every problem reported."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from course_provider_fixture import FixtureProviderErrorCode
from tests.course_cli.helpers import (
    END,
    INVALID,
    ROUNDTRIP,
    START,
    TEXT,
    CourseRunner,
    write_fixture,
)

INVALID_FILES = sorted(INVALID.glob("*.json"))

# A file can never produce these four: PROVIDER_ITERATOR_REUSED needs an async
# record source (a JSON file only holds arrays), check plays exactly the
# responses a file holds, so it never asks for one more (PROVIDER_EXHAUSTED),
# and it neither validates nor matches requests (PROVIDER_INVALID_REQUEST and
# PROVIDER_REQUEST_MISMATCH come from a caller's options).
NOT_FROM_A_FILE = {
    FixtureProviderErrorCode.PROVIDER_ITERATOR_REUSED,
    FixtureProviderErrorCode.PROVIDER_EXHAUSTED,
    FixtureProviderErrorCode.PROVIDER_INVALID_REQUEST,
    FixtureProviderErrorCode.PROVIDER_REQUEST_MISMATCH,
}

# Where each deliberately broken file breaks: (response index, record index).
POSITIONS = {
    "PROVIDER_INVALID_FIXTURE": (1, None),
    "PROVIDER_UNKNOWN_EVENT": (0, 1),
    "PROVIDER_INVALID_EVENT": (0, 2),
    "PROVIDER_MISSING_START": (0, 0),
    "PROVIDER_DUPLICATE_START": (0, 1),
    "PROVIDER_MISSING_TERMINAL": (0, 2),
    "PROVIDER_DUPLICATE_TERMINAL": (0, 3),
    "PROVIDER_RESPONSE_MISMATCH": (0, 2),
    "PROVIDER_INVALID_TERMINAL": (0, 2),
    "PROVIDER_TRANSPORT_ERROR": (0, 2),
}

_PROBLEM = re.compile(
    r"^(?P<file>.+?): (?:(?:response (?P<response>\d+))?(?:, )?(?:record (?P<record>\d+))?: )?"
    r"(?P<code>PROVIDER_[A-Z_]+): (?P<message>.+)$"
)


def _problems(out: str) -> list[dict[str, str | None]]:
    *lines, _summary = out.splitlines()
    parsed = []
    for line in lines:
        found = _PROBLEM.match(line)
        assert found, line
        parsed.append(found.groupdict())
    return parsed


def test_there_is_one_broken_fixture_for_every_code_a_file_can_produce() -> None:
    codes = {path.stem for path in INVALID_FILES}
    assert codes == {code.value for code in FixtureProviderErrorCode} - NOT_FROM_A_FILE
    assert set(POSITIONS) == codes


@pytest.mark.parametrize("path", INVALID_FILES, ids=[path.stem for path in INVALID_FILES])
def test_check_reports_the_code_named_by_the_broken_fixture(
    course: CourseRunner, path: Path
) -> None:
    run = course("check", path)
    assert run.status == 1
    assert run.err == ""
    [problem] = _problems(run.out)
    response, record = POSITIONS[path.stem]
    assert problem["file"] == str(path)
    assert problem["code"] == path.stem
    assert problem["response"] == (None if response is None else str(response))
    assert problem["record"] == (None if record is None else str(record))


def test_the_round_trip_fixture_is_clean(course: CourseRunner) -> None:
    run = course("check", ROUNDTRIP)
    assert (run.status, run.err) == (0, "")
    assert run.out == "checked 1 file, 2 responses: clean\n"


def test_check_goes_on_after_bad_files_and_reports_all_of_them_in_order(
    course: CourseRunner,
) -> None:
    run = course("check", INVALID_FILES[0], ROUNDTRIP, *INVALID_FILES[1:])
    assert run.status == 1
    assert [problem["code"] for problem in _problems(run.out)] == [
        path.stem for path in INVALID_FILES
    ]
    assert run.out.splitlines()[-1] == (
        f"checked {len(INVALID_FILES) + 1} files, 11 responses: "
        f"{len(INVALID_FILES)} problems in {len(INVALID_FILES)} files"
    )


def test_check_plays_every_response_of_a_file_after_a_bad_one(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = write_fixture(
        tmp_path / "mixed.json",
        [TEXT, END],
        [START, TEXT, END],
        [START, TEXT],
        [START, TEXT, END, TEXT],
    )
    run = course("check", path)
    assert run.status == 1
    found = [(p["response"], p["record"], p["code"]) for p in _problems(run.out)]
    assert found == [
        ("0", "0", "PROVIDER_MISSING_START"),
        ("2", "2", "PROVIDER_MISSING_TERMINAL"),
        ("3", "3", "PROVIDER_INVALID_TERMINAL"),
    ]
    assert run.out.splitlines()[-1] == "checked 1 file, 4 responses: 3 problems in 1 file"


def test_a_problem_message_quoting_fixture_text_stays_on_one_line(
    course: CourseRunner, tmp_path: Path
) -> None:
    weird = {"type": "line one\nline two\u2028three"}
    path = write_fixture(tmp_path / "newline.json", [START, weird])
    run = course("check", path)
    assert run.status == 1
    assert len(run.out.splitlines()) == 2
    [problem] = _problems(run.out)
    assert problem["code"] == "PROVIDER_UNKNOWN_EVENT"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\xff\xfe not utf-8", "invalid UTF-8"),
        (b'{"schemaVersion": 1, "responses": [NaN]}', "NaN is not a JSON number"),
        (b'{"schemaVersion": 1, "responses": [', "Expecting value"),
        (b'{"schemaVersion": true, "responses": []}', "schemaVersion"),
        (b"[" * 100_000 + b"]" * 100_000, "PROVIDER_INVALID_FIXTURE"),
    ],
    ids=["bad-utf8", "nan", "truncated", "bool-version", "deep-nesting"],
)
def test_files_that_cannot_be_loaded_are_one_problem_each(
    course: CourseRunner, tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(content)
    run = course("check", path, ROUNDTRIP)
    assert run.status == 1
    [problem] = _problems(run.out)
    assert problem["code"] == "PROVIDER_INVALID_FIXTURE"
    assert reason in run.out.splitlines()[0]
    assert run.out.splitlines()[-1] == "checked 2 files, 2 responses: 1 problem in 1 file"


def test_a_number_past_the_largest_float_is_judged_where_it_is_read_as_the_reference_does(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = tmp_path / "overflow.json"
    # An ignored field, then a count, then a whole record: JSON.parse reads each as Infinity.
    path.write_text(
        '{"schemaVersion": 1, "x": 1e400, "responses": ['
        '{"records": [{"type": "response_start", "responseId": "r-1", "role": "assistant", '
        '"x": -1e400}, {"type": "response_end", "responseId": "r-1", "stopReason": "stop", '
        '"usage": {"inputTokens": 1, "outputTokens": 2}}]}, '
        '{"records": [{"type": "response_start", "responseId": "r-2", "role": "assistant"}, '
        '{"type": "response_end", "responseId": "r-2", "stopReason": "stop", '
        '"usage": {"inputTokens": 1e400, "outputTokens": 2}}]}, '
        '{"records": [{"type": "response_start", "responseId": "r-3", "role": "assistant"}, '
        + "1" * 5000
        + "]}]}",
        encoding="utf-8",
    )
    run = course("check", path)
    assert run.status == 1
    found = [(p["response"], p["record"], p["code"]) for p in _problems(run.out)]
    assert found == [("1", "1", "PROVIDER_INVALID_EVENT"), ("2", "1", "PROVIDER_INVALID_EVENT")]
    assert run.out.splitlines()[-1] == "checked 1 file, 3 responses: 2 problems in 1 file"


def test_checking_many_files_reports_each_bad_one_once(
    course: CourseRunner, tmp_path: Path
) -> None:
    good = ROUNDTRIP.read_bytes()
    bad = (INVALID / "PROVIDER_MISSING_START.json").read_bytes()
    paths = []
    for index in range(300):
        path = tmp_path / f"{index:03d}.json"
        path.write_bytes(bad if index % 7 == 0 else good)
        paths.append(path)
    run = course("check", *paths)
    assert run.status == 1
    bad_files = [problem["file"] for problem in _problems(run.out)]
    assert bad_files == [str(path) for index, path in enumerate(paths) if index % 7 == 0]
    assert run.out.splitlines()[-1] == (
        f"checked 300 files, {257 * 2 + 43} responses: 43 problems in 43 files"
    )


def _spelled(version: str, input_tokens: str, output_tokens: str) -> bytes:
    return (
        f'{{"schemaVersion": {version}, "responses": [{{"records": ['
        '{"type": "response_start", "responseId": "r-1", "role": "assistant"}, '
        '{"type": "text_delta", "text": "ok"}, '
        '{"type": "response_end", "responseId": "r-1", "stopReason": "stop", '
        f'"usage": {{"input_tokens": {input_tokens}, "outputTokens": {output_tokens}}}}}]}}]}}'
    ).encode()


@pytest.mark.parametrize(
    ("version", "input_tokens", "output_tokens"),
    [("1.0", "12.0", "8"), ("1E0", "1E1", "-0.0"), ("100e-2", "100e-2", "9007199254740991.0")],
    ids=["point-zero", "exponents", "hundredths-and-largest"],
)
def test_check_reads_integral_numbers_as_the_integers_they_equal(
    course: CourseRunner, tmp_path: Path, version: str, input_tokens: str, output_tokens: str
) -> None:
    path = tmp_path / "integral.json"
    path.write_bytes(_spelled(version, input_tokens, output_tokens))

    run = course("check", path)

    assert (run.status, run.err) == (0, "")
    assert run.out == "checked 1 file, 1 response: clean\n"


@pytest.mark.parametrize(
    ("version", "input_tokens", "code", "where"),
    [
        ("1.5", "1", "PROVIDER_INVALID_FIXTURE", "schemaVersion"),
        ("true", "1", "PROVIDER_INVALID_FIXTURE", "schemaVersion"),
        ("1.0", "12.5", "PROVIDER_INVALID_EVENT", "usage.input_tokens"),
        ("1.0", "true", "PROVIDER_INVALID_EVENT", "usage.input_tokens"),
        ("1.0", "9007199254740992.0", "PROVIDER_INVALID_EVENT", "usage.input_tokens"),
    ],
    ids=["version-fraction", "version-bool", "count-fraction", "count-bool", "count-past-2-53"],
)
def test_check_still_refuses_numbers_the_reference_refuses(
    course: CourseRunner, tmp_path: Path, version: str, input_tokens: str, code: str, where: str
) -> None:
    path = tmp_path / "refused.json"
    path.write_bytes(_spelled(version, input_tokens, "8"))

    run = course("check", path)

    assert run.status == 1
    [problem] = _problems(run.out)
    assert problem["code"] == code
    assert where in problem["message"]  # type: ignore[operator]


def test_a_folder_is_checked_as_every_json_file_under_it_in_name_order(
    course: CourseRunner, tmp_path: Path
) -> None:
    nested = tmp_path / "b" / "deeper"
    nested.mkdir(parents=True)
    write_fixture(tmp_path / "a.json", [START, TEXT, END])
    write_fixture(nested / "c.json", [TEXT, END])
    (tmp_path / "notes.txt").write_text("not a fixture, not read")
    hidden = tmp_path / ".hidden"
    hidden.mkdir()
    write_fixture(hidden / "skipped.json", [TEXT])
    run = course("check", tmp_path)
    lines = run.out.splitlines()
    assert lines[0].startswith(
        f"{nested / 'c.json'}: response 0, record 0: PROVIDER_MISSING_START: "
    )
    assert lines[1:] == ["checked 2 files, 2 responses: 1 problem in 1 file"]
    assert run.status == 1


def test_a_folder_under_a_wire_is_checked_as_every_recorded_body_but_json_files(
    course: CourseRunner, tmp_path: Path
) -> None:
    body = b"".join(
        b"event: " + name + b"\ndata: " + data + b"\n\n"
        for name, data in [
            (
                b"message_start",
                b'{"type":"message_start","message":{"id":"msg_1","type":"message",'
                b'"role":"assistant","model":"m","content":[],"usage":{"input_tokens":3,"output_tokens":1}}}',
            ),
            (
                b"content_block_start",
                b'{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
            ),
            (
                b"content_block_delta",
                b'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}',
            ),
            (b"content_block_stop", b'{"type":"content_block_stop","index":0}'),
            (
                b"message_delta",
                b'{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}',
            ),
            (b"message_stop", b'{"type":"message_stop"}'),
        ]
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "one.sse").write_bytes(body)
    (tmp_path / "two.sse").write_bytes(body[: body.index(b"event: message_stop")])
    (tmp_path / "error.json").write_text('{"type":"error"}')
    run = course("check", "--wire", "anthropic-messages", tmp_path)
    lines = run.out.splitlines()
    assert lines[-1] == "checked 2 files, 2 responses: 1 problem in 1 file"
    assert lines[0].startswith(f"{tmp_path / 'two.sse'}: VENDOR_MISSING_TERMINAL: ")
    assert len(lines) == 2
    assert run.status == 1


def test_an_empty_folder_is_one_unreadable_problem(course: CourseRunner, tmp_path: Path) -> None:
    run = course("check", tmp_path)
    assert run.status == 2
    assert f"{tmp_path}: FILE_UNREADABLE: is a directory, not a fixture file" in run.out
