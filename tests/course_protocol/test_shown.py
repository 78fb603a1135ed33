"""One rule for how much of an untrusted text a course error message quotes."""

from __future__ import annotations

from course_protocol.untrusted import SHOWN_LENGTH, shown


def test_a_text_up_to_the_length_is_quoted_whole() -> None:
    text = "x" * SHOWN_LENGTH
    assert shown(text) is text
    assert shown("") == ""


def test_a_longer_text_keeps_one_character_less_and_an_ellipsis_marks_the_cut() -> None:
    text = "ab" * SHOWN_LENGTH
    quoted = shown(text)
    assert len(quoted) == SHOWN_LENGTH
    assert quoted == text[: SHOWN_LENGTH - 1] + "\u2026"
