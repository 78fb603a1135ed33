"""Request matching on replay: is the request sent the one recorded, and if not, where not.

Both sides are redacted the same way before this runs. The first difference
is `course_protocol.first_json_difference`'s, so a mismatch reads the same as
the fixture adapter's: ``messages[2].content[0].tool_use_id: recorded
"toolu_01A", sent "toolu_01B"``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from course_cassettes._cassette import RequestMatching
from course_cassettes._json_paths import REMOVE, JsonPath, parse_json_path, rewrite_at_paths
from course_http import RecordedRequest
from course_protocol import first_json_difference

__all__ = ["request_difference", "version_hint"]

_API_VERSION = re.compile(r"v[0-9]+(?:(?:alpha|beta)[0-9]*)?")
"""A path segment that names an API version: ``v1``, ``v1beta``, ``v1alpha``, ``v2beta3``."""


def request_difference(
    recorded: RecordedRequest, sent: RecordedRequest, matching: RequestMatching
) -> str | None:
    """Where ``sent`` first differs from ``recorded`` under ``matching``, or ``None``.

    The method, then the path (query included), then the body's canonical
    JSON (key order does not count; types do), leaving out the ignored paths
    on both sides. With ``on="order"`` nothing is compared. The text names the
    first differing place and both values: ``path: recorded "/v1/a", sent
    "/v1/b"`` (with `version_hint` when only an API version differs),
    ``messages[0].content: recorded "hi", sent "hello"``; two
    strings too long to show whole are shown around where they first differ
    (``system: strings differ from character 590: recorded "\u2026in French.",
    sent "\u2026in German."``).
    """
    if matching.on == "order":
        return None
    left: object = {"method": recorded.method, "path": recorded.path}
    right: object = {"method": sent.method, "path": sent.path}
    line = first_json_difference(left, right)
    if line is not None and line.path == "path":
        return f"{line}{version_hint(recorded.path, sent.path)}"
    if line is None:
        ignored = [parse_json_path(path) for path in matching.ignore]
        left = rewrite_at_paths(recorded.body, ignored, _removed)
        right = rewrite_at_paths(sent.body, ignored, _removed)
        line = first_json_difference(left, right)
    if line is None:
        return None
    if line.path != "$" and (line.recorded.endswith("\u2026") or line.sent.endswith("\u2026")):
        where = parse_json_path(line.path)
        texts = _at(left, where), _at(right, where)
        if type(texts[0]) is str and type(texts[1]) is str:
            return f"{line.path}: {_where_strings_differ(texts[0], texts[1])}"
    return str(line)


def version_hint(recorded: str, sent: str) -> str:
    """What to say when two request paths differ only in one API version segment; else ``""``.

    `` (the paths differ only in their API version: v1beta recorded, v1
    sent; set the client's API version to v1beta, or record again)``: a
    Gemini client calls ``/v1`` where the cassette holds ``/v1beta``.
    """
    recorded_path, _, recorded_query = recorded.partition("?")
    sent_path, _, sent_query = sent.partition("?")
    recorded_parts, sent_parts = recorded_path.split("/"), sent_path.split("/")
    if recorded_query != sent_query or len(recorded_parts) != len(sent_parts):
        return ""
    differing = [
        pair for pair in zip(recorded_parts, sent_parts, strict=True) if pair[0] != pair[1]
    ]
    if len(differing) != 1 or not all(_API_VERSION.fullmatch(part) for part in differing[0]):
        return ""
    was, now = differing[0]
    return (
        f" (the paths differ only in their API version: {was} recorded, {now} sent; "
        f"set the client's API version to {was}, or record again)"
    )


# Characters shown on each side of where two long strings first differ.
_CONTEXT = 40


def _where_strings_differ(recorded: str, sent: str) -> str:
    # Both strings are too long to show whole (a system prompt): what counts
    # is where they part, which a cut from their start would never show.
    at = next(
        (
            index
            for index, pair in enumerate(zip(recorded, sent, strict=False))
            if pair[0] != pair[1]
        ),
        min(len(recorded), len(sent)),
    )
    return (
        f"strings differ from character {at}: "
        f"recorded {_window(recorded, at)}, sent {_window(sent, at)}"
    )


def _window(text: str, at: int) -> str:
    start = max(0, at - _CONTEXT)
    shown = text[start : at + _CONTEXT]
    lead = "\u2026" if start else ""
    tail = "\u2026" if at + _CONTEXT < len(text) else ""
    return json.dumps(lead + shown + tail, ensure_ascii=False)


def _at(value: object, path: JsonPath) -> object:
    for segment in path:
        if isinstance(value, Mapping) and type(segment) is str:
            value = value.get(segment)
        elif isinstance(value, (list, tuple)) and type(segment) is int and segment < len(value):
            value = value[segment]
        else:
            return None
    return value


def _removed(value: object) -> object:
    del value
    return REMOVE
