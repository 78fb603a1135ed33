"""A key a vendor echoes never reaches a `VendorError`, whoever raised it and however it came.

Status errors, a vendor's ``error`` event inside a 200 stream, the client's
own exceptions: every failure of a vendor model's call is scrubbed of the
call's credentials, the same way, through a recorded transport and against a
real loopback server alike. The checks read every place an error shows
text: its message, ``str``, ``repr``, vendor fields and printed traceback.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import httpx2
import pytest

from course_http import (
    REDACTED,
    HttpTransport,
    RecordedResponse,
    RecordedTransport,
    Timeouts,
    VendorError,
    VendorErrorCode,
)
from course_http._error_scrub import scrub_error
from course_http._secrets import SHORTEST_CREDENTIAL
from course_http.loopback import LoopbackServer
from course_protocol.untrusted import SHOWN_LENGTH
from course_stream import AbortController
from tests.course_http.helpers import RigKind, collect, read_error
from tests.course_http.helpers import request as vendor_request
from tests.course_vendor.wires import KEY, REQUEST, AnyModel, Wire, every_wire, read_into
from tests.streams import GUARD_SECONDS

Code = VendorErrorCode
RIGS = pytest.mark.parametrize("kind", ["recorded", "live"])

# How much of the vendor's message every parser quotes in its own (the rest
# is cut, an ellipsis marking the cut): a key placed across the cut leaves
# only its start there.
CUT = SHOWN_LENGTH - 1


def assert_shows_no_key(error: BaseException) -> None:
    """No place ``error`` shows text holds the key, or a start of it long enough to be one."""
    assert isinstance(error, VendorError)
    shown = [
        str(error),
        repr(error),
        error.message,
        *error.args,
        error.vendor_message or "",
        error.vendor_type or "",
        error.vendor_code or "",
        error.provider_code or "",
        "".join(traceback.format_exception(error)),
    ]
    for text in shown:
        assert KEY[:SHORTEST_CREDENTIAL] not in text, text


def links_of(error: BaseException) -> tuple[object, object, bool]:
    """What ``error`` was raised from: its cause, its context, whether the context is hidden."""
    return (error.__cause__, error.__context__, error.__suppress_context__)


@asynccontextmanager
async def model_on(kind: RigKind, wire: Wire, *bodies: bytes) -> AsyncIterator[AnyModel]:
    """``wire``'s model with `KEY`, served ``bodies`` as 200 event streams in order."""
    responses = [RecordedResponse(200, wire.media, body) for body in bodies]
    if kind == "recorded":
        async with wire.model(api_key=KEY, transport=RecordedTransport(responses)) as model:
            yield model
        return
    async with (
        LoopbackServer(responses) as server,
        wire.model(api_key=KEY, base_url=server.base_url) as model,
    ):
        yield model


async def failure_of(model: AnyModel) -> VendorError:
    """The `VendorError` one call fails with: the same object from iteration and result."""
    stream = model.stream(REQUEST, AbortController().signal)
    with pytest.raises(VendorError) as from_iteration:
        await read_into(stream, [])
    with pytest.raises(VendorError) as from_result:
        await stream.result
    assert from_result.value is from_iteration.value
    return from_iteration.value


@RIGS
@every_wire
async def test_a_key_echoed_in_an_error_event_of_a_200_stream_is_scrubbed(
    kind: RigKind, wire: Wire
) -> None:
    bodies = wire.error_events(f"invalid api key {KEY}")
    async with asyncio.timeout(GUARD_SECONDS), model_on(kind, wire, *bodies) as model:
        for _body in bodies:
            error = await failure_of(model)

            assert (error.code, error.vendor, error.status) == (
                Code.VENDOR_ERROR_EVENT,
                wire.name,
                None,
            )
            assert error.vendor_message == f"invalid api key {REDACTED}"
            assert f"invalid api key {REDACTED}" in error.message
            assert_shows_no_key(error)


@RIGS
@every_wire
async def test_a_key_the_parsers_cut_inside_leaves_no_start_of_it_in_the_message(
    kind: RigKind, wire: Wire
) -> None:
    inside = 12  # characters of the key before the cut
    pad = "m" * (CUT - inside)
    bodies = wire.error_events(f"{pad}{KEY} is not a key")
    async with asyncio.timeout(GUARD_SECONDS), model_on(kind, wire, *bodies) as model:
        for _body in bodies:
            error = await failure_of(model)

            assert error.code is Code.VENDOR_ERROR_EVENT
            assert error.vendor_message == f"{pad}{REDACTED} is not a key"
            assert f"{pad}{REDACTED}" in error.message, "the cut start of the key is scrubbed"
            assert_shows_no_key(error)


@RIGS
@every_wire
async def test_a_status_error_and_an_error_event_are_scrubbed_alike(
    kind: RigKind, wire: Wire
) -> None:
    echoed = f"invalid api key {KEY}"
    status = RecordedResponse(
        401, {"content-type": "application/json"}, wire.error_body("e", echoed)
    )
    event = RecordedResponse(200, wire.media, wire.error_events(echoed)[0])
    async with asyncio.timeout(GUARD_SECONDS):
        if kind == "recorded":
            transport: HttpTransport = RecordedTransport([status, event])
            async with wire.model(api_key=KEY, transport=transport) as model:
                errors = [await failure_of(model), await failure_of(model)]
        else:
            async with (
                LoopbackServer([status, event]) as server,
                wire.model(api_key=KEY, base_url=server.base_url) as model,
            ):
                errors = [await failure_of(model), await failure_of(model)]

    assert [error.code for error in errors] == [Code.HTTP_UNAUTHORIZED, Code.VENDOR_ERROR_EVENT]
    assert [error.vendor_message for error in errors] == [f"invalid api key {REDACTED}"] * 2
    for error in errors:
        assert_shows_no_key(error)


