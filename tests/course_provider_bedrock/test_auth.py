"""Signing: botocore's SigV4 as we call it, the Bedrock API key, and where signing material goes."""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import ReadOnlyCredentials

from course_cassettes import RecordingTransport
from course_http import RecordedResponse, VendorError, VendorErrorCode
from course_http.loopback import LoopbackServer
from course_protocol import CourseModelRequest, CourseUserMessage
from course_provider_bedrock import (
    SIGV4_EXTRA,
    BedrockConfig,
    BedrockConverseModel,
    signed_headers,
)
from course_stream import AbortController
from tests.children import child_env
from tests.course_provider_bedrock import bodies, frames

SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
VANILLA = ReadOnlyCredentials("AKIDEXAMPLE", SECRET, None)
TOKEN = "IQoJb3JpZ2luX2VjEXAMPLESESSIONTOKEN0123456789"
REQUEST = CourseModelRequest("r", (CourseUserMessage("u", "hi"),))
GUARD_SECONDS = 10


@pytest.fixture
def test_suite_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """botocore's clock at the AWS test suite's moment, 2015-08-30 12:36:00 UTC."""
    moment = datetime.datetime(2015, 8, 30, 12, 36, 0)
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda *_: moment)


@pytest.mark.usefixtures("test_suite_clock")
def test_our_call_of_botocore_gives_the_published_get_vanilla_signature() -> None:
    # The AWS SigV4 test suite's get-vanilla: GET / on example.amazonaws.com,
    # service "service", us-east-1, AKIDEXAMPLE, at 20150830T123600Z.
    headers = signed_headers(
        "https://example.amazonaws.com/",
        b"",
        {},
        credentials=VANILLA,
        region="us-east-1",
        method="GET",
        service="service",
    )

    assert headers == {
        "x-amz-date": "20150830T123600Z",
        "authorization": "AWS4-HMAC-SHA256 "
        "Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
        "SignedHeaders=host;x-amz-date, "
        "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    }


@pytest.mark.usefixtures("test_suite_clock")
def test_a_session_token_is_sent_and_signed() -> None:
    headers = signed_headers(
        "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream",
        b"{}",
        {},
        credentials=ReadOnlyCredentials("AKIDEXAMPLE", SECRET, TOKEN),
        region="us-east-1",
    )

    assert headers["x-amz-security-token"] == TOKEN
    assert "/20150830/us-east-1/bedrock/aws4_request, " in headers["authorization"]
    assert "SignedHeaders=host;x-amz-date;x-amz-security-token, " in headers["authorization"]


def test_botocore_s_records_of_what_it_signs_reach_no_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="botocore.auth")
    credentials = ReadOnlyCredentials("AKIDEXAMPLE", SECRET, TOKEN)

    signed_headers("https://example.amazonaws.com/", b"", {}, credentials=credentials, region="x")

    assert TOKEN not in caplog.text
    assert "CanonicalRequest" not in caplog.text


def answered() -> RecordedResponse:
    return RecordedResponse(200, frames.STREAM, frames.body_of(bodies.text_body("hi")))


async def called(model: BedrockConverseModel) -> object:
    stream = model.stream(REQUEST, AbortController().signal)
    async for _ in stream:
        pass
    return await stream.result


async def test_a_call_without_a_key_is_signed_with_the_chain_s_credentials(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_SESSION_TOKEN", TOKEN)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([answered()]) as server,
        BedrockConverseModel(
            BedrockConfig("m.x-v1:0", base_url=server.base_url, region="eu-west-1")
        ) as model,
    ):
        await called(model)

    (received,) = server.requests
    authorization = received.header("authorization")
    assert authorization is not None
    assert authorization.startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
    assert "/eu-west-1/bedrock/aws4_request, " in authorization
    assert received.header("x-amz-security-token") == TOKEN
    date = received.header("x-amz-date")
    assert date is not None
    # The server's check: botocore signs what arrived again, at the same moment.
    again = AWSRequest(method="POST", url=server.base_url + received.path, data=received.body)
    again.context["timestamp"] = date
    signer = SigV4Auth(ReadOnlyCredentials("AKIDEXAMPLE", SECRET, TOKEN), "bedrock", "eu-west-1")
    again.headers["X-Amz-Date"] = date
    again.headers["X-Amz-Security-Token"] = TOKEN
    expected = signer.signature(
        signer.string_to_sign(again, signer.canonical_request(again)), again
    )
    assert authorization.endswith(f"Signature={expected}")


