"""The package's tables of contents, its docstrings, and what importing it pulls in."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import course_http
import course_http.loopback
from course_http import VendorErrorCode
from tests.children import child_env

README = Path(__file__).resolve().parents[2] / "packages" / "course-http" / "README.md"


def table_of_contents_problems(module: ModuleType) -> list[str]:
    """Where ``module.__all__`` is not its public names once each, or an export has no docstring."""
    public = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    listed = list(module.__all__)
    problems = [
        f"{module.__name__}.__all__ leaves out {name}" for name in sorted(public - set(listed))
    ]
    problems += [
        f"{module.__name__}.__all__ lists {name}, which is not public"
        for name in sorted(set(listed) - public)
    ]
    problems += [
        f"{module.__name__}.__all__ lists {name} twice"
        for name in sorted({n for n in listed if listed.count(n) > 1})
    ]
    for name in dict.fromkeys(listed):
        value = getattr(module, name, None)
        if (inspect.isclass(value) or inspect.isfunction(value)) and not inspect.getdoc(value):
            problems.append(f"{module.__name__}.{name} has no docstring")
    return problems


def test_all_lists_exactly_the_public_names_and_each_has_a_docstring() -> None:
    problems = [
        problem
        for module in (course_http, course_http.loopback)
        for problem in table_of_contents_problems(module)
    ]

    assert problems == [], "\n".join(["", *problems])


def test_a_table_of_contents_that_drifted_is_named() -> None:
    def undocumented() -> None:
        pass

    planted = ModuleType("planted")
    planted.__dict__.update(
        __all__=["undocumented", "gone", "undocumented"], undocumented=undocumented, unlisted=1
    )

    assert table_of_contents_problems(planted) == [
        "planted.__all__ leaves out unlisted",
        "planted.__all__ lists gone, which is not public",
        "planted.__all__ lists undocumented twice",
        "planted.undocumented has no docstring",
    ]


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
