"""The conformance kit over each vendor model, replayed from our own bodies with sockets blocked.

Answers, a Tool call and bodies that fail (cut before the terminal, an HTTP
error, no event stream at all) must all conform: a failure is fine as long
as iteration and the result agree. Cut into single bytes, the body yields to
the loop between chunks, so the kit's abort after the first chunk lands
mid-stream.
"""

from __future__ import annotations

import pytest

from course_conformance import Scenario, assert_conforms
from course_http import Chunking, RecordedResponse, RecordedTransport, VendorError, VendorErrorCode
from tests.course_vendor.wires import JSON, REQUEST, AnyModel, Wire, every_wire


def replaying(wire: Wire, response: RecordedResponse, chunking: Chunking) -> AnyModel:
    # A fresh transport per scenario: each plays its one response once. A
    # recorded transport holds no socket, so leaving it to the collector is safe.
    return wire.model(transport=RecordedTransport([response], chunking=chunking))


def ok(wire: Wire, body: bytes) -> RecordedResponse:
    return RecordedResponse(200, wire.media, body)


@every_wire
@pytest.mark.parametrize("chunking", ["whole", "bytes", "random"])
@pytest.mark.parametrize("answer", ["text", "tool"])
async def test_a_replayed_answer_conforms(wire: Wire, chunking: Chunking, answer: str) -> None:
    body = wire.text_body("The sum ", "is ", "42.") if answer == "text" else wire.tool_body()

    report = await assert_conforms(lambda: replaying(wire, ok(wire, body), chunking), REQUEST)

    complete = report.result_for(Scenario.COMPLETE)
    assert complete.response is not None
    assert complete.chunks
    if chunking == "bytes":
        assert report.result_for(Scenario.ABORT_AFTER_FIRST_CHUNK).abort_landed


@every_wire
async def test_a_body_cut_before_its_terminal_conforms_and_fails_every_time(wire: Wire) -> None:
    # Cut after the first event: on every wire the terminal comes later (on Chat,
    # what follows the finish is optional, so a cut before the last event is whole).
    cut = wire.framed(wire.text_events("The sum ", "is 42.")[:1])

    report = await assert_conforms(lambda: replaying(wire, ok(wire, cut), "bytes"), REQUEST)

    error = report.result_for(Scenario.COMPLETE).error
    assert isinstance(error, VendorError)
    assert error.code is VendorErrorCode.VENDOR_MISSING_TERMINAL


@every_wire
async def test_an_http_error_conforms_and_fails_every_time(wire: Wire) -> None:
    response = RecordedResponse(429, JSON, wire.error_body("rate_limit_error", "slow down"))

    report = await assert_conforms(lambda: replaying(wire, response, "whole"), REQUEST)

    error = report.result_for(Scenario.COMPLETE).error
    assert isinstance(error, VendorError)
    assert (error.code, error.vendor_type) == (
        VendorErrorCode.HTTP_RATE_LIMITED,
        "rate_limit_error",
    )
