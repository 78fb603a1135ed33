"""Every exported class and function names the public module users import it from."""

from __future__ import annotations

import importlib
import inspect
import pickle
import traceback
from pathlib import Path
from types import ModuleType

from course_http import VendorError, VendorErrorCode
from course_protocol import CourseTextBlock

ROOT = Path(__file__).resolve().parents[2]
# Every workspace package's import name, read from the folders, plus the one public
# subpackage; a new package is covered without an edit here.
PUBLIC_MODULES = sorted(
    [path.name for path in ROOT.glob("packages/*/src/*") if (path / "__init__.py").is_file()]
    + ["course_http.loopback"]
)


def exported_definitions(module: ModuleType) -> list[tuple[str, object]]:
    """The classes and functions ``module`` exports, by name."""
    exported = [(name, getattr(module, name)) for name in module.__all__]
    return [
        (name, value)
        for name, value in exported
        if inspect.isclass(value) or inspect.isfunction(value)
    ]


def misplaced(module_name: str, module: ModuleType) -> list[str]:
    """Every class or function ``module`` exports whose ``__module__`` is not ``module_name``."""
    return [
        f"{module_name}.{name}: carries the module {carried!r}"
        for name, value in exported_definitions(module)
        if (carried := getattr(value, "__module__", None)) != module_name
    ]


def test_the_public_modules_are_found() -> None:
    assert {"course_stream", "course_protocol", "course_http", "course_cli"} <= set(PUBLIC_MODULES)
    definitions = [
        definition
        for module_name in PUBLIC_MODULES
        for definition in exported_definitions(importlib.import_module(module_name))
    ]
    assert len(definitions) > 100


def test_every_exported_name_carries_its_public_module() -> None:
    offences = [
        offence
        for module_name in PUBLIC_MODULES
        for offence in misplaced(module_name, importlib.import_module(module_name))
    ]

    assert offences == [], "\n".join(["", *offences])


def test_an_export_that_carries_its_private_module_is_named() -> None:
    def exported() -> None:
        """Defined here, so it carries this test module's name."""

    planted = ModuleType("planted")
    planted.__dict__.update(
        __all__=["exported", "Kept", "VALUE"],
        exported=exported,
        Kept=type("Kept", (), {"__module__": "planted"}),
        VALUE=1,
    )

    assert misplaced("planted", planted) == [f"planted.exported: carries the module {__name__!r}"]


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
