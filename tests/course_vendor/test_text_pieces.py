"""TextPieces against a plain list joined once: the same text whatever the pieces and the folds.

`TextPieces` folds every `FOLD_PIECES` pieces into one string as they
arrive and compares a text with its pieces in place (`equals`); neither
may ever give another answer than ``"".join(pieces)`` and ``==`` would.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from course_vendor import TextPieces
from course_vendor._text_pieces import FOLD_PIECES

_pieces = st.lists(st.text(max_size=4), max_size=3 * FOLD_PIECES)


def _filled(pieces: list[str]) -> TextPieces:
    kept = TextPieces()
    for piece in pieces:
        kept.append(piece)
    return kept


@given(_pieces)
def test_joined_is_the_pieces_joined_and_stays_so(pieces: list[str]) -> None:
    kept = _filled(pieces)
    assert kept.joined() == "".join(pieces)
    assert kept.joined() == "".join(pieces)
    assert bool(kept) is bool("".join(pieces))


@given(_pieces, st.integers(0, 3 * FOLD_PIECES))
def test_joined_midway_then_more_pieces_gives_the_whole_text(pieces: list[str], at: int) -> None:
    kept = _filled(pieces[:at])
    assert kept.joined() == "".join(pieces[:at])
    for piece in pieces[at:]:
        kept.append(piece)
    assert kept.joined() == "".join(pieces)


@given(_pieces, st.text(max_size=8), st.data())
def test_equals_answers_as_comparing_with_the_join_would(
    pieces: list[str], other: str, data: st.DataObject
) -> None:
    text = "".join(pieces)
    kept = _filled(pieces)
    assert kept.equals(text)
    assert kept.equals(other) is (other == text)
    if text:
        cut = data.draw(st.integers(0, len(text) - 1), label="cut")
        assert not kept.equals(text[:cut])
        assert not kept.equals(text + "x")
        assert not kept.equals(text[:cut] + "\x00" + text[cut + 1 :]) or text[cut] == "\x00"
    # equals never changes what is kept.
    assert kept.joined() == text


def test_a_fold_boundary_keeps_order_and_drops_empty_pieces() -> None:
    pieces = [f"{number} " for number in range(FOLD_PIECES * 2 + 3)]
    kept = TextPieces()
    for piece in pieces:
        kept.append(piece)
        kept.append("")
    assert kept.joined() == "".join(pieces)
    assert repr(kept).startswith("TextPieces('0 1 2 ")
    assert not TextPieces()
    assert TextPieces().joined() == ""
    assert TextPieces().equals("")
    assert not TextPieces().equals(" ")
