"""The streamed JSON array a Gemini body is without ``?alt=sse``, cut into events: `ArrayElements`.

The body is one JSON array streamed element by element
(``[{...}\\n,\\r\\n{...}\\n]``); its elements are cut out here by a bounded
scanner of JSON strings and braces (a line reader cannot do it: the
elements are pretty-printed). The element's JSON text is left unchecked.
"""

from __future__ import annotations

import re
from typing import Final, final

from course_http import SseEvent
from course_provider_gemini._pending import Fail, PendingText

__all__ = ["WHITESPACE", "ArrayElements"]

WHITESPACE: Final = " \t\r\n"
"""JSON's whitespace, allowed anywhere between the array's tokens."""

# Before an element (or the closing bracket), inside one, after one, after "]".
_BEFORE, _INSIDE, _AFTER, _DONE = range(4)
_IN_STRING = re.compile(r'["\\]')
_OUT_OF_STRING = re.compile(r'[{}"]')


@final
class ArrayElements:
    """The array side of `GeminiDecoder`: the text after ``[`` in, one event per element out.

    The array is objects separated by ``,``, then ``]``, whitespace anywhere
    between them. Raises what ``fail`` makes for an element longer than the
    limit, an element that is not an object, a separator out of place and
    anything but whitespace after the array.
    """

    __slots__ = ("_depth", "_elements", "_escaped", "_in_string", "_pending", "_state")

    def __init__(self, max_frame_length: int) -> None:
        self._pending = PendingText(max_frame_length)
        self._state = _BEFORE
        self._depth = 0
        self._in_string = False
        self._escaped = False
        self._elements = 0

    @property
    def done(self) -> bool:
        """Whether the closing ``]`` has been read."""
        return self._state == _DONE

    def read(self, text: str, events: list[SseEvent], fail: Fail) -> None:
        """Append to ``events`` the elements ``text`` completes; hold the rest."""
        at = 0
        end = len(text)
        while at < end:
            state = self._state
            if state == _INSIDE:
                at = self._scan_element(text, at, events, fail)
                continue
            character = text[at]
            at += 1
            if character in WHITESPACE:
                continue
            if state == _DONE:
                raise fail("something follows the end of the JSON array", len(events))
            if character == "{" and state == _BEFORE:
                self._state = _INSIDE
                self._depth = 1
                self._pending.hold("{", fail, len(events))
            elif character == "," and state == _AFTER:
                self._state = _BEFORE
            elif character == "]" and (state == _AFTER or self._elements == 0):
                self._state = _DONE
            else:
                raise fail(
                    f"{character!r} is out of place in the JSON array "
                    "(its elements are objects separated by ',')",
                    len(events),
                )

    def _scan_element(self, text: str, at: int, events: list[SseEvent], fail: Fail) -> int:
        """Scan the element from ``at``; return where its scan stopped (the end or past '}')."""
        start = at
        end = len(text)
        while at < end:
            if self._escaped:
                self._escaped = False
                at += 1
                continue
            if self._in_string:
                found = _IN_STRING.search(text, at)
                if found is None:
                    at = end
                    break
                at = found.end()
                if found.group() == "\\":
                    self._escaped = True
                else:
                    self._in_string = False
                continue
            found = _OUT_OF_STRING.search(text, at)
            if found is None:
                at = end
                break
            at = found.end()
            mark = found.group()
            if mark == '"':
                self._in_string = True
            elif mark == "{":
                self._depth += 1
            else:
                self._depth -= 1
                if self._depth == 0:
                    pending = self._pending
                    if pending.length + at - start > pending.limit:
                        raise pending.too_long(fail, len(events))
                    events.append(SseEvent("message", pending.take(text[start:at])))
                    self._elements += 1
                    self._state = _AFTER
                    return at
        self._pending.hold(text[start:at], fail, len(events))
        return at
