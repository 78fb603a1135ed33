"""Small named hostile objects, shared by the protocol tests.

Every container here records each call of an overridden method in
``calls``; the protocol must read them through the base types only, so a
test expects ``calls`` to stay empty.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NoReturn

from frozendict import frozendict

from course_protocol import CourseTextBlock

_DICT_READS = (
    "__getitem__",
    "get",
    "items",
    "keys",
    "values",
    "__iter__",
    "__len__",
    "__contains__",
    "__missing__",
    "copy",
)


def _spy(name: str) -> Any:
    def method(self: Any, *args: object) -> NoReturn:
        self.calls.append(name)
        raise AssertionError(f"overridden {name} was called")

    method.__name__ = name
    return method


class DictThatCountsReads(dict[str, object]):
    """A dict whose every read method is overridden to record the call and fail."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls: list[str] = []

    locals().update({name: _spy(name) for name in _DICT_READS})


class FrozendictThatCountsReads(frozendict[str, object]):
    """A frozendict subclass with the same spying read methods, ``__len__`` aside.

    frozendict's own constructor truth-tests the new instance, so ``__len__``
    must stay the base one; ``calls`` is shared because frozendict instances
    refuse new attributes.
    """

    calls: list[str] = []  # noqa: RUF012

    locals().update({name: _spy(name) for name in _DICT_READS if name != "__len__"})


class ListThatCountsReads(list[object]):
    """A list whose iteration, indexing and length are overridden to record and fail."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.calls: list[str] = []

    locals().update(
        {name: _spy(name) for name in ("__iter__", "__getitem__", "__len__", "copy", "index")}
    )


class TupleThatCountsReads(tuple[object, ...]):
    """A tuple whose iteration, indexing and length are overridden to record and fail."""

    calls: list[str] = []  # noqa: RUF012 (shared: tuples are built in __new__, not __init__)

    locals().update({name: _spy(name) for name in ("__iter__", "__getitem__", "__len__")})


class StrThatHashesDifferently(str):
    """A str subclass that lies in ``__hash__`` and ``__eq__``: never a valid key or value."""

    __slots__ = ()

    def __hash__(self) -> int:
        raise AssertionError("hashed a hostile str")

    def __eq__(self, other: object) -> bool:
        raise AssertionError("compared a hostile str")


class StrKeyThatLiesInEquality(str):
    """Hashes like its text (so a dict can hold it as a key) but raises when compared."""

    __slots__ = ()

    def __hash__(self) -> int:
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        raise AssertionError("compared a hostile key")


class ObjectThatPretendsToBeADict:
    """Claims to be a ``dict`` through ``__class__``, which ``isinstance`` believes."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return dict


class _MetaWithBrokenName(type):
    @property
    def __name__(cls) -> str:  # type: ignore[override]
        raise AssertionError("read the name of a hostile type")


class ObjectWithBrokenTypeName(metaclass=_MetaWithBrokenName):
    """An object whose type's ``__name__`` raises when read the ordinary way."""


class _MetaThatEqualsEverything(type):
    def __eq__(cls, other: object) -> bool:
        return True

    def __hash__(cls) -> int:
        return 0


class TypeThatEqualsEveryType(metaclass=_MetaThatEqualsEverything):
    """An object whose type compares equal to every class: ``in`` and ``==`` would be fooled."""

    text = "smuggled"
    id = "smuggled"


class ObjectThatRaisesOnEverything:
    """Raises from ``__eq__``, ``__hash__``, ``__getattr__``, iteration, ``len`` and truth tests."""

    def __eq__(self, other: object) -> bool:
        raise AssertionError("compared")

    def __hash__(self) -> int:
        raise AssertionError("hashed")

    def __getattr__(self, name: str) -> NoReturn:
        raise AssertionError(f"read attribute {name}")

    def __iter__(self) -> Iterator[object]:
        raise AssertionError("iterated")

    def __len__(self) -> int:
        raise AssertionError("measured")

    def __bool__(self) -> bool:
        raise AssertionError("truth-tested")


def tampered(value: Any, **fields: object) -> Any:
    """``value`` with ``fields`` overwritten past its constructor's checks, as forged values are.

    A text block keeps its text, citations and opaque together in one slot,
    so a forged field of one is written there with the other two unchanged.
    """
    if type(value) is CourseTextBlock:
        parts: dict[str, object] = {
            "text": value.text,
            "citations": value.citations,
            "opaque": value.opaque,
        }
        parts.update(fields)
        object.__setattr__(value, "_parts", (parts["text"], parts["citations"], parts["opaque"]))
        return value
    for name, field in fields.items():
        object.__setattr__(value, name, field)
    return value
