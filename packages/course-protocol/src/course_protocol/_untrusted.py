"""Reads of untrusted values that every course boundary shares.

One home for the hostile-input rules, imported by every package that reads
foreign data, so each rule has one definition.
"""

from __future__ import annotations

from typing import Final

__all__ = ["BLANK_CHARACTERS", "is_blank"]

BLANK_CHARACTERS: Final = (
    "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What ECMAScript's ``String.prototype.trim()`` removes: its white space and line terminators.

Not Python's ``str.strip()``, which also removes U+001C-U+001F and U+0085
and keeps U+FEFF; the reference course decides blankness with ``trim()``.
"""


def is_blank(text: str) -> bool:
    """Whether ``text`` is empty once the ECMAScript white space (`BLANK_CHARACTERS`) is trimmed."""
    return not text.strip(BLANK_CHARACTERS)
