"""The sendable-transcript check runs once, in `VendorModel.stream`, before any body is built.

Every vendor refuses the same transcripts with the same message (the kit's
`check_sendable`); a vendor's body conversion is never called for one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from course_http import RecordedTransport, VendorError, VendorErrorBody, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
)
from course_vendor import (
    VendorConfig,
    VendorModel,
    VendorPlay,
    VendorWire,
    check_sendable,
    vendor_names,
)
from tests.course_cassettes.replays import replay
from tests.course_vendor.wires import WIRES, Wire, every_wire

EMPTY = CourseModelRequest("r", ())
UNANSWERED = CourseModelRequest(
    "r",
    (
        CourseUserMessage("u", "add"),
        CourseAssistantMessage("a", (CourseToolCall("call-1", "add", {}),)),
    ),
)
ORPHAN_RESULT = CourseModelRequest(
    "r",
    (
        CourseUserMessage("u", "add"),
        CourseToolResultMessage("t", "call-9", "add", "42"),
    ),
)
REFUSED = {"empty": EMPTY, "unanswered-call": UNANSWERED, "orphan-result": ORPHAN_RESULT}
refused_request = pytest.mark.parametrize("request_", list(REFUSED.values()), ids=list(REFUSED))


@dataclass(frozen=True, slots=True)
class CountingConfig(VendorConfig):
    base_url: str = "https://counting.invalid"


class ModelThatCountsBodies(VendorModel[CountingConfig]):
    """A vendor model whose body conversion counts its calls and must never run here."""

    __slots__ = ("bodies",)

    def __init__(self) -> None:
        wire = VendorWire("counting", "COUNTING_API_KEY", "/v0/count", _no_body)
        super().__init__(CountingConfig("m"), wire, api_key=None, transport=RecordedTransport([]))
        self.bodies = 0

    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        self.bodies += 1
        return {}

    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        return {}

    def _parser(self, request_id: str) -> VendorPlay:
        raise AssertionError("nothing is sent, so nothing is parsed")


def _no_body(body: bytes) -> VendorErrorBody | None:
    return None


def _expected(request: CourseModelRequest, vendor: str) -> VendorError:
    with pytest.raises(VendorError) as caught:
        check_sendable(request, vendor)
    return caught.value


@refused_request
async def test_the_check_runs_before_the_vendors_body_is_built(
    request_: CourseModelRequest,
) -> None:
    model = ModelThatCountsBodies()

    played = await replay(model, request_)

    assert played.error is not None
    assert played.error.code is VendorErrorCode.VENDOR_INVALID_REQUEST
    assert played.error.message == _expected(request_, "counting").message
    assert model.bodies == 0
    assert played.chunks == ()


@every_wire
@refused_request
async def test_every_vendor_refuses_an_unsendable_transcript_with_the_kits_message(
    wire: Wire, request_: CourseModelRequest
) -> None:
    async with wire.recorded(wire.text_body("unused")) as transport:
        played = await replay(wire.model(transport=transport), request_)

    error = played.error
    assert error is not None
    assert (error.code, error.vendor) == (VendorErrorCode.VENDOR_INVALID_REQUEST, wire.name)
    assert error.message == _expected(request_, wire.name).message
    assert transport.requests == ()


def test_the_messages_name_what_is_wrong() -> None:
    assert _expected(EMPTY, "v").message == (
        "messages: the transcript is empty; there is nothing to answer"
    )
    assert _expected(UNANSWERED, "v").message.startswith("messages[1]: MISSING_TOOL_RESULT: ")
    assert _expected(ORPHAN_RESULT, "v").message.startswith("messages[1]: ")
    assert {wire.name for wire in WIRES} == set(vendor_names())
