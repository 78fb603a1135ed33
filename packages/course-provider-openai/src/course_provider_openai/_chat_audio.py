"""A choice's audio output (``delta.audio``), gathered fragment by fragment: the grammar's part.

OpenAI streams audio output as ``delta.audio`` objects: the audio's ``id``,
base64 ``data`` pieces and ``transcript`` pieces, and at last its
``expires_at``, after which the audio is whole. Neither the API reference
nor the official SDK's types list the field; the SDK keeps it as an extra
one. `AudioPieces` reads each object; `AudioPieces.audio` is what they said.
"""

from __future__ import annotations

from typing import final

from course_http import VendorErrorCode
from course_protocol import is_blank
from course_protocol.untrusted import shown
from course_provider_openai._chat_reads import choice_path
from course_provider_openai._chat_result import ChatAudio
from course_provider_openai._failures import OpenAIFailures
from course_vendor import TextPieces

__all__ = ["AudioPieces"]


@final
class AudioPieces:
    """One choice's audio so far; `expires_at` is set once the audio is whole."""

    __slots__ = ("_data", "_failures", "_id", "_transcript", "expires_at")

    def __init__(self, failures: OpenAIFailures) -> None:
        self._failures = failures
        self._id: str | None = None
        self._data = TextPieces()
        self._transcript = TextPieces()
        self.expires_at: int | None = None
        """The audio's ``expires_at``, once it came: the audio is whole then."""

    def take(self, audio: object, index: int, position: int) -> None:
        """Read the ``delta.audio`` of event ``index`` (its choice at ``position``).

        Raises ``VENDOR_INVALID_EVENT`` naming the path: not an object, an
        ``id`` that is blank or differs from the one given before, ``data``
        or ``transcript`` that is not text, an ``expires_at`` that is not a
        non-negative integer.
        """
        if type(audio) is not dict:
            self._failures.invalid(
                index, choice_path(position, "delta", "audio"), "an object or null", audio
            )
        audio_id = audio.get("id")
        if audio_id is not None and audio_id != self._id:
            self._take_id(audio_id, index, position)
        for key, pieces in (("data", self._data), ("transcript", self._transcript)):
            piece = audio.get(key)
            if piece is not None:
                if type(piece) is not str:
                    path = choice_path(position, "delta", "audio", key)
                    self._failures.invalid(index, path, "a string or null", piece)
                pieces.append(piece)
        expires_at = audio.get("expires_at")
        if expires_at is not None:
            if type(expires_at) is not int or expires_at < 0:
                path = choice_path(position, "delta", "audio", "expires_at")
                self._failures.invalid(index, path, "a non-negative integer", expires_at)
            self.expires_at = expires_at

    def audio(self) -> ChatAudio:
        """What the fragments said: the id, the joined data and transcript, ``expires_at``."""
        return ChatAudio(self._id, self._data.joined(), self._transcript.joined(), self.expires_at)

    def _take_id(self, audio_id: object, index: int, position: int) -> None:
        path = choice_path(position, "delta", "audio", "id")
        if type(audio_id) is not str or is_blank(audio_id):
            self._failures.invalid(index, path, "a non-blank string or null", audio_id)
        if self._id is not None:
            self._failures.fail(
                VendorErrorCode.VENDOR_INVALID_EVENT,
                index,
                f"{path} {shown(audio_id)!r} differs from the audio's id {self._id!r}",
            )
        self._id = audio_id
