"""A key sent in the query (``?key=``, as Gemini's clients send it) is shown nowhere.

Not in a status error that echoes it, not in httpx2's request line (INFO on
every call), not in the loopback server's access log: each masks the value
of every `MASKED_QUERY_KEYS` parameter, and the transports scrub the value
itself from what the server says.
"""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from uvicorn.logging import AccessFormatter

from course_http import REDACTED, HttpRequest, RecordedResponse, VendorError, VendorErrorCode
from course_http._secrets import masked_path, query_credentials, request_secrets
from tests.course_http.helpers import SSE, RigKind, collect, rig
from tests.streams import GUARD_SECONDS

KEY = "AIzaSyQueryKey-0123456789abcdefSECRET"
ESCAPED = KEY.replace("-", "%2D")
JSON = {"content-type": "application/json"}


def echoing(status: int) -> RecordedResponse:
    """An error body that repeats the key, as a vendor's message may."""
    body = {"error": {"type": "invalid_argument", "message": f"API key not valid: {KEY}"}}
    return RecordedResponse(status, JSON, json.dumps(body).encode())


@pytest.mark.parametrize("kind", ["recorded", "live"])
@pytest.mark.parametrize("written", [KEY, ESCAPED], ids=["plain", "percent-encoded"])
async def test_a_status_error_echoing_a_query_key_is_scrubbed(kind: RigKind, written: str) -> None:
    call = HttpRequest(f"/v1beta/models/m:stream?alt=sse&key={written}", {"q": 1})
    async with asyncio.timeout(GUARD_SECONDS), rig(kind, [echoing(400)]) as served:
        with pytest.raises(VendorError) as raised:
            await collect(served.transport, call)

    error = raised.value
    assert (error.code, error.status) == (VendorErrorCode.HTTP_REQUEST_REJECTED, 400)
    assert error.vendor_message == f"API key not valid: {REDACTED}"
    for shown in (str(error), repr(error), error.message):
        assert KEY not in shown
        assert written not in shown


def _shows(record: logging.LogRecord, secret: str) -> bool:
    texts = (record.getMessage(), str(record.msg), repr(record.args))
    return any(secret in text for text in texts)


@pytest.mark.parametrize("name", ["key", "api%5Fkey", "Access_Token"])
async def test_no_log_record_of_a_live_call_holds_a_query_key(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    target = f"/v1/x?alt=sse&{name}={KEY}"
    async with (
        asyncio.timeout(GUARD_SECONDS),
        rig("live", [RecordedResponse(200, SSE, b"data: ok\n\n")]) as served,
    ):
        events = await collect(served.transport, HttpRequest(target, {"q": 1}))
        assert served.server is not None
        [received] = served.server.requests

    assert [event.data for event in events] == ["ok"]
    assert received.path == target, "the key itself is sent"
    masked = f"/v1/x?alt=sse&{name}={REDACTED}"
    [client_line] = [record for record in caplog.records if record.name == "httpx2"]
    assert client_line.levelno == logging.INFO
    assert client_line.getMessage() == (
        f'HTTP Request: POST {served.transport.base_url}{masked} "HTTP/1.1 200 OK"'
    )
    [access_line] = [record for record in caplog.records if record.name == "uvicorn.access"]
    # uvicorn's own formatter unpacks the five arguments: they stay five.
    assert masked in AccessFormatter(use_colors=False).format(access_line)
    assert {record.name for record in caplog.records} >= {"httpx2", "uvicorn.access"}
    for record in caplog.records:
        assert not _shows(record, KEY), record
    assert KEY not in caplog.text


def test_the_query_keys_of_a_path_a_url_or_a_log_line_are_found_and_masked() -> None:
    line = f'HTTP Request: POST http://h/v1/x?key={KEY}&alt=sse&API%5FKEY={ESCAPED} "HTTP/1.1 200"'

    assert query_credentials(line) == [("key", KEY), ("API%5FKEY", ESCAPED)]
    assert masked_path(line) == (
        f"HTTP Request: POST http://h/v1/x?key={REDACTED}&alt=sse&API%5FKEY={REDACTED} "
        '"HTTP/1.1 200"'
    )
    assert masked_path("/v1/x?monkey=1&key") == "/v1/x?monkey=1&key", "no key parameter"
    secrets = request_secrets({}, f"/v1/x?key={ESCAPED}")
    clear = [secret for secret in secrets if secret.startswith("AIzaSy")]
    assert clear == [ESCAPED, KEY], "as written and percent-decoded (the rest are base64 forms)"
