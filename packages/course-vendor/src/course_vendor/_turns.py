"""A transcript as a vendor's alternating turns, with Tool results right after their calls: `Turns`.

Messages-style APIs (Anthropic's Messages, Gemini's contents) take the
conversation as turns of two roles, consecutive messages of one role merged
into one turn, and every Tool result in the user turn right after the
assistant turn that made its call, before any user text. The parts each
vendor sends differ; the order of turns and what may come when are the
same, and are kept here once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, final

from course_http import VendorError, VendorErrorCode
from course_protocol import is_blank

__all__ = ["Turns"]

_Part = dict[str, Any]


@final
class Turns:
    """The turns built so far, and the Tool calls of the last assistant turn still unanswered.

    ``role_key`` and ``parts_key`` name a turn's two entries on the wire,
    ``user_role`` and ``assistant_role`` its two roles; ``vendor`` names the
    vendor in the ``VENDOR_INVALID_REQUEST`` `VendorError` every order
    problem raises, with the course message's position in its message.
    """

    __slots__ = (
        "_assistant",
        "_open_calls",
        "_parts_key",
        "_role_key",
        "_user",
        "_vendor",
        "turns",
    )

    def __init__(
        self, *, role_key: str, parts_key: str, user_role: str, assistant_role: str, vendor: str
    ) -> None:
        self._role_key = role_key
        self._parts_key = parts_key
        self._user = user_role
        self._assistant = assistant_role
        self._vendor = vendor
        self.turns: list[dict[str, Any]] = []
        # Course call id -> position of the course message that made the call.
        # User text is taken only once this is empty, so a Tool result can
        # never come after user text in its turn.
        self._open_calls: dict[str, int] = {}

    def user_text(self, text: str, parts: list[_Part], position: int) -> None:
        """Add the parts of user message ``position`` (whose text is ``text``).

        Raises when ``text`` is blank, or while a Tool call is unanswered.
        """
        if is_blank(text):
            raise self._invalid(f"messages[{position}]: a user message must not be blank")
        self.user_parts(parts, position)

    def user_parts(self, parts: list[_Part], position: int) -> None:
        """Add the parts of user message ``position``, whose content its wire judged not blank.

        For content given as blocks (an image needs no text). Raises while a
        Tool call is unanswered.
        """
        if self._open_calls:
            raise self._unanswered(position)
        self._add(self._user, parts, position)

    def assistant(self, parts: list[_Part], call_ids: Iterable[str], position: int) -> None:
        """Add assistant message ``position`` and open its Tool calls ``call_ids``.

        Raises when a Tool call of an earlier assistant turn is still
        unanswered after a user turn, or when the transcript would open with
        the assistant.
        """
        if self._open_calls and self.turns[-1][self._role_key] == self._user:
            raise self._unanswered(position)
        self._add(self._assistant, parts, position)
        for call_id in call_ids:
            self._open_calls[call_id] = position

    def tool_result(self, call_id: str, parts: list[_Part], position: int) -> None:
        """Add the result of ``call_id`` (message ``position``) to the user turn after its call.

        Raises when ``call_id`` is not a call of the last assistant turn
        still waiting for its result.
        """
        if call_id not in self._open_calls:
            raise self._invalid(
                f"messages[{position}]: the Tool result for {call_id!r} must follow the "
                "assistant turn that made the call, with nothing in between"
            )
        del self._open_calls[call_id]
        self._add(self._user, parts, position)

    def finished(self) -> list[dict[str, Any]]:
        """The turns, once every message was added; raises when there is none to send."""
        if not self.turns:
            raise self._invalid("messages: nothing to send: every message is blank assistant text")
        return self.turns

    def _add(self, role: str, parts: list[_Part], position: int) -> None:
        if self.turns and self.turns[-1][self._role_key] == role:
            self.turns[-1][self._parts_key].extend(parts)
            return
        if not self.turns and role != self._user:
            raise self._invalid(
                f"messages[{position}]: the transcript must open with a user message, "
                "not an assistant message"
            )
        self.turns.append({self._role_key: role, self._parts_key: parts})

    def _unanswered(self, position: int) -> VendorError:
        call_id, call_position = next(iter(self._open_calls.items()))
        return self._invalid(
            f"messages[{position}]: the Tool call {call_id!r} of messages[{call_position}] "
            "must be answered by its Tool result first, right after the assistant turn"
        )

    def _invalid(self, message: str) -> VendorError:
        return VendorError(VendorErrorCode.VENDOR_INVALID_REQUEST, message, vendor=self._vendor)
