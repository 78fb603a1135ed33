"""Reads of untrusted values that every course boundary shares.

One home for the hostile-input rules, imported by every package that reads
foreign data (the protocol's constructors, the adapters, the conformance
kit), so each rule has exactly one definition:

- a value's type name, read without running any of its code;
- a list or tuple (subclasses included) snapshot through the base type's
  own C methods, so an overridden ``__iter__`` or ``__getitem__`` never runs;
- whether a type defines a special method, looked up as the interpreter
  does, without ``__getattr__`` or ``__getattribute__``;
- the blank-string rule (ECMAScript's ``trim()``, the reference course's);
- how much of an untrusted text an error message quotes (`shown`);
- how a message names a wrong value: read from JSON (an event, a fixture,
  a cassette), in JSON's words (`described`, with `ABSENT` for a key that is
  not there); or given in a configuration, in Python's (`described_setting`);
- what counts as an integral number (the reference's ``Number.isInteger``:
  ``12.0`` and ``1E1`` are integers), and the token-count limit.

A public module: the other course packages import it as ``course_protocol.untrusted``.
"""

from __future__ import annotations

from typing import Final, cast, final

__all__ = [
    "ABSENT",
    "BLANK_CHARACTERS",
    "MAX_TOKEN_COUNT",
    "SHOWN_LENGTH",
    "described",
    "described_setting",
    "integral_number",
    "is_blank",
    "sequence_snapshot",
    "shown",
    "special_method",
    "token_count_of",
    "type_name",
]

MAX_TOKEN_COUNT: Final = 2**53 - 1
"""The largest usage count: the largest integer every JSON reader holds exactly."""

BLANK_CHARACTERS: Final = (
    "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What ECMAScript's ``String.prototype.trim()`` removes: its white space and line terminators.

Not Python's ``str.strip()``, which also removes U+001C-U+001F and U+0085
and keeps U+FEFF; the reference course decides blankness with ``trim()``.
"""

SHOWN_LENGTH: Final = 200
"""The most characters of an untrusted text an error message quotes (`shown`)."""

_ELLIPSIS: Final = "\u2026"

_type_name_of = type.__dict__["__name__"].__get__
_mro_of = type.__dict__["__mro__"].__get__
_namespace_of = type.__dict__["__dict__"].__get__


def type_name(value: object) -> str:
    """The name of ``value``'s real type, read without running any of its code."""
    return cast(str, _type_name_of(type(value), type))


def shown(text: str) -> str:
    """``text`` as an error message quotes it: whole up to `SHOWN_LENGTH` characters.

    A longer text keeps its first ``SHOWN_LENGTH - 1`` characters and ends in
    ``…``, so a quote is never longer than `SHOWN_LENGTH` and a cut is
    never mistaken for the text's own end. Every course package quotes
    foreign text (a vendor's message, an unknown event type, a value that
    differs) through this one rule: a hostile body cannot make a message huge.
    """
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 1] + _ELLIPSIS


@final
class _Absent:
    """The type of `ABSENT`: one value, never equal to anything a JSON document holds."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()
"""What a read of a JSON object gets for a key that is not there: ``data.get(key, ABSENT)``.

