"""Request matching on replay: is the request sent the one recorded, and if not, where not.

Both sides are redacted the same way before this runs. The first difference
is `course_protocol.first_json_difference`'s, so a mismatch reads the same as
the fixture adapter's: ``messages[2].content[0].tool_use_id: recorded
"toolu_01A", sent "toolu_01B"``.
"""

from __future__ import annotations

from course_http._cassette import RequestMatching
from course_http._json_paths import REMOVE, parse_json_path, rewrite_at_paths
from course_http._recorded import RecordedRequest
from course_protocol import first_json_difference

__all__ = ["RequestMismatchError", "request_difference"]


def request_difference(
    recorded: RecordedRequest, sent: RecordedRequest, matching: RequestMatching
) -> str | None:
    """Where ``sent`` first differs from ``recorded`` under ``matching``, or ``None``.

    The method, then the path (query included), then the body's canonical
    JSON (key order does not count; types do), leaving out the ignored paths
    on both sides. With ``on="order"`` nothing is compared. The text names the
    first differing place and both values: ``path: recorded "/v1/a", sent
    "/v1/b"``, ``messages[0].content: recorded "hi", sent "hello"``.
    """
    if matching.on == "order":
        return None
    line = first_json_difference(
        {"method": recorded.method, "path": recorded.path},
        {"method": sent.method, "path": sent.path},
    )
    if line is None:
        ignored = [parse_json_path(path) for path in matching.ignore]
        line = first_json_difference(
            rewrite_at_paths(recorded.body, ignored, _removed),
            rewrite_at_paths(sent.body, ignored, _removed),
        )
    return None if line is None else str(line)


def _removed(value: object) -> object:
    del value
    return REMOVE


class RequestMismatchError(Exception):
    """A replayed call (``call``, 1-based) differs from the recorded ``calls[index]``."""

    def __init__(self, call: int, index: int, difference: str) -> None:
        super().__init__(f"call {call} differs from the recorded calls[{index}]: {difference}")
        self.call = call
        self.index = index
        self.difference = difference
