"""``course convert-vcr``: VCR.py cassettes into course ones, a line per note, exiting as check.

The VCR.py cassettes are written by hand (``tests/course_cassettes/vcr_cassettes.py``)
in pytest-recording's layout, ``cassettes/<module>/<test>.yaml``.
"""

from __future__ import annotations

import json
from pathlib import Path

from course_cassettes import load_cassette
from tests.course_cassettes.sdk_upstream import ANTHROPIC_SSE
from tests.course_cassettes.vcr_cassettes import KEY, cassette_text, interaction
from tests.course_cli.helpers import CourseRunner

STREAM = interaction(
    response_headers=("content-type: [text/event-stream]",),
    response_body=f"{{string: {json.dumps(ANTHROPIC_SSE.decode())}}}",
)
CUT_STREAM = interaction(
    response_headers=("content-type: [text/event-stream]",),
    response_body=(
        "{string: "
        + json.dumps(ANTHROPIC_SSE[: ANTHROPIC_SSE.index(b"event: message_stop")].decode())
        + "}"
    ),
)
HEADERS_NOT_KEPT = "dropped: headers not kept: request authorization (a credential)"


def vcr_file(root: Path, relative: str, *interactions: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(cassette_text(*interactions), encoding="utf-8")
    return path


def test_a_folder_converts_each_cassette_keeping_its_module_and_test_name(
    course: CourseRunner, tmp_path: Path
) -> None:
    source = tmp_path / "cassettes"
    first = vcr_file(source, "test_agent/test_answer.yaml", interaction(), STREAM)
    second = vcr_file(source, "test_tools/TestLoop.test_call.yml", interaction())
    vcr_file(source, "test_agent/.hidden.yaml", "- not a cassette\n")
    (source / "test_agent" / "notes.txt").write_text("not a cassette", encoding="utf-8")
    out = tmp_path / "out"

    run = course("convert-vcr", source, "--out", out)

    answer = out / "test_agent" / "test_answer.json"
    call = out / "test_tools" / "TestLoop.test_call.json"
    assert run.out.splitlines() == [
        f"{first}: interaction 0: {HEADERS_NOT_KEPT}",
        f"{first}: interaction 1: {HEADERS_NOT_KEPT}",
        f"{first}: wrote {answer}: 2 calls to https://api.anthropic.com",
        f"{second}: interaction 0: {HEADERS_NOT_KEPT}",
        f"{second}: wrote {call}: 1 call to https://api.anthropic.com",
        "converted 3 of 3 interactions into 2 of 2 cassettes: 0 refused, 0 flagged, "
        "3 dropped, 0 cassettes not written",
    ]
    assert (run.status, run.err) == (0, "")
    assert sorted(path.relative_to(out).as_posix() for path in out.rglob("*")) == [
        "test_agent",
        "test_agent/test_answer.json",
        "test_tools",
        "test_tools/TestLoop.test_call.json",
    ]
    assert len(load_cassette(answer).unwrap().calls) == 2
    assert KEY not in answer.read_text(encoding="utf-8")
    assert course("check", out).status == 0


def test_a_file_named_keeps_the_name_of_its_folder(course: CourseRunner, tmp_path: Path) -> None:
    source = vcr_file(tmp_path, "cassettes/test_agent/test_answer.yaml", interaction())
    run = course("convert-vcr", source, "--out", tmp_path / "cassettes")
    target = tmp_path / "cassettes" / "test_agent" / "test_answer.json"
    assert run.status == 0
    assert f"{source}: wrote {target}: 1 call to https://api.anthropic.com" in run.out
    assert load_cassette(target).unwrap().calls[0].request.path == "/v1/messages"


def test_an_existing_cassette_is_replaced_only_with_force(
    course: CourseRunner, tmp_path: Path
) -> None:
    source = vcr_file(tmp_path, "cassettes/test_agent/test_answer.yaml", interaction())
    target = tmp_path / "out" / "test_agent" / "test_answer.json"
    target.parent.mkdir(parents=True)
    target.write_text("mine", encoding="utf-8")

    kept = course("convert-vcr", source, "--out", tmp_path / "out")
    assert kept.status == 1
    assert f"{source}: not written: {target} exists (--force replaces it)" in kept.out
    assert kept.out.endswith(
        "0 of 1 cassettes: 0 refused, 0 flagged, 1 dropped, 1 cassettes not written\n"
    )
    assert target.read_text(encoding="utf-8") == "mine"

    replaced = course("convert-vcr", source, "--out", tmp_path / "out", "--force")
    assert replaced.status == 0
    assert len(load_cassette(target).unwrap().calls) == 1


def test_a_refused_interaction_is_one_line_and_the_rest_is_written(
    course: CourseRunner, tmp_path: Path
) -> None:
    source = vcr_file(
        tmp_path,
        "cassettes/test_agent/test_upload.yaml",
        interaction(),
        interaction(body="'file=@report.pdf'"),
    )
    run = course("convert-vcr", source, "--out", tmp_path / "out")
    assert run.status == 1
    assert (
        f"{source}: interaction 1: refused: HTTP_RECORDING_INVALID: interactions[1].request.body: "
        "not JSON: Expecting value at line 1 column 1 (no cassette can hold this request body)"
    ) in run.out.splitlines()
    assert "converted 1 of 2 interactions into 1 of 1 cassettes: 1 refused" in run.out
    target = tmp_path / "out" / "test_agent" / "test_upload.json"
    assert len(load_cassette(target).unwrap().calls) == 1


def test_a_stream_the_grammar_refuses_is_flagged_and_written_as_recorded(
    course: CourseRunner, tmp_path: Path
) -> None:
    source = vcr_file(tmp_path, "cassettes/test_agent/test_cut.yaml", CUT_STREAM)
    run = course("convert-vcr", source, "--out", tmp_path / "out")
    assert run.status == 1
    (flag,) = [line for line in run.out.splitlines() if ": flagged: " in line]
    assert flag.startswith(
        f"{source}: interaction 0: flagged: VENDOR_MISSING_TERMINAL: calls[0].response.body: "
    )
    target = tmp_path / "out" / "test_agent" / "test_cut.json"
    assert course("check", target).status == 1, "course check names the same problem"


def test_a_stream_no_wire_claims_is_named_unchecked(course: CourseRunner, tmp_path: Path) -> None:
    unclaimed = STREAM.replace("/v1/messages", "/v1/own/stream?x=1")
    source = vcr_file(tmp_path, "cassettes/test_agent/test_own.yaml", unclaimed)
    run = course("convert-vcr", source, "--out", tmp_path / "out")
    assert run.status == 0
    assert (
        f"{source}: interaction 0: unchecked: no installed wire claims the stream of /v1/own/stream"
    ) in run.out.splitlines()


def test_a_file_that_is_not_a_vcr_cassette_exits_2_after_converting_the_others(
    course: CourseRunner, tmp_path: Path
) -> None:
    hostile = tmp_path / "cassettes" / "test_agent" / "test_hostile.yaml"
    hostile.parent.mkdir(parents=True)
    hostile.write_text("interactions: !!python/object/apply:os.getcwd []\n", encoding="utf-8")
    missing = tmp_path / "cassettes" / "test_agent" / "test_missing.yaml"
    good = vcr_file(tmp_path, "cassettes/test_agent/test_good.yaml", interaction())
    run = course("convert-vcr", hostile, missing, good, "--out", tmp_path / "out")
    assert run.status == 2
    lines = run.out.splitlines()
    assert lines[0] == (
        f"{hostile}: HTTP_RECORDING_INVALID: interactions: "
        "the tag !!python/object/apply:os.getcwd is not data VCR.py writes"
    )
    assert lines[1] == f"{missing}: FILE_UNREADABLE: no such file"
    assert lines[-1].endswith("2 cassettes not written")
    assert (tmp_path / "out" / "test_agent" / "test_good.json").is_file()
    assert "Traceback" not in run.out + run.err


def test_two_cassettes_bound_for_one_file_write_the_first_only(
    course: CourseRunner, tmp_path: Path
) -> None:
    first = vcr_file(tmp_path, "a/test_agent/test_answer.yaml", interaction())
    second = vcr_file(tmp_path, "b/test_agent/test_answer.yaml", interaction(), interaction())
    run = course("convert-vcr", first, second, "--out", tmp_path / "out")
    target = tmp_path / "out" / "test_agent" / "test_answer.json"
    assert run.status == 1
    assert f"{second}: not written: {target} holds the conversion of {first} already" in run.out
    assert len(load_cassette(target).unwrap().calls) == 1


def test_a_vcr_json_cassette_is_never_written_over_itself(
    course: CourseRunner, tmp_path: Path
) -> None:
    # VCR.py's JSON serializer writes the same document as JSON, which YAML reads.
    source = tmp_path / "test_agent" / "test_answer.json"
    source.parent.mkdir()
    source.write_text(json.dumps({"interactions": [], "version": 1}), encoding="utf-8")
    run = course("convert-vcr", source, "--out", tmp_path, "--force")
    assert run.status == 1
    assert f"{source}: not written: {source} is the VCR.py cassette itself" in run.out
    assert json.loads(source.read_text(encoding="utf-8")) == {"interactions": [], "version": 1}


def test_an_out_that_is_a_file_is_a_usage_error(course: CourseRunner, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.write_text("", encoding="utf-8")
    run = course("convert-vcr", tmp_path, "--out", out)
    assert (run.status, run.out) == (2, "")
    assert run.err == (
        f"course convert-vcr: error: --out {out}: is not a folder "
        "(see 'course convert-vcr --help')\n"
    )