A key that is absent and a key whose value is ``null`` are different
mistakes; `described` says ``missing`` for this one, ``null`` for ``None``.
"""

_SHOWN_NUMBER: Final = 10**18
_JSON_WORDS: Final[dict[type, str]] = {dict: "an object", list: "an array", tuple: "an array"}


def described(value: object) -> str:
    """How a message names a wrong value read from JSON, in JSON's words: ``got <described>``.

    ``missing`` for `ABSENT`, ``null``, ``true``, ``false``; a number as
    itself (``-1``, ``1.5``; an integer of 19 digits or more as ``a large
    integer``); a string by what it is, never by its text, which could be
    huge or forge a line of a log: ``an empty string``, ``a blank string``
    (`is_blank`), ``a string``; ``an object``, ``an array`` (a ``list`` or
    ``tuple``); anything else, which no JSON document holds, as ``a value of
    type <name>`` (its type's name, read without running its code). One
    word for one value in every course message. Never raises.
    """
    kind = type(value)
    if value is ABSENT:
        return "missing"
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        number = cast(int, value)
        return repr(number) if -_SHOWN_NUMBER < number < _SHOWN_NUMBER else "a large integer"
    if kind is float:
        return float.__repr__(cast(float, value))
    if kind is str:
        text = cast(str, value)
        if not text:
            return "an empty string"
        return "a blank string" if is_blank(text) else "a string"
    return _JSON_WORDS.get(kind) or f"a value of type {type_name(value)}"


def described_setting(value: object, *, private: bool = False) -> str:
    """How a message names a wrong value given in a configuration, in Python's words.

    A configuration is Python written by the caller, so its values are
    shown as Python spells them: ``None``, ``True``, ``False``, a number as
    itself (an ``int`` of 19 digits or more as ``a large int``), a ``str``
    as its ``repr``, quoted by `shown` (``'requried'``); anything else by its
    type's name (``list``, ``dict``, ``CourseToolSpec``), read without
    running its code. With ``private`` (an API key, an end user's id) only
    ``None`` and the booleans are shown: a ``str`` is ``an empty str``, ``a
    blank str`` or ``a str of N characters``, anything else its type's name.
    Never raises.
    """
    kind = type(value)
    if value is None or kind is bool:
        return repr(value)
    if private:
        if kind is not str:
            return type_name(value)
        text = cast(str, value)
        if not text:
            return "an empty str"
        return "a blank str" if is_blank(text) else f"a str of {len(text)} characters"
    if kind is int:
        number = cast(int, value)
        return repr(number) if -_SHOWN_NUMBER < number < _SHOWN_NUMBER else "a large int"
    if kind is float:
        return float.__repr__(cast(float, value))
    if kind is str:
        return repr(shown(cast(str, value)))
    return type_name(value)


def is_blank(text: str) -> bool:
    """Whether ``text`` is empty once the ECMAScript white space (`BLANK_CHARACTERS`) is trimmed."""
    # Trimming one end decides it: a text is blank exactly when its leading
    # blanks are all of it. The chunk constructors inline the same test.
    return not text.lstrip(BLANK_CHARACTERS)


def integral_number(value: object) -> int | None:
    """The ``int`` that ``value`` equals when it is an integral JSON number, else None.

    The reference course reads a JSON number as a number and asks
    ``Number.isInteger``: ``12``, ``12.0``, ``1E1`` (10) and ``100e-2`` (1)
    are integers there, and ``-0.0`` is 0. So here an exact ``int`` is
    itself and an exact ``float`` with no fractional part is the ``int`` it
    equals. ``bool`` is not a number (``True`` is not 1), nor is any
    subclass of ``int`` or ``float`` (its methods are foreign code);
    ``12.5``, ``NaN`` and the infinities are not integral. Range limits are
    the caller's.
    """
    kind = type(value)
    if kind is int:
        return cast(int, value)
    if kind is float and float.is_integer(cast(float, value)):
        return int(cast(float, value))
    return None


def token_count_of(value: object) -> int | None:
    """The usage count ``value`` is: an `integral_number` from 0 to 2**53 - 1, else None."""
    count = integral_number(value)
    if count is None or not 0 <= count <= MAX_TOKEN_COUNT:
        return None
    return count


def sequence_snapshot(value: object) -> tuple[object, ...] | None:
    """A new tuple of a ``list`` or ``tuple``'s items, or None for anything else.

    Subclasses are read through the base type's own C methods, so what is
    validated is what is kept. ``str``, ``bytes``, mappings and iterators
    are None: a one-shot iterator would be consumed by the check itself.
    """
    kind = type(value)
    if kind is tuple:
        return cast(tuple[object, ...], value)
    if issubclass(kind, list):
        return tuple(list.__iter__(cast(list[object], value)))
    if issubclass(kind, tuple):
        return tuple(tuple.__iter__(cast(tuple[object, ...], value)))
    return None


def special_method(value: object, name: str) -> object | None:
    """What ``value``'s type (not the instance) defines as the special method ``name``, or None.

    Reads the class dictionaries along the real MRO, the way the interpreter
    looks special methods up, so no ``__getattr__`` or ``__getattribute__``
    of the value or its metaclass runs. The result is the raw class
    attribute (not bound); a method set to None is None, as it is absent.
    """
    for klass in cast(tuple[type, ...], _mro_of(type(value), type)):
        namespace = cast(dict[str, object], _namespace_of(klass, type))
        if name in namespace:
            return namespace[name]
    return None
