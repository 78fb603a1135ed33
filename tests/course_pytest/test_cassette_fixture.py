"""`CourseCassette` in-process, against a loopback server: what each plan writes.

The project runs of ``test_plugin.py`` show the modes end to end; these show
what a cassette file holds afterwards, byte for byte, without a subprocess.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx2
import pytest

from course_cassettes import ReplayFault, load_cassette
from course_http import RecordedResponse, VendorError, VendorErrorCode
from course_http.loopback import LoopbackServer
from course_protocol import CourseModelRequest, CourseUserMessage
from course_pytest import CourseCassette, RecordMode
from course_pytest._modes import how_to_record
from course_pytest._options import options_from_marker
from tests.course_cassettes.cassettes import REAL_LOOKING_KEY
from tests.course_cassettes.replays import replay
from tests.course_vendor.test_call_wire import MISTRAL_BODY
from tests.course_vendor.wires import WIRES, Wire, every_path_wire
from tests.streams import GUARD_SECONDS

ANTHROPIC = WIRES[0]
JSON = {"content-type": "application/json"}


def asking(text: str) -> CourseModelRequest:
    return CourseModelRequest("r-1", (CourseUserMessage("u-1", text),))


async def test_new_episodes_masks_what_the_marker_names_in_the_calls_it_adds(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cassettes" / "test_x" / "episodes.json"
    secret = "customer-4711-private"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([ANTHROPIC.served("one"), ANTHROPIC.served("two")]) as server,
    ):
        first = CourseCassette(
            path, RecordMode.ONCE, options_from_marker((), {}, "test_x"), "record it"
        )
        model = ANTHROPIC.model(
            transport=first.transport(server.base_url), api_key=REAL_LOOKING_KEY
        )
        await replay(model, asking("first"))
        await first.close(check_consumed=True)
        marked = options_from_marker(
            (), {"redact_paths": ["messages[*].content[0].text"]}, "test_x"
        )
        again = CourseCassette(path, RecordMode.NEW_EPISODES, marked, "record it")
        assert again.plan == "extend"
        model = ANTHROPIC.model(
            transport=again.transport(server.base_url), api_key=REAL_LOOKING_KEY
        )
        await replay(model, asking("first"))
        await replay(model, asking(secret))
        await again.close(check_consumed=True)
        assert len(server.requests) == 2, "the first call was replayed, the second recorded"
    text = path.read_text(encoding="utf-8")

    assert secret not in text
    assert '"first"' not in text, "the calls kept are masked as the file now says"
    assert '"messages[*].content[0].text"' in text


async def test_a_recording_is_kept_only_when_its_test_passed(tmp_path: Path) -> None:
    path = tmp_path / "cassettes" / "test_x" / "answer.json"
    options = options_from_marker((), {}, "test_x")
    refused = RecordedResponse(401, JSON, ANTHROPIC.error_body("authentication_error", "bad key"))
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([refused, ANTHROPIC.served("good"), refused]) as server,
    ):
        for mode, passed in (
            (RecordMode.ONCE, False),
            (RecordMode.ONCE, True),
            (RecordMode.ALL, False),
        ):
            cassette = CourseCassette(path, mode, options, "record it")
            assert cassette.plan == "record"
            model = ANTHROPIC.model(
                transport=cassette.transport(server.base_url), api_key=REAL_LOOKING_KEY
            )
            await replay(model, asking("hello"))
            await cassette.close(check_consumed=False, passed=passed)
            if mode is RecordMode.ONCE and not passed:
                assert not path.exists(), "a failed first recording leaves no cassette to replay"
            if passed:
                good = path.read_bytes()
        assert len(server.requests) == 3

    assert path.read_bytes() == good, "a failed re-recording leaves the cassette as it was"
    assert [call.response.status for call in load_cassette(path).unwrap().calls] == [200]
    assert sorted(item.name for item in path.parent.iterdir()) == ["answer.json"]


def test_a_cassette_that_cannot_be_used_says_to_record_it_again_replacing_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cassettes" / "test_x" / "answer.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"course_cassette": 3, "calls": []}\n')
    options = options_from_marker((), {}, "test_x")
    for mode in (RecordMode.NONE, RecordMode.ONCE, RecordMode.NEW_EPISODES):
        cassette = CourseCassette(
            path,
            mode,
            options,
            how_to_record("tests/t.py::test_x"),
            how_to_replace=how_to_record("tests/t.py::test_x", replacing=True),
        )

        with pytest.raises(pytest.fail.Exception) as caught:
            cassette.transport("http://127.0.0.1:9")

        message = str(caught.value)
        assert "course_cassette: must be 1 or 2" in message
        assert "--course-record-mode=all tests/t.py::test_x" in message, message
        assert "--course-record-mode=once" not in message, "once keeps a cassette that exists"


def test_a_missing_cassette_of_a_test_with_faults_says_another_test_must_record_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cassettes" / "test_x" / "shared.json"
    options = options_from_marker(("shared",), {"faults": {0: ReplayFault.cut_after(1)}}, "test_x")
    for mode in RecordMode:
        cassette = CourseCassette(path, mode, options, how_to_record("tests/t.py::test_x"))

        with pytest.raises(pytest.fail.Exception) as caught:
            cassette.transport("http://127.0.0.1:9")

        message = str(caught.value)
        assert "shared.json does not exist" in message
        assert "a test with faults never records" in message, message
        assert "pytest --course-record-mode=once tests/t.py::test_x" not in message


@every_path_wire
async def test_a_cassette_recorded_under_a_base_url_with_a_path_replays_under_it(
    tmp_path: Path, wire: Wire
) -> None:
    path = tmp_path / "cassettes" / "test_x" / "prefixed.json"
    options = options_from_marker((), {}, "test_x")
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer([wire.served("hi")]) as server:
        # A compatible vendor's API under a path, as https://api.groq.com/openai is.
        base_url = f"{server.base_url}/openai"
        recording = CourseCassette(path, RecordMode.ONCE, options, "record it")
        model = wire.model(
            transport=recording.transport(base_url), base_url=base_url, api_key=REAL_LOOKING_KEY
        )
        recorded = await replay(model)
        await recording.close(check_consumed=True)
        [sent] = server.requests
    assert sent.path.startswith("/openai/"), sent.path
    assert [call.request.path for call in load_cassette(path).unwrap().calls] == [sent.path]

    replaying = CourseCassette(path, RecordMode.NONE, options, "record it")
    assert replaying.plan == "replay"
    model = wire.model(transport=replaying.transport(base_url), base_url=base_url)
    replayed = await replay(model)
    await replaying.close(check_consumed=True)

    assert recorded.error is None, recorded.error
    assert replayed.signature() == recorded.signature()


async def test_an_ignore_path_that_points_at_nothing_recorded_fails_the_teardown(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cassettes" / "test_x" / "ignoring.json"
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer([ANTHROPIC.served("hi")]) as server:
        misspelt = options_from_marker((), {"ignore": ["messages[*].contnet"]}, "test_x")
        recording = CourseCassette(path, RecordMode.ONCE, misspelt, "record it")
        model = ANTHROPIC.model(
            transport=recording.transport(server.base_url), api_key=REAL_LOOKING_KEY
        )
        await replay(model, asking("hello"))
        with pytest.raises(pytest.fail.Exception) as recorded:
            await recording.close(check_consumed=True)
    assert path.exists(), "the recording of a passed test is kept all the same"

    for ignore, passed, fails in (
        (["max_tokens", "messages[*].contnet", "metadata.user_idd"], True, True),
        (["max_tokens", "messages[*].contnet"], False, False),
        (["max_tokens", "messages[*].content"], True, False),
    ):
        options = options_from_marker((), {"ignore": ignore}, "test_x")
        replaying = CourseCassette(path, RecordMode.NONE, options, "record it")
        model = ANTHROPIC.model(transport=replaying.transport(server.base_url))
        assert (await replay(model, asking("hello"))).error is None
        if not fails:
            await replaying.close(check_consumed=True, passed=passed)
            continue
        with pytest.raises(pytest.fail.Exception) as replayed:
            await replaying.close(check_consumed=True, passed=passed)

    assert str(recorded.value) == (
        "course_cassette(ignore=...): 'messages[*].contnet' point(s) at nothing in any "
        f"recorded call of {path}, so ignore nothing: is the path misspelt? "
        "(a mismatch names the path to paste)"
    )
    assert not recorded.value.pytrace
    assert str(replayed.value).startswith(
        "course_cassette(ignore=...): 'messages[*].contnet', 'metadata.user_idd' point(s) at "
    )


async def test_a_test_that_records_nothing_new_never_keeps_another_ones_failed_recording(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cassettes" / "test_x" / "shared.json"
    options = options_from_marker(("shared",), {}, "test_x")
    refused = RecordedResponse(401, JSON, ANTHROPIC.error_body("authentication_error", "bad key"))
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([ANTHROPIC.served("good"), refused]) as server,
    ):
        first = CourseCassette(path, RecordMode.ONCE, options, "record it")
        model = ANTHROPIC.model(
            transport=first.transport(server.base_url), api_key=REAL_LOOKING_KEY
        )
        await replay(model, asking("hello"))
        await first.close(check_consumed=True)
        recorded = path.read_bytes()
        # Two tests extend the cassette at once (two runs, or two workers): one
        # records a refused call and fails, the other replays and records nothing.
        failing = CourseCassette(path, RecordMode.NEW_EPISODES, options, "record it")
        replaying = CourseCassette(path, RecordMode.NEW_EPISODES, options, "record it")
        model = ANTHROPIC.model(
            transport=failing.transport(server.base_url), api_key=REAL_LOOKING_KEY
        )
        await replay(model, asking("hello"))
        assert (await replay(model, asking("again"))).error is not None
        model = ANTHROPIC.model(
            transport=replaying.transport(server.base_url), api_key=REAL_LOOKING_KEY
        )
        await replay(model, asking("hello"))
        await replaying.close(check_consumed=True, passed=True)
        await failing.close(check_consumed=True, passed=False)
        assert len(server.requests) == 2

    assert path.read_bytes() == recorded, "the refused call was never kept"
    assert sorted(item.name for item in path.parent.iterdir()) == ["shared.json"]
    assert failing.recording_path != replaying.recording_path


async def test_a_marker_s_wire_is_kept_with_each_sdk_call_and_judges_the_replay(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cassettes" / "test_x" / "answer.json"
    body = MISTRAL_BODY

    def api(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    for wire, mode in (("mistral", RecordMode.ONCE), ("mistral", RecordMode.NONE)):
        options = options_from_marker((), {"wire": wire}, "test_x")
        cassette = CourseCassette(path, mode, options, "record it")
        transport = cassette.httpx_transport(inner=httpx2.MockTransport(api))
        with httpx2.Client(transport=transport) as client:
            answer = client.post("http://gateway.example/v1/chat/completions", json={"m": 1})
            assert answer.read() == body
        await cassette.close(check_consumed=True)
        assert transport.problems == (), "judged by Mistral's grammar, not OpenAI's"
        assert transport.judged == (0,)

    (call,) = load_cassette(path).unwrap().calls
    assert (call.request.host, call.request.wire) == ("gateway.example", "mistral")
    options = options_from_marker((), {"wire": "groq"}, "test_x")
    cassette = CourseCassette(path, RecordMode.NONE, options, "record it")
    transport = cassette.httpx_transport()
    with httpx2.Client(transport=transport) as client, pytest.raises(VendorError) as refused:
        client.post("http://gateway.example/v1/chat/completions", json={"m": 1}).read()
    assert refused.value.code is VendorErrorCode.VENDOR_WIRE_MISMATCH
    with pytest.raises(pytest.fail.Exception, match="VENDOR_WIRE_MISMATCH"):
        await cassette.close(check_consumed=True)


def test_a_marker_s_wire_must_be_a_str() -> None:
    assert options_from_marker((), {}, "test_x").wire is None
    assert options_from_marker((), {}, "test_x", {"wire": "vllm"}).wire == "vllm"
    with pytest.raises(TypeError, match=r"course_cassette\(wire=\.\.\.\) must be a wire name"):
        options_from_marker((), {"wire": 5}, "test_x")