async def test_a_bedrock_api_key_is_a_bearer_token_and_nothing_is_signed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key-0123456789")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([answered()]) as server,
        BedrockConverseModel(BedrockConfig("m", base_url=server.base_url)) as model,
    ):
        await called(model)

    (received,) = server.requests
    assert received.header("authorization") == "Bearer bedrock-api-key-0123456789"
    assert received.header("x-amz-date") is None


async def test_without_a_key_or_credentials_nothing_is_sent() -> None:
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([answered()]) as server,
        BedrockConverseModel(BedrockConfig("m", base_url=server.base_url)) as model,
    ):
        stream = model.stream(REQUEST, AbortController().signal)
        with pytest.raises(VendorError) as failed:
            await stream.result

    assert failed.value.code is VendorErrorCode.VENDOR_MISSING_API_KEY
    assert "AWS_BEARER_TOKEN_BEDROCK" in str(failed.value)
    assert server.requests == ()


async def test_without_botocore_a_call_with_credentials_fails_naming_the_sigv4_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    # A module set to None in sys.modules cannot be imported: botocore, as if not installed.
    for module in ("botocore", "botocore.session", "botocore.auth", "botocore.awsrequest"):
        monkeypatch.setitem(sys.modules, module, None)
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([answered()]) as server,
        BedrockConverseModel(BedrockConfig("m", base_url=server.base_url)) as model,
    ):
        stream = model.stream(REQUEST, AbortController().signal)
        with pytest.raises(VendorError) as failed:
            await stream.result

    assert failed.value.code is VendorErrorCode.VENDOR_MISSING_API_KEY
    assert failed.value.vendor == "bedrock-converse"
    assert SIGV4_EXTRA == "course-provider-bedrock[sigv4]"
    assert SIGV4_EXTRA in failed.value.message
    assert "AWS_BEARER_TOKEN_BEDROCK" in failed.value.message
    assert server.requests == ()


def test_the_grammar_framing_and_a_replay_import_no_botocore() -> None:
    script = (
        "import sys\n"
        "from course_provider_bedrock import CONVERSE_PLUGIN, BedrockConverseModel\n"
        "from course_vendor import judge_body\n"
        "judge_body(CONVERSE_PLUGIN, b'')\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'botocore'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=60,
        check=True,
    )

    assert done.stdout == "[]\n"


async def test_signing_material_reaches_neither_a_cassette_nor_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_SESSION_TOKEN", TOKEN)
    echoed = json.dumps({"message": f"The security token {TOKEN} is invalid"}).encode()
    refused = RecordedResponse(403, {"content-type": "application/json"}, echoed)
    cassette = tmp_path / "signed.json"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([answered(), refused]) as server,
    ):
        async with (
            RecordingTransport(server.base_url, cassette) as transport,
            BedrockConverseModel(BedrockConfig("m"), transport=transport) as model,
        ):
            await called(model)
            stream = model.stream(REQUEST, AbortController().signal)
            with pytest.raises(VendorError) as failed:
                await stream.result
        signed = dict(server.requests[0].headers)

    text = cassette.read_text()
    assert signed["x-amz-security-token"] == TOKEN
    signature = signed["authorization"].rpartition("=")[2]
    for value in (TOKEN, signed["authorization"], signature, signed["x-amz-date"]):
        assert value not in text
    for name in ("authorization", "x-amz-security-token", "x-amz-date"):
        assert name not in text.lower()
    error = failed.value
    assert error.code is VendorErrorCode.HTTP_UNAUTHORIZED
    for shown in (str(error), repr(error), error.vendor_message or ""):
        assert TOKEN not in shown
    assert "[redacted]" in (error.vendor_message or "")
    with pytest.raises(ValueError, match="credentials"):
        RecordingTransport(server.base_url, cassette, keep_headers=["X-Amz-Security-Token"])
