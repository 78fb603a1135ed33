"""The vendors group's timed passes check their result against one made before the clock starts."""

from __future__ import annotations

from typing import NoReturn

import pytest

from benchmarks._vendor_bodies import APIS, VendorBody, shapes_of, vendor_body
from benchmarks._vendor_ours import prepare_ours
from benchmarks.peers import PeerNotInstalledError
from benchmarks.vendor_peers import VENDOR_PEERS


def _parsed_in_the_pass(_body: VendorBody) -> NoReturn:
    raise AssertionError("the timed pass parsed the expected arguments")


@pytest.mark.parametrize("api", APIS)
def test_a_body_holds_what_a_reader_must_end_with_made_once(api: str) -> None:
    text = vendor_body(api, "text", 9)
    assert text.expected is text.text
    tool = vendor_body(api, "tool", 9)
    assert tool.expected == tool.arguments
    assert tool.expected is tool.expected
    assert tool.expected is not tool.arguments


@pytest.mark.parametrize(("api", "shape"), [(a, s) for a in APIS for s in shapes_of(a)])
async def test_our_timed_pass_never_parses_the_expected_result(
    api: str, shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = vendor_body(api, shape, 9)  # type: ignore[arg-type]
    run = prepare_ours(body)()
    monkeypatch.setattr(VendorBody, "arguments", property(_parsed_in_the_pass))
    assert await run() == 9


async def test_the_gemini_sdk_timed_pass_never_parses_the_expected_arguments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = vendor_body("gemini", "tool", 9)
    (peer,) = [peer for peer in VENDOR_PEERS if peer.api == "gemini"]
    try:
        run = peer.prepare(body)()
    except PeerNotInstalledError as error:
        pytest.skip(str(error))
    monkeypatch.setattr(VendorBody, "arguments", property(_parsed_in_the_pass))
    assert await run() == 9


async def test_our_timed_pass_still_refuses_arguments_that_differ() -> None:
    body = vendor_body("gemini", "tool", 9)
    wrong = VendorBody(body.api, body.shape, body.deltas, body.body, body.events, '{"text": "x"}')
    assert wrong.expected == {"text": "x"}
    with pytest.raises(AssertionError, match="gemini tool: saw 9 of 9"):
        await prepare_ours(wrong)()()
