"""Where a recorded call went: its host and the wire that made it, kept in the cassette.

Format 2 keeps both with each request; format 1 (neither) still loads. The
host never carries a user, a password or a query, and a loopback host no
port; the wire is the sending model's own, else the one the recording was
told. Hostile values in a file or in a request's extension are typed
refusals naming where they are.
"""

from __future__ import annotations

import asyncio
import copy
import json
from dataclasses import replace
from pathlib import Path

import httpx2
import pytest
from frozendict import frozendict
from hypothesis import given
from hypothesis import strategies as st

from course_cassettes import (
    CASSETTE_VERSION,
    CASSETTE_VERSIONS_READ,
    Cassette,
    CassetteCall,
    CassetteTransport,
    Httpx2RecordingTransport,
    RecordingTransport,
    cassette_to_json,
    dumps_cassette,
    load_cassette,
    loads_cassette,
    parse_cassette,
)
from course_http import (
    WIRE_EXTENSION,
    HttpRequest,
    RecordedRequest,
    RecordedResponse,
    VendorErrorCode,
)
from course_http.loopback import LoopbackServer
from course_provider_openai import MISTRAL, OpenAIChatModel, OpenAIConfig
from course_vendor import stream_judge_for
from tests.course_cassettes.replays import replay
from tests.course_provider_openai.bodies import chat_events, chunk
from tests.course_vendor.wire import SSE, sse_bytes
from tests.streams import GUARD_SECONDS

SECRET = "sk-a-real-looking-key-0123456789"
MISTRAL_BODY = sse_bytes(
    chat_events(
        chunk({"role": "assistant", "content": ""}),
        chunk({"content": [{"type": "text", "text": "42"}]}),
        chunk(
            {},
            finish_reason="stop",
            usage={"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
        ),
        "[DONE]",
    )
)


def request(host: str | None = None, wire: str | None = None) -> RecordedRequest:
    return RecordedRequest(
        "POST", "/v1/chat/completions", frozendict({"model": "m"}), frozendict(), host, wire
    )


def one_call(host: str | None = None, wire: str | None = None) -> Cassette:
    return Cassette([CassetteCall(request(host, wire), RecordedResponse(200, SSE, b"data: x\n\n"))])


def document(**keys: object) -> dict[str, object]:
    """The document of `one_call`, its request given ``keys`` (as written in a file)."""
    written = copy.deepcopy(cassette_to_json(one_call()))
    sent = written["calls"][0]["request"]  # type: ignore[index]
    sent.update(keys)
    return written


def test_a_cassette_is_written_in_format_2_with_the_host_and_wire_after_the_path() -> None:
    written = cassette_to_json(one_call("api.mistral.ai", "mistral"))

    assert (CASSETTE_VERSION, CASSETTE_VERSIONS_READ) == (2, (1, 2))
    assert written["course_cassette"] == 2
    sent = written["calls"][0]["request"]  # type: ignore[index]
    assert list(sent) == ["method", "path", "host", "wire", "headers", "body"]
    assert (sent["host"], sent["wire"]) == ("api.mistral.ai", "mistral")
    assert list(cassette_to_json(one_call())["calls"][0]["request"]) == [  # type: ignore[index]
        "method",
        "path",
        "headers",
        "body",
    ]


HOSTS = st.one_of(
    st.none(),
    st.from_regex(r"[a-z0-9-]{1,12}(\.[a-z0-9-]{1,12}){0,3}(:[0-9]{1,5})?", fullmatch=True),
    st.just("[::1]"),
    st.just("[2001:db8::1]:8443"),
)
WIRES = st.one_of(st.none(), st.from_regex(r"[a-z0-9][a-z0-9._-]{0,30}", fullmatch=True))


@given(HOSTS, WIRES)
def test_the_host_and_wire_round_trip_through_the_codec(host: str | None, wire: str | None) -> None:
    cassette = one_call(host, wire)

    again = loads_cassette(dumps_cassette(cassette)).unwrap()

    assert again == cassette
    (call,) = again.calls
    assert (call.request.host, call.request.wire) == (host, wire)


def test_a_format_1_cassette_still_loads_with_neither_and_may_not_hold_them() -> None:
    old = document()
    old["course_cassette"] = 1

    loaded = parse_cassette(old).unwrap()

    (call,) = loaded.calls
    assert (call.request.host, call.request.wire) == (None, None)
    refused = parse_cassette({**old, "calls": document(wire="mistral")["calls"]}).failure()
    assert refused.code is VendorErrorCode.HTTP_RECORDING_INVALID
    assert refused.message == "calls[0].request.wire: is not a key of the cassette format"


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("wire", 5, "must be a wire name (a string), not 5"),
        ("wire", None, "must be a wire name (a string), not null"),
        ("wire", ["mistral"], "must be a wire name (a string), not an array"),
        ("wire", {"name": "mistral"}, "must be a wire name (a string), not an object"),
        ("wire", "", "must be a wire name"),
        ("wire", "Mistral", "must be a wire name"),
        ("wire", "mistral\n", "must be a wire name"),
        ("wire", "m" * 101, "must be a wire name"),
        ("host", 5, "must be a host (a string), not 5"),
        ("host", "user:pw@api.mistral.ai", "must be a host[:port] alone"),
        ("host", "api.mistral.ai/v1", "must be a host[:port] alone"),
        ("host", "api.mistral.ai?key=x", "must be a host[:port] alone"),
        ("host", "https://api.mistral.ai", "must be a host[:port] alone"),
        ("host", "API.mistral.ai", "must be a host[:port] alone"),
        ("host", "", "must be a host[:port] alone"),
    ],
)
def test_a_hostile_host_or_wire_is_refused_naming_the_call(
    key: str, value: object, says: str
) -> None:
    problem = parse_cassette(document(**{key: value})).failure()

    assert problem.code is VendorErrorCode.HTTP_RECORDING_INVALID
    assert problem.message.startswith(f"calls[0].request.{key}: {says}")


