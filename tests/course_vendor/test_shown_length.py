"""Every vendor quotes a huge vendor text in its messages by the one rule, `untrusted.shown`."""

from __future__ import annotations

import pytest

from course_http import RecordedResponse, RecordedTransport, VendorError
from course_protocol.untrusted import SHOWN_LENGTH, shown
from course_stream import AbortController
from tests.course_vendor.wires import JSON, KEY, REQUEST, Wire, every_wire, read_into

HUGE = "".join(f"{n:08d} " for n in range(2_000))


@every_wire
async def test_a_huge_vendor_message_is_quoted_cut_and_kept_whole_in_its_field(
    wire: Wire,
) -> None:
    transport = RecordedTransport([RecordedResponse(400, JSON, wire.error_body("bad", HUGE))])
    model = wire.model(api_key=KEY, transport=transport)
    stream = model.stream(REQUEST, AbortController().signal)
    with pytest.raises(VendorError) as failed:
        await read_into(stream, [])

    error = failed.value
    assert error.vendor_message == HUGE
    assert shown(HUGE) in error.message
    assert HUGE[:SHOWN_LENGTH] not in error.message
    assert len(error.message) < 2 * SHOWN_LENGTH
