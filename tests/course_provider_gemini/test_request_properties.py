"""Rich transcripts through the Gemini request builder: refused naming the block, or sent whole.

Transcripts holding images, documents, reasoning, vendor tools, citations and
opaque data of several wires go through what a model call runs, the wire's
check then the body: either refused as an invalid request naming the block,
or sent in alternating ``user`` and ``model`` turns with nothing of another
wire, every image and document given, the Tools and the response format.
"""

from __future__ import annotations

import base64
import json
from itertools import pairwise
from typing import Any

from hypothesis import Phase, find, given, settings

from course_http import VendorError
from course_protocol import (
    CourseMessage,
    CourseModelRequest,
    CourseResponseFormat,
    CourseToolSpec,
    to_json,
)
from course_provider_gemini import GeminiConfig, generate_content_body
from tests.course_vendor.rich_transcripts import (
    leaked_marks,
    media_blocks,
    rich_transcripts,
    sent_body,
    sent_or_refused,
)

WIRE = "gemini"
CONFIG = GeminiConfig(
    "gemini-test",
    tools=(CourseToolSpec("add", "Add.", {"type": "object"}),),
    response_format=CourseResponseFormat("answer", {"type": "object"}),
)


def converted(messages: tuple[CourseMessage, ...]) -> dict[str, Any] | VendorError:
    """What a model call makes of ``messages``: the wire's check, then the body."""
    request = CourseModelRequest("request-1", messages)
    return sent_or_refused(request, WIRE, lambda active: generate_content_body(active, CONFIG))


@given(rich_transcripts())
def test_a_rich_transcript_is_sent_with_nothing_of_another_wire_or_refused_naming_its_block(
    messages: tuple[CourseMessage, ...],
) -> None:
    outcome = sent_body(converted(messages), WIRE)

    if outcome is None:
        return
    assert json.loads(json.dumps(outcome)) == outcome
    roles = [turn["role"] for turn in outcome["contents"]]
    assert roles[0] == "user"
    assert all(before != after for before, after in pairwise(roles))
    text = json.dumps(outcome)
    for block in media_blocks(messages):
        sent = block.url if block.data is None else base64.b64encode(block.data).decode()
        assert str(sent) in text
    (declarations,) = [tool for tool in outcome["tools"] if "functionDeclarations" in tool]
    assert [tool["name"] for tool in declarations["functionDeclarations"]] == ["add"]
    assert outcome["generationConfig"]["responseJsonSchema"] == {"type": "object"}


def test_the_rich_transcripts_reach_a_sent_body_with_media_and_another_wires_data() -> None:
    def sent_with_both(messages: tuple[CourseMessage, ...]) -> bool:
        given_foreign = leaked_marks([to_json(message) for message in messages], WIRE)
        body = converted(messages)
        return isinstance(body, dict) and bool(media_blocks(messages)) and bool(given_foreign)

    only_generate = settings(database=None, max_examples=2_000, phases=[Phase.generate])
    find(rich_transcripts(), sent_with_both, settings=only_generate)