class _Api:
    """A stand-in API for an httpx2 client: one Mistral stream for every request, each kept."""

    def __init__(self) -> None:
        self.seen: list[httpx2.Request] = []

    def __call__(self, sent: httpx2.Request) -> httpx2.Response:
        self.seen.append(sent)
        return httpx2.Response(200, headers=SSE, content=MISTRAL_BODY)


def _post(transport: Httpx2RecordingTransport, url: str, **extensions: object) -> httpx2.Response:
    with httpx2.Client(transport=transport) as client:
        sent = client.build_request("POST", url, json={"model": "m"}, extensions=extensions)
        response = client.send(sent)
        response.read()
        return response


def test_the_host_is_recorded_without_user_password_or_query(tmp_path: Path) -> None:
    path = tmp_path / "answer.json"
    api = _Api()
    with Httpx2RecordingTransport(path, inner=httpx2.MockTransport(api)) as recording:
        _post(recording, f"https://user:{SECRET}@API.Mistral.ai:8443/v1/chat/completions?key=x")

    text = path.read_text()
    (call,) = load_cassette(path).unwrap().calls
    assert (call.request.host, call.request.wire) == ("api.mistral.ai:8443", None)
    assert call.request.path == "/v1/chat/completions?key=[redacted]"
    assert SECRET not in text
    assert "user" not in text
    assert api.seen[0].url.host == "api.mistral.ai", "the call itself went where it was sent"


def test_a_loopback_host_is_recorded_without_its_port_so_a_new_recording_is_the_same_file(
    tmp_path: Path,
) -> None:
    files = []
    for port in (8000, 11434):
        path = tmp_path / f"{port}.json"
        with Httpx2RecordingTransport(path, inner=httpx2.MockTransport(_Api())) as recording:
            _post(recording, f"http://127.0.0.1:{port}/v1/chat/completions")
            _post(recording, f"http://[::1]:{port}/v1/chat/completions")
        files.append(path.read_text())

    assert files[0] == files[1]
    hosts = [call.request.host for call in loads_cassette(files[0]).unwrap().calls]
    assert hosts == ["127.0.0.1", "[::1]"]


