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


@pytest.mark.parametrize(
    ("api", "shape"), [(api, shape) for api in APIS for shape in shapes_of(api)]
)
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


async def test_a_reasoning_body_streams_its_words_as_reasoning_and_a_pass_checks_them() -> None:
    body = vendor_body("anthropic-messages", "reasoning", 9)
    assert shapes_of("anthropic-messages") == ("text", "tool", "reasoning")
    assert body.expected == " lorem ipsum dolor sit amet consectetur adipiscing elit lorem"
    assert b'"thinking_delta"' in body.body
    assert b'"text_delta"' not in body.body
    assert await prepare_ours(body)()() == 9
    wrong = VendorBody(body.api, body.shape, body.deltas, body.body, body.events, " lorem")
    with pytest.raises(AssertionError, match="anthropic-messages reasoning: saw 9 of 9"):
        await prepare_ours(wrong)()()


def test_only_the_wires_with_a_reasoning_body_have_the_reasoning_shape() -> None:
    assert shapes_of("gemini") == ("text", "tool", "reasoning")
    for api in ("openai-chat", "azure-openai-chat"):
        assert "reasoning" not in shapes_of(api)
        with pytest.raises(ValueError, match=f"{api} has no reasoning body"):
            vendor_body(api, "reasoning", 9)


async def test_our_reasoning_pass_counts_reasoning_deltas_and_checks_the_reasoning_text() -> None:
    body = vendor_body("gemini", "reasoning", 9)
    assert body.expected is body.text
    assert body.events == 9

    assert await prepare_ours(body)()() == 9
    wrong = VendorBody(body.api, body.shape, body.deltas, body.body, body.events, "other")
    with pytest.raises(AssertionError, match="gemini reasoning: saw 9 of 9"):
        await prepare_ours(wrong)()()
