"""The package's tables of contents, its docstrings, and what importing it pulls in."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import course_http
import course_http.loopback
from course_http import VendorErrorCode
from tests.children import child_env

README = Path(__file__).resolve().parents[2] / "packages" / "course-http" / "README.md"


@pytest.mark.parametrize("module", [course_http, course_http.loopback], ids=lambda m: m.__name__)
def test_all_lists_exactly_the_public_names_and_each_has_a_docstring(module: ModuleType) -> None:
    public = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert set(module.__all__) == public
    assert len(module.__all__) == len(set(module.__all__))
    for name in module.__all__:
        value = getattr(module, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{name} has no docstring"


def test_importing_course_http_pulls_in_neither_the_server_nor_uvicorn() -> None:
    code = (
        "import sys, course_http; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('uvicorn', 'h11', 'course_conformance') or m == 'course_http.loopback'))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code],
        env=child_env(),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert completed.stdout.strip() == "[]"


def test_the_readme_error_table_lists_every_code_once_with_its_retryability() -> None:
    # The hand-written table, not the generated API reference below it.
    text = README.read_text(encoding="utf-8").split("<!-- api-reference:", 1)[0]
    codes = {code.value for code in VendorErrorCode}
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    listed = {row.split("`")[1]: row for row in rows if row.split("`")[1] in codes}
    assert len(listed) == len([row for row in rows if row.split("`")[1] in codes])
    assert set(listed) == codes
    for code in VendorErrorCode:
        retryable = course_http.VendorError(code, "m", vendor="v").retryable
        assert ("| yes |" in listed[code.value]) is retryable, code
        assert ("| no |" in listed[code.value]) is not retryable, code
