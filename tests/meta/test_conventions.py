"""Conventions every package module keeps: a table of contents, unique codes, one slot idiom."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(
    path
    for path in ROOT.glob("packages/*/src/**/*.py")
    if path.name not in ("__init__.py", "__main__.py")
)
ENUM_BASES = {"Enum", "StrEnum", "IntEnum"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_package_modules_are_found() -> None:
    assert len(MODULES) > 100


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_every_module_lists_what_it_offers_in_all(path: Path) -> None:
    assigned = {
        target.id
        for node in _tree(path).body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert "__all__" in assigned


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_every_enum_of_codes_is_unique(path: Path) -> None:
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ClassDef) and any(
            isinstance(base, ast.Name) and base.id in ENUM_BASES for base in node.bases
        ):
            decorators = {
                decorator.id for decorator in node.decorator_list if isinstance(decorator, ast.Name)
            }
            assert "unique" in decorators, f"{node.name} has no @unique"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_value_constructors_store_their_slots_one_way(path: Path) -> None:
    # course_protocol.slots.slot_setter is the one idiom: a frozen class's
    # constructor never calls object.__setattr__ on itself.
    calls = [
        node.lineno
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "__setattr__"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "object"
    ]
    assert calls == [], f"object.__setattr__ at lines {calls}: use course_protocol.slots"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_a_module_over_300_lines_says_why_at_its_top(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if text.count("\n") <= 300:
        return
    docstring = ast.get_docstring(_tree(path)) or ""
    assert "Over 300 lines on purpose" in docstring, "split it, or say why it is one module"
