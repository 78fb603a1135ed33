"""Every exported class and function names the public module users import it from."""

from __future__ import annotations

import importlib
import inspect
import pickle
import traceback
from pathlib import Path

import pytest

from course_http import VendorError, VendorErrorCode
from course_protocol import CourseTextBlock

ROOT = Path(__file__).resolve().parents[2]
# Every workspace package's import name, read from the folders, plus the one public
# subpackage; a new package is covered without an edit here.
PUBLIC_MODULES = sorted(
    [path.name for path in ROOT.glob("packages/*/src/*") if (path / "__init__.py").is_file()]
    + ["course_http.loopback"]
)


def _exported_definitions() -> list[tuple[str, str, object]]:
    found: list[tuple[str, str, object]] = []
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value) or inspect.isfunction(value):
                found.append((module_name, name, value))
    return found


def test_the_public_modules_are_found() -> None:
    assert {"course_stream", "course_protocol", "course_http", "course_cli"} <= set(PUBLIC_MODULES)
    assert len(_exported_definitions()) > 100


# Ids by name: a function's repr holds its address, which differs between the
# processes of a pytest-xdist run, and every worker must collect the same ids.
@pytest.mark.parametrize(
    ("module_name", "name", "value"),
    _exported_definitions(),
    ids=[f"{module_name}.{name}" for module_name, name, _ in _exported_definitions()],
)
def test_an_exported_name_carries_its_public_module(
    module_name: str, name: str, value: object
) -> None:
    assert getattr(value, "__module__", None) == module_name
    assert getattr(importlib.import_module(module_name), name) is value


def test_a_traceback_names_the_error_by_its_public_path() -> None:
    error = VendorError(VendorErrorCode.VENDOR_INVALID_REQUEST, "not sendable", vendor="anthropic")
    shown = traceback.format_exception_only(error)[-1]
    assert shown.startswith("course_http.VendorError: ")


def test_a_protocol_value_pickles_under_its_public_path() -> None:
    block = CourseTextBlock("hello")
    dumped = pickle.dumps(block)
    assert b"course_protocol" in dumped
    assert b"course_protocol._messages" not in dumped
    assert pickle.loads(dumped) == block
