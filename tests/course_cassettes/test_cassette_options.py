"""The options a model sends are recorded with its request and matched on replay like the rest.

Each wire records one call with its options (`Wire.options`) through a
`RecordingTransport` to the loopback server; the same options replay from
the cassette, and one changed option is a request mismatch naming its JSON
path and both values.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from course_cassettes import CassetteTransport, load_cassette
from course_http import RecordedResponse, VendorErrorCode
from course_protocol import thaw_json
from tests.course_cassettes.cassettes import REAL_LOOKING_KEY, recorded_through_loopback
from tests.course_cassettes.replays import replay
from tests.course_vendor.wires import TOOLS, Wire, every_wire
from tests.streams import GUARD_SECONDS


async def record_with_options(wire: Wire, path: Path) -> None:
    served = [RecordedResponse(200, wire.media, wire.text_body("42"))]
    async with (
        asyncio.timeout(GUARD_SECONDS),
        recorded_through_loopback(served, path) as (_server, transport),
    ):
        config = {"tools": TOOLS, **wire.options}
        live = await replay(wire.build(config, transport=transport, api_key=REAL_LOOKING_KEY))
    assert live.response is not None


@every_wire
async def test_recorded_options_replay_and_a_changed_one_is_a_mismatch_naming_its_path(
    wire: Wire, tmp_path: Path
) -> None:
    path = tmp_path / "options.json"
    await record_with_options(wire, path)
    cassette = load_cassette(path).unwrap()
    [recorded] = cassette.calls
    recorded_body = thaw_json(recorded.request.body)
    assert isinstance(recorded_body, dict)
    assert {key: recorded_body.get(key) for key in wire.options_body} == dict(wire.options_body)

    async with CassetteTransport(cassette) as same:
        replayed = await replay(wire.build({"tools": TOOLS, **wire.options}, transport=same))
    option, value, line = wire.changed_option
    async with CassetteTransport(cassette) as changed:
        config = {"tools": TOOLS, **wire.options, option: value}
        failed = await replay(wire.build(config, transport=changed))

    assert replayed.response is not None
    assert failed.error is not None
    assert failed.error.code is VendorErrorCode.HTTP_REQUEST_MISMATCH
    assert failed.error.message == f"call 1 differs from the recorded calls[0]: {line}"
