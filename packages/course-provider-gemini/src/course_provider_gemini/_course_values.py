"""The course values one Gemini candidate's parts and counts become: opaque data, citations, usage.

The mapping (`GeminiMapping`) decides where each goes; this module says what
each is, so the vendor's own data (a signature, a call's id, a vendor tool's
part, a citation) is spelled once.
"""

from __future__ import annotations

from typing import Any

from course_protocol import MAX_TOKEN_COUNT, CourseModelUsage, CourseOpaque
from course_provider_gemini import _wire
from course_provider_gemini._reads import fail_invalid
from course_provider_gemini._result import (
    GeminiCandidate,
    GeminiFunctionCall,
    GeminiOpaquePart,
    GeminiUsage,
)

__all__ = [
    "call_opaque",
    "candidate_citations",
    "course_call_id",
    "course_usage",
    "part_as_sent",
    "signed",
]


def course_call_id(response_id: str, position: int) -> str:
    """The course id of the function call number ``position`` (from 0) of response ``response_id``.

    For a call the vendor gave no ``id`` (every model before Gemini 3):
    deterministic (a replay gives the same ids) and unique (a response id
    is), so a Tool result names its call unambiguously:
    ``"<responseId>-call-<position>"``.
    """
    return f"{response_id}-call-{position}"


def signed(signature: str | None) -> CourseOpaque | None:
    """The opaque data of a block whose part carried ``signature``; ``None`` for none."""
    if signature is None:
        return None
    return CourseOpaque(_wire.WIRE, {_wire.THOUGHT_SIGNATURE_KEY: signature})


def call_opaque(call: GeminiFunctionCall) -> CourseOpaque | None:
    """The opaque data of a Tool call: the vendor's ``id`` and signature, ``None`` for neither."""
    # What the request needs back besides the name and the arguments: the
    # vendor's own id (sent back on the call and its response; a derived id
    # never is) and the thought signature.
    data: dict[str, str] = {}
    if call.id is not None:
        data[_wire.ID_KEY] = call.id
    if call.signature is not None:
        data[_wire.THOUGHT_SIGNATURE_KEY] = call.signature
    return CourseOpaque(_wire.WIRE, data) if data else None


def part_as_sent(part: GeminiOpaquePart) -> dict[str, Any]:
    sent: dict[str, Any] = {part.kind: part.data}
    if part.thought:
        sent[_wire.THOUGHT_KEY] = True
    if part.signature is not None:
        sent[_wire.THOUGHT_SIGNATURE_KEY] = part.signature
    return sent


def candidate_citations(candidate: GeminiCandidate) -> tuple[CourseOpaque, ...]:
    kept = (
        candidate.citation_metadata,
        candidate.grounding_metadata,
        candidate.url_context_metadata,
    )
    return tuple(
        CourseOpaque(_wire.WIRE, {key: value})
        for key, values in zip(_wire.CITATION_KEYS, kept, strict=True)
        for value in values
    )


def course_usage(usage: GeminiUsage | None, where: str, index: int) -> CourseModelUsage:
    """The course usage of the last ``usageMetadata``.

    ``input_tokens`` is ``promptTokenCount`` (cached content included) plus
    ``toolUsePromptTokenCount``; ``output_tokens`` is ``candidatesTokenCount``
    plus ``thoughtsTokenCount`` (the vendor counts thoughts apart);
    ``cache_read_tokens`` is ``cachedContentTokenCount``,
    ``reasoning_tokens`` ``thoughtsTokenCount``, each ``None`` when not
    sent; ``cache_write_tokens`` is always ``None`` (the vendor counts no
    writes).

    Raises ``VENDOR_INVALID_EVENT`` at event ``index`` for no prompt count by
    ``where``, counts past 2**53 - 1, or a cached count above the prompt's.
    """
    prompt = None if usage is None else usage.prompt_token_count
    if usage is None or prompt is None:
        fail_invalid(f"no usageMetadata.promptTokenCount by {where}", index)
    thoughts = usage.thoughts_token_count
    # The vendor counts thoughts and tool-use prompts apart; the course counts
    # all the output, and all the input.
    output = (usage.candidates_token_count or 0) + (thoughts or 0)
    total_input = prompt + (usage.tool_use_prompt_token_count or 0)
    if output > MAX_TOKEN_COUNT or total_input > MAX_TOKEN_COUNT:
        fail_invalid("the token counts add up past 2**53 - 1", index)
    cached = usage.cached_content_token_count
    if cached is not None and cached > prompt:
        fail_invalid(
            f"usageMetadata.cachedContentTokenCount ({cached}) exceeds promptTokenCount "
            f"({prompt}), which counts the cached content",
            index,
        )
    return CourseModelUsage(
        total_input, output, cache_read_tokens=cached, reasoning_tokens=thoughts
    )
