"""The package's table of contents and its docstrings."""

from __future__ import annotations

import inspect
from pathlib import Path

import course_provider_anthropic


def test_all_lists_exactly_the_public_names_and_each_resolves() -> None:
    public = {name for name in vars(course_provider_anthropic) if not name.startswith("_")}

    assert set(course_provider_anthropic.__all__) == public
    assert len(course_provider_anthropic.__all__) == len(set(course_provider_anthropic.__all__))
    assert course_provider_anthropic.WIRE == "anthropic-messages"


def test_every_public_function_class_and_method_has_a_docstring() -> None:
    for name in course_provider_anthropic.__all__:
        value = getattr(course_provider_anthropic, name)
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        assert inspect.getdoc(value), f"{name} has no docstring"
        for member_name, member in vars(value).items() if inspect.isclass(value) else ():
            if not member_name.startswith("_") and callable(member):
                assert inspect.getdoc(member), f"{name}.{member_name} has no docstring"


def test_the_package_ships_its_type_marker() -> None:
    assert (Path(course_provider_anthropic.__file__).parent / "py.typed").is_file()