def test_the_sender_s_wire_is_recorded_over_the_one_the_recording_was_told(tmp_path: Path) -> None:
    path = tmp_path / "answer.json"
    with Httpx2RecordingTransport(
        path, inner=httpx2.MockTransport(_Api()), wire="vllm"
    ) as recording:
        _post(recording, "https://gateway.example/v1/chat/completions")
        _post(
            recording, "https://gateway.example/v1/chat/completions", **{WIRE_EXTENSION: "mistral"}
        )

    wires = [call.request.wire for call in load_cassette(path).unwrap().calls]
    assert wires == ["vllm", "mistral"]


@pytest.mark.parametrize("value", [5, "", "Mistral", ["mistral"]])
def test_a_request_whose_wire_extension_is_no_wire_name_is_refused_unsent(
    tmp_path: Path, value: object
) -> None:
    api = _Api()
    path = tmp_path / "answer.json"
    with Httpx2RecordingTransport(path, inner=httpx2.MockTransport(api)) as recording:
        response = _post(recording, "https://api.mistral.ai/v1/chat/completions", course_wire=value)

    assert response.status_code == 400
    assert response.headers["x-should-retry"] == "false"
    assert response.json()["error"]["code"] == "HTTP_RECORDING_INVALID"
    assert api.seen == []
    (problem,) = recording.problems
    assert problem.code is VendorErrorCode.HTTP_RECORDING_INVALID
    assert problem.message.startswith("the request's course_wire extension must be a wire name")
    assert load_cassette(path).unwrap().calls == ()


@pytest.mark.parametrize(("wire", "error"), [(5, TypeError), ("Mistral", ValueError)])
def test_a_recording_told_no_wire_name_is_refused_when_built(
    tmp_path: Path, wire: object, error: type[Exception]
) -> None:
    with pytest.raises(error, match=r"^wire must be a wire name"):
        Httpx2RecordingTransport(tmp_path / "x.json", wire=wire)  # type: ignore[arg-type]


async def test_a_model_records_its_own_wire_and_the_replay_judges_the_call_by_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "answer.json"
    answered = RecordedResponse(200, SSE, MISTRAL_BODY)
    config = OpenAIConfig("mistral-small", base_url="http://placeholder.invalid")
    async with asyncio.timeout(GUARD_SECONDS), LoopbackServer([answered]) as server:
        recording = RecordingTransport(
            server.base_url, path, check=stream_judge_for, trust_env=False
        )
        async with recording:
            live = await replay(
                OpenAIChatModel(config, dialect=MISTRAL, api_key=SECRET, transport=recording)
            )

    assert live.error is None
    assert recording.exchange.problems == ()
    cassette = load_cassette(path).unwrap()
    (call,) = cassette.calls
    assert (call.request.host, call.request.wire) == ("127.0.0.1", "mistral")
    async with CassetteTransport(cassette, check=stream_judge_for) as transport:
        again = await replay(OpenAIChatModel(config, dialect=MISTRAL, transport=transport))
    assert again.error is None
    assert transport.exchange.judged == (0,)
    assert transport.exchange.problems == ()
    # The same recorded call without its wire is judged by its path: OpenAI's grammar.
    unnamed = Cassette([CassetteCall(replace(call.request, host=None, wire=None), call.response)])
    async with CassetteTransport(unnamed, check=stream_judge_for) as transport:
        await replay(OpenAIChatModel(config, dialect=MISTRAL, transport=transport))
    (problem,) = transport.exchange.problems
    assert problem.code is VendorErrorCode.VENDOR_INVALID_EVENT
    assert "judged on openai-chat" in problem.message


async def test_stream_events_refuses_a_wire_that_is_not_a_str() -> None:
    from course_http import RecordedTransport, stream_events

    async with RecordedTransport([RecordedResponse(200, SSE, b"data: x\n\n")]) as transport:
        events = stream_events(
            transport,
            HttpRequest("/v1/x", {}),
            vendor="v",
            describe_error=lambda _: None,
            wire=5,  # type: ignore[arg-type]
        )
        with pytest.raises(TypeError, match=r"^wire must be a str or None, not int$"):
            await events.__anext__()


def test_a_recorded_request_shows_where_it_went_in_its_repr_only_when_known() -> None:
    assert "host=" not in repr(request())
    assert repr(request("api.x.ai", "xai")).endswith(", host='api.x.ai', wire='xai')")
    assert json.dumps(cassette_to_json(one_call())).count("host") == 0
