"""One contract, the kit's `WireMapping`, kept by every wire the same way.

Every test runs over every wire mapping: after its first error a parser
is spent (every later ``item``, ``feed`` or ``end`` raises that same error
object again and reads nothing); ``finished`` says the terminal event was
read; ``feed`` is built on ``item`` and gives what ``item`` pushes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from course_http import SseEvent, VendorError, VendorErrorCode
from course_protocol import CourseModelChunk
from course_vendor import WireMapping
from tests.course_vendor.wire import WirePlay
from tests.course_vendor.wires import WIRES, Wire

NOT_JSON = SseEvent("message", "{not json")


@dataclass(frozen=True)
class Vendor:
    """One vendor's parser and a whole answer of its wire, as events."""

    parser: Callable[[str], WirePlay]
    text: list[SseEvent]
    tool: list[SseEvent]

    def fresh(self) -> WirePlay:
        return self.parser("request-1")


def _vendor(wire: Wire) -> Vendor:
    return Vendor(wire.parser, wire.text_events("Hello", ", world"), wire.tool_events())


VENDORS = [_vendor(wire) for wire in WIRES]
every_parser = pytest.mark.parametrize("vendor", VENDORS, ids=[wire.name for wire in WIRES])


def _raised(call: Callable[[], object]) -> BaseException:
    with pytest.raises((VendorError, RuntimeError)) as caught:
        call()
    return caught.value


def _never_pushed(chunk: CourseModelChunk) -> None:
    raise AssertionError(f"a spent parser pushed {chunk!r}")


class PushThatBreaks:
    """A ``push`` that fails on the first chunk it is given, as a closed stream would."""

    def __call__(self, chunk: CourseModelChunk) -> None:
        raise RuntimeError("the consumer is gone")


@every_parser
def test_every_parser_takes_item_end_feed_and_finished_from_the_kit(vendor: Vendor) -> None:
    assert isinstance(vendor.parser, type)
    assert issubclass(vendor.parser, WireMapping)
    for name in ("item", "end", "feed", "finished", "source_failed"):
        assert getattr(vendor.parser, name) is getattr(WireMapping, name), name


@every_parser
def test_a_parser_is_spent_after_a_bad_first_event(vendor: Vendor) -> None:
    parser = vendor.fresh()

    first = _raised(lambda: parser.feed(NOT_JSON, 0))

    assert type(first) is VendorError
    assert first.code is VendorErrorCode.VENDOR_INVALID_EVENT
    for index, event in enumerate(vendor.text, start=1):
        assert _raised(lambda: parser.feed(event, index)) is first  # noqa: B023
        assert _raised(lambda: parser.item(event, index, _never_pushed)) is first  # noqa: B023
    assert _raised(lambda: parser.end(len(vendor.text) + 1)) is first
    assert not parser.finished


@every_parser
def test_a_parser_is_spent_after_an_error_in_the_middle_of_its_stream(vendor: Vendor) -> None:
    parser = vendor.fresh()
    *head, last = vendor.text
    for index, event in enumerate(head[:2]):
        parser.feed(event, index)

    first = _raised(lambda: parser.feed(NOT_JSON, 2))

    assert _raised(lambda: parser.feed(head[2] if len(head) > 2 else last, 3)) is first
    assert _raised(lambda: parser.feed(last, 4)) is first
    assert _raised(lambda: parser.end(5)) is first
    assert not parser.finished


@every_parser
def test_a_parser_is_spent_once_end_found_no_terminal(vendor: Vendor) -> None:
    parser = vendor.fresh()
    # Two events are the start of an answer on every wire, never its end.
    head, following = vendor.text[:2], vendor.text[2]
    for index, event in enumerate(head):
        parser.feed(event, index)

    missing = _raised(lambda: parser.end(len(head)))

    assert type(missing) is VendorError
    assert (missing.code, missing.event_index) == (
        VendorErrorCode.VENDOR_MISSING_TERMINAL,
        len(head),
    )
    assert _raised(lambda: parser.end(len(head))) is missing
    assert _raised(lambda: parser.feed(following, len(head))) is missing
    assert not parser.finished


@every_parser
def test_a_parser_is_spent_after_an_event_that_follows_its_terminal(vendor: Vendor) -> None:
    parser = vendor.fresh()
    for index, event in enumerate(vendor.text):
        parser.feed(event, index)
    assert parser.finished

    late = _raised(lambda: parser.feed(vendor.text[-1], len(vendor.text)))

    assert type(late) is VendorError
    assert late.code is VendorErrorCode.VENDOR_EVENT_ORDER
    assert _raised(lambda: parser.end(len(vendor.text) + 1)) is late


@every_parser
def test_a_parser_is_spent_when_its_push_fails(vendor: Vendor) -> None:
    parser = vendor.fresh()
    broken = PushThatBreaks()

    def feed_until_it_breaks() -> int:
        for index, event in enumerate(vendor.text):
            parser.item(event, index, broken)
        return len(vendor.text)

    failure = _raised(feed_until_it_breaks)

    assert type(failure) is RuntimeError
    assert str(failure) == "the consumer is gone"
    for index, event in enumerate(vendor.text):
        assert _raised(lambda: parser.feed(event, index)) is failure  # noqa: B023
    assert _raised(lambda: parser.end(len(vendor.text))) is failure


@every_parser
def test_finished_says_when_the_terminal_event_was_read(vendor: Vendor) -> None:
    parser = vendor.fresh()
    assert not parser.finished
    seen: list[bool] = []
    for index, event in enumerate(vendor.text):
        parser.feed(event, index)
        seen.append(parser.finished)

    # The terminal event may be followed by what the wire documents as optional
    # (Chat: the usage chunk, [DONE]); finished stays true through it.
    terminal = seen.index(True)
    assert seen == [False] * terminal + [True] * (len(seen) - terminal)
    assert terminal >= 2
    response = parser.end(len(vendor.text))
    assert parser.end(len(vendor.text)) is response
    assert parser.finished


@every_parser
@pytest.mark.parametrize("answer", ["text", "tool"])
def test_feed_gives_what_item_pushes(vendor: Vendor, answer: str) -> None:
    events = vendor.text if answer == "text" else vendor.tool
    pushing, feeding = vendor.fresh(), vendor.fresh()
    pushed: list[list[CourseModelChunk]] = []
    fed: list[CourseModelChunk | tuple[CourseModelChunk, ...] | None] = []

    for index, event in enumerate(events):
        made: list[CourseModelChunk] = []
        pushing.item(event, index, made.append)
        pushed.append(made)
        fed.append(feeding.feed(event, index))

    expected = [None if not made else made[0] if len(made) == 1 else tuple(made) for made in pushed]
    assert fed == expected
    assert any(pushed)
    assert pushing.end(len(events)) == feeding.end(len(events))
