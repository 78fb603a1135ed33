"""Conventions every package module keeps: a table of contents, unique codes, one slot idiom.

Each convention is one test that reads every module and lists every offender
(``path:line: what is wrong``); each checker is also run on a planted module
that breaks it, so a rule that could never fail is noticed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(
    path
    for path in ROOT.glob("packages/*/src/**/*.py")
    if path.name not in ("__init__.py", "__main__.py")
)
ENUM_BASES = {"Enum", "StrEnum", "IntEnum"}
LONG_MODULE_LINES = 300
LONG_MODULE_REASON = "Over 300 lines on purpose"

Checker = Callable[[str, str, ast.Module], list[str]]
"""A convention: ``(where, source, tree)`` to its offences, each ``where:line: what is wrong``."""


def lacks_all(where: str, source: str, tree: ast.Module) -> list[str]:
    """The module assigns no ``__all__`` at its top level."""
    assigned = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    return [] if "__all__" in assigned else [f"{where}:1: assigns no __all__"]


def enums_without_unique(where: str, source: str, tree: ast.Module) -> list[str]:
    """Every enum class that is not decorated ``@unique``."""
    return [
        f"{where}:{node.lineno}: {node.name} has no @unique"
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(isinstance(base, ast.Name) and base.id in ENUM_BASES for base in node.bases)
        and "unique" not in {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
    ]


def object_setattr_calls(where: str, source: str, tree: ast.Module) -> list[str]:
    """Every ``object.__setattr__`` call.

    course_protocol.slots.slot_setter is the one idiom: a frozen class's
    constructor never calls object.__setattr__ on itself.
    """
    return [
        f"{where}:{node.lineno}: object.__setattr__: use course_protocol.slots"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "__setattr__"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "object"
    ]


def long_module_without_reason(where: str, source: str, tree: ast.Module) -> list[str]:
    """A module over 300 lines whose docstring does not say why it is one module."""
    lines = source.count("\n")
    if lines <= LONG_MODULE_LINES or LONG_MODULE_REASON in (ast.get_docstring(tree) or ""):
        return []
    return [f"{where}:1: {lines} lines: split it, or say why it is one module at its top"]


def _offences(checker: Checker) -> list[str]:
    found = []
    for path in MODULES:
        source = path.read_text(encoding="utf-8")
        found += checker(str(path.relative_to(ROOT)), source, ast.parse(source))
    return found


def _listed(offences: list[str]) -> str:
    return "\n".join(["", *offences])


def test_the_package_modules_are_found() -> None:
    assert len(MODULES) > 100


def test_every_module_lists_what_it_offers_in_all() -> None:
    offences = _offences(lacks_all)

    assert offences == [], _listed(offences)


def test_every_enum_of_codes_is_unique() -> None:
    offences = _offences(enums_without_unique)

    assert offences == [], _listed(offences)


def test_value_constructors_store_their_slots_one_way() -> None:
    offences = _offences(object_setattr_calls)

    assert offences == [], _listed(offences)


def test_a_module_over_300_lines_says_why_at_its_top() -> None:
    offences = _offences(long_module_without_reason)

    assert offences == [], _listed(offences)


PLANTED = (
    '''"""A module that breaks every convention."""

from enum import Enum, StrEnum, unique


class Colour(Enum):
    RED = 1


@unique
class Code(StrEnum):
    BAD = "BAD"


class Frozen:
    def __init__(self) -> None:
        object.__setattr__(self, "x", 1)
'''
    + "\n" * LONG_MODULE_LINES
)

KEPT = f'''"""A short module that keeps every convention. {LONG_MODULE_REASON}."""

from enum import StrEnum, unique

__all__ = ["Code"]


@unique
class Code(StrEnum):
    GOOD = "GOOD"
'''


def test_each_convention_names_the_line_a_planted_module_breaks_it_on() -> None:
    checkers: list[Checker] = [
        lacks_all,
        enums_without_unique,
        object_setattr_calls,
        long_module_without_reason,
    ]
    planted = ast.parse(PLANTED)
    lines = PLANTED.count("\n")
    kept_long = KEPT + "\n" * LONG_MODULE_LINES

    assert [checker("planted.py", PLANTED, planted) for checker in checkers] == [
        ["planted.py:1: assigns no __all__"],
        ["planted.py:6: Colour has no @unique"],
        ["planted.py:17: object.__setattr__: use course_protocol.slots"],
        [f"planted.py:1: {lines} lines: split it, or say why it is one module at its top"],
    ]
    for source in (KEPT, kept_long):
        assert [checker("kept.py", source, ast.parse(source)) for checker in checkers] == [[]] * 4
