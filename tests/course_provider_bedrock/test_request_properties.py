"""Rich transcripts through the Converse request builder: refused naming the block, or sent.

The wire sends text, Tool calls and its own reasoning; transcripts holding
images, documents, vendor tools, citations and opaque data of several wires
go through the wire's check then the body: refused as an invalid request
naming the block (every image and document among them), or sent in
alternating turns with nothing of another wire.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

from hypothesis import Phase, find, given, settings

from course_http import VendorError
from course_protocol import CourseMessage, CourseModelRequest, to_json
from course_provider_bedrock import BedrockConfig, converse_request_body
from tests.course_vendor.rich_transcripts import (
    leaked_marks,
    media_blocks,
    rich_transcripts,
    sent_body,
    sent_or_refused,
)

WIRE = "bedrock-converse"
CONFIG = BedrockConfig("anthropic.claude-test", region="us-east-1")


def converted(messages: tuple[CourseMessage, ...]) -> dict[str, Any] | VendorError:
    """What a model call makes of ``messages``: the wire's check, then the body."""
    request = CourseModelRequest("request-1", messages)
    return sent_or_refused(request, WIRE, lambda active: converse_request_body(active, CONFIG))


@given(rich_transcripts())
def test_a_rich_transcript_is_sent_with_nothing_of_another_wire_or_refused_naming_its_block(
    messages: tuple[CourseMessage, ...],
) -> None:
    outcome = sent_body(converted(messages), WIRE)

    if outcome is None:
        return
    assert media_blocks(messages) == [], "the wire sends no image or document"
    assert json.loads(json.dumps(outcome)) == outcome
    roles = [turn["role"] for turn in outcome["messages"]]
    assert roles[0] == "user"
    assert all(before != after for before, after in pairwise(roles))


def test_the_rich_transcripts_reach_a_sent_body_with_another_wires_data() -> None:
    def sent_with_foreign(messages: tuple[CourseMessage, ...]) -> bool:
        given_foreign = leaked_marks([to_json(message) for message in messages], WIRE)
        return isinstance(converted(messages), dict) and bool(given_foreign)

    only_generate = settings(database=None, max_examples=2_000, phases=[Phase.generate])
    find(rich_transcripts(), sent_with_foreign, settings=only_generate)