@every_wire
async def test_a_key_read_from_the_environment_is_scrubbed_too(
    wire: Wire, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(wire.key_variable, KEY)
    [body, *_others] = wire.error_events(f"invalid api key {KEY}")
    async with (
        asyncio.timeout(GUARD_SECONDS),
        LoopbackServer([RecordedResponse(200, wire.media, body)]) as server,
        wire.model(base_url=server.base_url) as model,
    ):
        error = await failure_of(model)

    assert server.requests[0].header(wire.key_header) == wire.key_value(KEY)
    assert error.vendor_message == f"invalid api key {REDACTED}"
    assert_shows_no_key(error)


class _FailsSaying(httpx2.AsyncBaseTransport):
    """An httpx2 transport that fails every request with ``error``, as a client or proxy may."""

    def __init__(self, error: Callable[[httpx2.Request], httpx2.HTTPError]) -> None:
        self._error = error

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        raise self._error(request)


class _FailingTransport(HttpTransport):
    def __init__(self, error: Callable[[httpx2.Request], httpx2.HTTPError]) -> None:
        self._failure = _FailsSaying(error)
        super().__init__("http://fails.invalid", timeouts=Timeouts(), trust_env=False)

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return self._failure


async def test_a_client_error_that_shows_the_key_is_scrubbed_and_not_chained() -> None:
    def saying_the_key(request: httpx2.Request) -> httpx2.HTTPError:
        return httpx2.ConnectError(f"proxy refused {request.headers['x-api-key']}")

    async with _FailingTransport(saying_the_key) as transport:
        with pytest.raises(VendorError) as raised:
            await collect(transport, vendor_request())

    error = raised.value
    assert error.code is Code.HTTP_CONNECT_FAILED
    assert error.message == f"could not connect: proxy refused {REDACTED}"
    assert links_of(error) == (None, None, True), "the original shows the key"
    assert_shows_no_key(error)


async def test_a_client_error_that_shows_no_key_stays_the_cause() -> None:
    async with _FailingTransport(lambda request: httpx2.ConnectError("refused")) as transport:
        with pytest.raises(VendorError) as raised:
            await collect(transport, vendor_request())

    error = raised.value
    assert error.code is Code.HTTP_CONNECT_FAILED
    assert type(error.__cause__) is httpx2.ConnectError
    assert str(error.__cause__) == "refused"


def test_scrubbing_an_error_keeps_the_object_and_scrubs_its_vendor_error_causes() -> None:
    cause = VendorError(Code.VENDOR_INVALID_EVENT, f"event 0: {KEY}", vendor="v")
    error = VendorError(
        Code.VENDOR_ERROR_EVENT,
        f"event 1: {KEY}",
        vendor="v",
        vendor_type=f"t {KEY}",
        vendor_code=KEY,
        vendor_message=f"m {KEY}",
    )
    error.__cause__ = cause
    error.add_note(f"note {KEY}")

    assert scrub_error(error, (KEY,)) is error
    assert (error.message, error.args, error.vendor_type, error.vendor_code) == (
        f"event 1: {REDACTED}",
        (f"event 1: {REDACTED}",),
        f"t {REDACTED}",
        REDACTED,
    )
    assert (error.vendor_message, error.provider_code, error.__notes__) == (
        f"m {REDACTED}",
        REDACTED,
        [f"note {REDACTED}"],
    )
    assert error.__cause__ is cause, "a VendorError is scrubbed in place, and kept"
    assert cause.message == f"event 0: {REDACTED}"
    assert_shows_no_key(error)


def test_a_foreign_exception_deeper_in_the_chain_that_shows_the_key_is_cut_off() -> None:
    middle = VendorError(Code.HTTP_STREAM_INTERRUPTED, "cut", vendor="v")
    middle.__context__ = OSError(f"reset while sending {KEY}")
    error = VendorError(Code.HTTP_STREAM_INTERRUPTED, "outer", vendor="v")
    error.__cause__ = middle

    scrub_error(error, (KEY,))

    assert error.__cause__ is middle
    assert links_of(middle) == (None, None, True)
    assert_shows_no_key(error)


def test_the_vendors_own_masked_echo_keeps_its_words_and_a_cut_start_goes_from_the_message() -> (
    None
):
    masked = f"Incorrect API key provided: {KEY[:SHORTEST_CREDENTIAL]}****{KEY[-4:]}"
    error = VendorError(
        Code.HTTP_UNAUTHORIZED,
        f"HTTP 401: {masked[:36]}...",
        vendor="v",
        vendor_message=masked,
    )

    scrub_error(error, (KEY,))

    assert error.vendor_message == masked, "the vendor's words, whole: no key in them"
    assert error.message == f"HTTP 401: Incorrect API key provided: {REDACTED}..."


def test_a_short_key_is_no_credential_to_scrub_from_an_error() -> None:
    error = VendorError(Code.VENDOR_ERROR_EVENT, "max_tokens: x is not a key", vendor="v")

    scrub_error(error, ("x",))

    assert error.message == "max_tokens: x is not a key"


async def test_stream_events_scrubs_a_status_error_of_a_request_it_was_given() -> None:
    body = json.dumps({"error": {"type": "authentication_error", "message": f"bad {KEY}"}})
    served = RecordedResponse(401, {"content-type": "application/json"}, body.encode())
    async with RecordedTransport([served]) as transport:
        with pytest.raises(VendorError) as raised:
            await collect(transport, vendor_request({"x-api-key": KEY}), describe_error=read_error)

    assert raised.value.vendor_message == f"bad {REDACTED}"
    assert_shows_no_key(raised.value)
