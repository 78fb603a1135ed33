"""``course check`` judges each cassette call by the wire it records, and ``--wire`` never
silently overrides it: a call recorded by another wire is ``VENDOR_WIRE_MISMATCH``."""

from __future__ import annotations

from pathlib import Path

from frozendict import frozendict

from course_cassettes import Cassette, CassetteCall, write_cassette
from course_http import RecordedRequest, RecordedResponse
from tests.course_cli.helpers import CourseRunner
from tests.course_vendor.test_call_wire import MISTRAL_BODY, OPENAI_BODY
from tests.course_vendor.wire import SSE


def call(body: bytes, *, host: str | None = None, wire: str | None = None) -> CassetteCall:
    sent = RecordedRequest(
        "POST", "/v1/chat/completions", frozendict({"model": "m"}), frozendict(), host, wire
    )
    return CassetteCall(sent, RecordedResponse(200, SSE, body))


def written(path: Path, *calls: CassetteCall) -> Path:
    write_cassette(path, Cassette(calls))
    return path


def test_a_cassette_of_a_mistral_call_and_an_openai_call_is_clean(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = written(
        tmp_path / "two.json",
        call(MISTRAL_BODY, wire="mistral"),
        call(OPENAI_BODY, host="api.openai.com"),
        call(MISTRAL_BODY, host="api.mistral.ai"),
    )

    run = course("check", path)

    assert (run.status, run.out.splitlines()[-1]) == (0, "checked 1 file, 3 responses: clean")


def test_without_its_wire_a_mistral_call_fails_openais_grammar_by_its_path(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = written(tmp_path / "old.json", call(OPENAI_BODY), call(MISTRAL_BODY))

    run = course("check", path)

    assert run.status == 1
    (line,) = [line for line in run.out.splitlines() if "VENDOR_" in line]
    assert line.startswith(f"{path}: response 1: VENDOR_INVALID_EVENT: calls[1].response.body: ")
    assert "judged on openai-chat" in line


def test_wire_judges_the_calls_that_record_none_and_refuses_one_recorded_by_another(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = written(
        tmp_path / "mixed.json",
        call(MISTRAL_BODY),
        call(MISTRAL_BODY, wire="mistral"),
        call(OPENAI_BODY, wire="openai-chat"),
    )

    run = course("check", "--wire", "mistral", path)

    assert run.status == 1
    problems = [line for line in run.out.splitlines() if line.startswith(str(path))]
    assert len(problems) == 1
    assert problems[0].startswith(
        f"{path}: response 2: VENDOR_WIRE_MISMATCH: calls[2].response.body: the call was "
        "recorded by the wire 'openai-chat', and is asked to be judged as 'mistral'"
    )
    assert run.out.splitlines()[-1] == "checked 1 file, 3 responses: 1 problem in 1 file"


def test_a_recorded_wire_no_package_registers_is_a_problem_naming_the_call(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = written(tmp_path / "typo.json", call(MISTRAL_BODY, wire="mistrall"))

    run = course("check", path)

    assert run.status == 1
    assert (
        f"{path}: response 0: VENDOR_UNKNOWN_WIRE: calls[0].response.body: the call records "
        "the wire 'mistrall', which cannot judge it: "
    ) in run.out


def test_serve_takes_only_a_wire_an_installed_package_registers(
    course: CourseRunner, tmp_path: Path
) -> None:
    path = written(tmp_path / "one.json", call(MISTRAL_BODY))

    unknown = course("serve", path, "--wire", "mistrall")
    fixture = course("serve", path, "--wire", "fixture")
    recording = course(
        "serve", tmp_path / "new.json", "--record", "--upstream", "https://x.example", "--wire", "y"
    )

    assert unknown.status == fixture.status == recording.status == 2
    assert unknown.err.startswith("course serve: VENDOR_UNKNOWN_WIRE: ")
    assert "--wire fixture: course serve answers with vendor wires only" in fixture.err
    assert recording.err.startswith("course serve: VENDOR_UNKNOWN_WIRE: ")
    assert not (tmp_path / "new.json").exists()
