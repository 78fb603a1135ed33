"""The sendable-transcript check runs once, in `VendorModel.stream`, before any body is built.

Every vendor refuses the same transcripts with the same message (the kit's
`check_sendable`); a vendor's body conversion is never called for one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from course_http import RecordedTransport, VendorError, VendorErrorBody, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseDocumentBlock,
    CourseImageBlock,
    CourseModelRequest,
    CourseOpaque,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    CourseVendorToolBlock,
)
from course_vendor import (
    CONTENT_KINDS,
    ContentSupport,
    MediaRule,
    VendorConfig,
    VendorModel,
    VendorPlay,
    VendorWire,
    check_sendable,
    load_vendor,
    own_opaque,
    plain_blocks,
    plain_content,
    sent_blocks,
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


IMAGE = CourseImageBlock("image/png", data=b"\x89PNG")


def signed(wire: str) -> CourseOpaque:
    """Opaque data the wire ``wire`` produced."""
    return CourseOpaque(wire, {"signature": "c2ln"})


def asked(*blocks: Any) -> CourseModelRequest:
    """A request whose user message gives ``blocks``."""
    return CourseModelRequest("r", (CourseUserMessage("u", blocks),))


def answered(*blocks: Any) -> CourseModelRequest:
    """A request whose assistant message (answered, if it calls) holds ``blocks``."""
    calls = [block for block in blocks if type(block) is CourseToolCall]
    results = [CourseToolResultMessage(f"t-{c.id}", c.id, c.name, "42") for c in calls]
    return CourseModelRequest(
        "r",
        (
            CourseUserMessage("u", "add"),
            CourseAssistantMessage("a", blocks),
            *results,
            CourseUserMessage("u-2", "thanks"),
        ),
    )


def rich(wire: str) -> dict[str, tuple[CourseModelRequest, str, str]]:
    """Each kind beyond the plain transcript, as the wire ``wire`` itself produced it."""
    own = signed(wire)
    return {
        "text-blocks": (asked(CourseTextBlock("hi")), "messages[0].content[0]", "text"),
        "image": (asked(CourseTextBlock("see:"), IMAGE), "messages[0].content[0]", "text"),
        "document": (
            CourseModelRequest(
                "r",
                (
                    CourseUserMessage("u", "read"),
                    CourseAssistantMessage("a", (CourseToolCall("c", "read", {}),)),
                    CourseToolResultMessage(
                        "t", "c", "read", (CourseDocumentBlock("text/plain", data=b"x"),)
                    ),
                ),
            ),
            "messages[2].content[0]",
            "document",
        ),
        "reasoning": (
            answered(CourseReasoningBlock("hmm", opaque=own), CourseTextBlock("42")),
            "messages[1].content[0]",
            "reasoning",
        ),
        "vendor-tool": (
            answered(CourseTextBlock("x"), CourseVendorToolBlock("server_tool_use", own)),
            "messages[1].content[1]",
            "vendorTool",
        ),
        "citations": (
            answered(CourseTextBlock("x", citations=(own,))),
            "messages[1].content[0].citations",
            "citations",
        ),
        "opaque-text": (
            answered(CourseTextBlock("x", opaque=own)),
            "messages[1].content[0].opaque",
            "opaque",
        ),
        "opaque-call": (
            answered(CourseToolCall("call-1", "add", {}, opaque=own)),
            "messages[1].content[0].opaque",
            "opaque",
        ),
    }


RICH = rich("some-wire")
EVERY_KIND = ContentSupport(
    CONTENT_KINDS,
    images=MediaRule(frozenset({"image/png"}), urls=True),
    documents=MediaRule(frozenset({"text/plain"}), urls=True),
)


@pytest.mark.parametrize("name", list(RICH))
def test_a_kind_the_wire_does_not_send_is_refused_naming_the_block_kind_and_wire(
    name: str,
) -> None:
    request, where, kind = RICH[name]

    with pytest.raises(VendorError) as caught:
        check_sendable(request, "some-wire")

    assert caught.value.code is VendorErrorCode.VENDOR_INVALID_REQUEST
    assert caught.value.vendor == "some-wire"
    assert caught.value.message == f"{where}: some-wire does not send {kind} content"
    check_sendable(request, "some-wire", content=EVERY_KIND)


def test_a_wire_that_sends_some_kinds_is_refused_the_first_other_one() -> None:
    request = answered(
        CourseReasoningBlock("hmm", opaque=signed("w")),
        CourseTextBlock("x", citations=(signed("w"),)),
    )

    check_sendable(request, "w", content=ContentSupport(frozenset({"reasoning", "citations"})))
    with pytest.raises(VendorError) as caught:
        check_sendable(request, "w", content=ContentSupport(frozenset({"reasoning"})))

    assert caught.value.message.startswith("messages[1].content[1].citations: ")


@pytest.mark.parametrize("name", ["reasoning", "citations", "opaque-text", "opaque-call"])
def test_what_another_wire_produced_needs_no_support_because_it_is_not_sent(name: str) -> None:
    foreign, _, _ = rich("other-wire")[name]
    own, _, _ = rich("some-wire")[name]

    check_sendable(foreign, "some-wire")
    # The same block, produced by the wire itself, is one it must send: refused here.
    with pytest.raises(VendorError):
        check_sendable(own, "some-wire")


def test_another_wires_vendor_tool_is_refused_even_where_vendor_tools_are_sent() -> None:
    request, where, _ = rich("other-wire")["vendor-tool"]

    with pytest.raises(VendorError) as caught:
        check_sendable(request, "some-wire", content=EVERY_KIND)

    assert caught.value.message == (
        f"{where}: a 'server_tool_use' block of other-wire cannot be sent to some-wire: "
        "a tool one vendor ran has no form on another"
    )


PDF = CourseDocumentBlock("application/pdf", data=b"%PDF-1.7 " * 10)
MEDIA_SUPPORT = ContentSupport(
    frozenset({"text", "image", "document"}),
    images=MediaRule(frozenset({"image/png", "image/jpeg"}), max_bytes=4),
    documents=MediaRule(frozenset({"application/pdf"}), max_bytes=90),
)


@pytest.mark.parametrize(
    ("block", "said"),
    [
        (
            CourseImageBlock("image/gif", data=b"GIF8"),
            "messages[0].content[0].media_type: w does not take an image of type image/gif "
            "(it takes image/jpeg, image/png)",
        ),
        (
            CourseImageBlock("image/png", data=b"\x89PNG!"),
            "messages[0].content[0].data: holds 5 bytes; w takes an image of at most 4 bytes",
        ),
        (
            CourseImageBlock("image/png", url="https://example.com/a.png"),
            "messages[0].content[0].url: w takes an image as bytes only, never by URL",
        ),
        (
            CourseDocumentBlock("text/plain", data=b"x"),
            "messages[0].content[0].media_type: w does not take a document of type text/plain "
            "(it takes application/pdf)",
        ),
        (
            CourseDocumentBlock("application/pdf", data=b"%" * 91),
            "messages[0].content[0].data: holds 91 bytes; w takes a document of at most 90 bytes",
        ),
    ],
)
def test_an_image_or_document_the_wires_rule_refuses_is_refused_naming_the_rule(
    block: CourseImageBlock | CourseDocumentBlock, said: str
) -> None:
    with pytest.raises(VendorError) as caught:
        check_sendable(asked(block), "w", content=MEDIA_SUPPORT)

    assert caught.value.code is VendorErrorCode.VENDOR_INVALID_REQUEST
    assert caught.value.message == said


def test_media_the_rule_takes_passes_at_its_limit() -> None:
    at_limit = CourseImageBlock("image/jpeg", data=b"\xff\xd8\xff\xe0")
    one_more = CourseImageBlock("image/jpeg", data=b"\xff\xd8\xff\xe0\x00")

    check_sendable(asked(at_limit, PDF), "w", content=MEDIA_SUPPORT)
    with pytest.raises(VendorError) as caught:
        check_sendable(asked(one_more, PDF), "w", content=MEDIA_SUPPORT)
    assert caught.value.message.startswith("messages[0].content[0].data: holds 5 bytes")


def test_a_content_support_names_only_content_kinds_and_needs_a_rule_per_media_kind() -> None:
    with pytest.raises(ValueError, match=r"^kinds: \['audio'\] are not content kinds \(\['cit"):
        ContentSupport(frozenset({"image", "audio"}))
    with pytest.raises(ValueError, match=r"^kinds holds 'image': give its MediaRule"):
        ContentSupport(frozenset({"image"}))
    with pytest.raises(TypeError, match=r"MediaRule\.max_bytes"):
        MediaRule(frozenset({"image/png"}), max_bytes=0)
    with pytest.raises(TypeError, match=r"ContentSupport\.kinds must be a frozenset, not set"):
        ContentSupport({"text"})  # type: ignore[arg-type]
    assert {"text", "image", "document", "reasoning", "vendorTool", "citations", "opaque"} == (
        CONTENT_KINDS
    )


def test_a_transcript_issue_is_named_before_any_content_kind() -> None:
    request = CourseModelRequest("r", (CourseUserMessage("u", (IMAGE,)), ORPHAN_RESULT.messages[1]))

    assert _expected(request, "w").message.startswith("messages[1]: ORPHAN_TOOL_RESULT: ")


def test_reasoning_goes_back_only_to_the_wire_that_produced_it() -> None:
    own = CourseReasoningBlock("mine", opaque=signed("w"))
    other = CourseReasoningBlock("theirs", opaque=signed("x"))
    scripted = CourseReasoningBlock("no payload")
    text = CourseTextBlock("42", opaque=signed("x"))
    message = CourseAssistantMessage("a", (other, own, scripted, text))

    kept = sent_blocks(message, "w")

    assert kept == (own, text)
    assert kept[0] is own
    assert kept[1] is text
    assert own_opaque(text.opaque, "w") is None
    assert own_opaque(text.opaque, "x") is text.opaque
    assert own_opaque(None, "x") is None


@every_wire
@pytest.mark.parametrize("name", list(RICH))
async def test_every_vendor_refuses_what_it_does_not_send_before_sending_anything(
    wire: Wire, name: str
) -> None:
    request, where, kind = rich(wire.name)[name]
    content = load_vendor(wire.name).wire.content
    if content is not None and kind in content.kinds:
        pytest.skip(f"{wire.name} sends {kind} content")
    async with wire.recorded(wire.text_body("unused")) as transport:
        played = await replay(wire.model(transport=transport), request)

    error = played.error
    assert error is not None
    assert (error.code, error.vendor) == (VendorErrorCode.VENDOR_INVALID_REQUEST, wire.name)
    assert error.message == f"{where}: {wire.name} does not send {kind} content"
    assert transport.requests == ()


def test_plain_reads_give_the_plain_transcript_and_refuse_anything_else() -> None:
    call = CourseToolCall("c", "add", {})
    plain = CourseAssistantMessage("a", (CourseTextBlock("x"), call))

    assert plain_content(CourseUserMessage("u", "hi")) == "hi"
    assert plain_content(CourseToolResultMessage("t", "c", "add", "42")) == "42"
    assert plain_blocks(plain) == plain.content
    with pytest.raises(ValueError, match="CourseUserMessage 'u' holds content blocks"):
        plain_content(CourseUserMessage("u", (CourseTextBlock("hi"),)))
    assert plain_blocks(CourseAssistantMessage("a", (call, CourseReasoningBlock("r")))) == (call,)
    vendor_tool = CourseVendorToolBlock("server_tool_use", signed("w"))
    with pytest.raises(ValueError, match=r"content\[1\] is a CourseVendorToolBlock"):
        plain_blocks(CourseAssistantMessage("a", (call, vendor_tool)))
