"""`TextPieces`: streamed text kept in order and joined at the end, at about the text's own size.

A long response streams its text (or a Tool call's argument text) as tens
of thousands of pieces of a few characters each. Kept in a ``list[str]``
until the end, every piece costs its own ``str`` object and a list slot,
about 64 bytes for a 7-character word: nine times the text it holds (the
vendors group's peak-memory rows in benchmarks/README.md). `TextPieces`
joins every `FOLD_PIECES` pieces into one string as they arrive, so the
pieces held at once are few and what grows is the text itself.
"""

from __future__ import annotations

from typing import Final, final

__all__ = ["FOLD_PIECES", "TextPieces"]

FOLD_PIECES: Final = 256
"""How many pieces `TextPieces` keeps apart before it joins them into one string."""


@final
class TextPieces:
    """The pieces of one streamed text, in the order they came; `joined` is their concatenation.

    Falsy until a non-empty piece came (empty pieces are dropped: they add
    nothing to the text). `joined` may be called at any time; pieces added
    after it are joined after the text so far.
    """

    __slots__ = ("_folded", "_recent")

    def __init__(self) -> None:
        # ``_folded`` holds joined runs of FOLD_PIECES pieces each; ``_recent``
        # the pieces since the last run, at most FOLD_PIECES - 1 of them.
        self._folded: list[str] = []
        self._recent: list[str] = []

    def append(self, piece: str) -> None:
        """Add ``piece`` (a ``str``) at the end of the text."""
        if not piece:
            return
        recent = self._recent
        recent.append(piece)
        if len(recent) >= FOLD_PIECES:
            self._folded.append("".join(recent))
            recent.clear()

    def joined(self) -> str:
        """The whole text so far, as one string (kept as the one piece held from then on)."""
        if not self._recent and len(self._folded) <= 1:
            return self._folded[0] if self._folded else ""
        self._folded.extend(self._recent)
        self._recent.clear()
        text = "".join(self._folded)
        self._folded = [text]
        return text

    def equals(self, text: str) -> bool:
        """Whether ``text`` is the whole text so far, compared piece by piece without joining.

        A vendor that sends the whole text again at the end (as the
        Responses API's ``.done`` events do) can be checked against the
        pieces, and its string kept, with no third copy of the text.
        """
        position = 0
        for run in (self._folded, self._recent):
            for piece in run:
                if not text.startswith(piece, position):
                    return False
                position += len(piece)
        return position == len(text)

    def __bool__(self) -> bool:
        return bool(self._folded or self._recent)

    def __repr__(self) -> str:
        return f"TextPieces({''.join([*self._folded, *self._recent])!r})"
