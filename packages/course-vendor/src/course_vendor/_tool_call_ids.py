"""The Tool-call ids of one streamed response: each may be given to one call only.

A Tool result names the call it answers by id, so two calls of one answer
with one id make a transcript no vendor accepts back (``course_protocol``'s
transcript check calls it ``DUPLICATE_TOOL_CALL_ID``, at the agent loop's
next request). Every vendor parser refuses the second use in the stream,
at the event that makes it, through the one `ToolCallIds` here.
"""

from __future__ import annotations

from typing import final

from course_protocol.untrusted import shown
from course_vendor._event_errors import invalid_event

__all__ = ["ToolCallIds"]


@final
class ToolCallIds:
    """The Tool-call ids one streamed response has given so far, for the vendor ``vendor``.

    Ids are compared exactly, as the transcript check compares them: two ids
    that differ in any character (whitespace included) are two ids, and a
    Tool result can name either one unambiguously.
    """

    __slots__ = ("_seen", "_vendor")

    def __init__(self, vendor: str) -> None:
        self._vendor = vendor
        self._seen: set[str] = set()

    def claim(self, call_id: str, index: int, path: str) -> None:
        """Take ``call_id`` (at ``path`` of event ``index``) for the call it starts.

        Raises `VendorError` ``VENDOR_INVALID_EVENT`` (``event_index``
        ``index``) when an earlier call of this response already has it.
        """
        if call_id in self._seen:
            raise invalid_event(
                f"{path} {shown(call_id)!r} is the id of an earlier Tool call of this "
                "response; a Tool result could not say which call it answers",
                vendor=self._vendor,
                index=index,
            )
        self._seen.add(call_id)
