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
- the token-count limit.
"""

from __future__ import annotations

from typing import Final, TypeGuard, cast

__all__ = [
    "BLANK_CHARACTERS",
    "MAX_TOKEN_COUNT",
    "describe",
    "is_blank",
    "is_token_count",
    "sequence_snapshot",
    "special_method",
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

_type_name_of = type.__dict__["__name__"].__get__
_mro_of = type.__dict__["__mro__"].__get__
_namespace_of = type.__dict__["__dict__"].__get__


def type_name(value: object) -> str:
    """The name of ``value``'s real type, read without running any of its code."""
    return cast(str, _type_name_of(type(value), type))


def describe(value: object) -> str:
    """How an error message names an unexpected value: ``null`` for None, else its type name."""
    return "null" if value is None else type_name(value)


def is_blank(text: str) -> bool:
    """Whether ``text`` is empty once the ECMAScript white space (`BLANK_CHARACTERS`) is trimmed."""
    # Trimming one end decides it: a text is blank exactly when its leading
    # blanks are all of it. The chunk constructors inline the same test.
    return not text.lstrip(BLANK_CHARACTERS)


def is_token_count(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a usage count: an exact ``int`` (not ``bool``) from 0 to 2**53 - 1."""
    return type(value) is int and 0 <= value <= MAX_TOKEN_COUNT


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
