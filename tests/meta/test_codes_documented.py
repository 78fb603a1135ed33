"""Every code of every error StrEnum is documented in its package's README, by hand.

"Documented" means named (as `` `CODE` ``) in the README's hand-written part,
above the generated API reference. The reference lists every member of
every exported StrEnum by construction, so a search of the whole file can
never fail: that is how ``SCRIPT_INVALID_REQUEST`` stayed out of the
scripted double's error table while the README still "held" it. And a
hand-written table that lists some codes of a set is read as the whole
set, so it must list every one, once.

The StrEnums are found by walking every module of every package, so a new
one must be classified here: an error code set (the ``code`` of a
``CourseError``, or a set of issue codes), or one of `NOT_CODES`.
"""

from __future__ import annotations

import importlib
import pkgutil
from enum import StrEnum
from pathlib import Path
from types import ModuleType

import pytest

from course_protocol import CourseError

REPO = Path(__file__).resolve().parents[2]
API_REFERENCE_MARK = "<!-- api-reference:"

NOT_CODES = {
    "course_protocol.CourseStopReason": "a protocol value, not a failure",
    "course_conformance.Scenario": "how the kit drives a model, not a failure",
    "course_http.LoopbackEnd": "how a scripted loopback answer ends",
    "course_pytest.RecordMode": "a command-line option's values",
    "course_vendor.ToolChoice": "a configuration option's values",
    "course_vendor.ReasoningEffort": "a configuration option's values",
}
"""Every StrEnum that is not a set of codes a package fails or reports with, and why
(by package and class name: exported classes carry their package's module)."""

ISSUE_CODES = {"course_protocol.TranscriptIssueCode"}
"""Code sets of reported problems that are not exceptions (``validate_transcript``'s issues)."""


def _packages() -> dict[str, Path]:
    """Every course package's import name, with its README."""
    found = {}
    for readme in sorted(REPO.glob("packages/*/README.md")):
        for source in (readme.parent / "src").iterdir():
            if (source / "__init__.py").is_file():
                found[source.name] = readme
    return found


def _modules(name: str) -> list[ModuleType]:
    package = importlib.import_module(name)
    modules = [package]
    for info in pkgutil.walk_packages(package.__path__, f"{name}."):
        modules.append(importlib.import_module(info.name))
    return modules


def _defined(name: str, kind: type) -> list[type]:
    """The classes of ``kind`` that the modules of package ``name`` define, once each."""
    seen: dict[int, type] = {}
    for module in _modules(name):
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, kind)
                and value.__module__.partition(".")[0] == name
            ):
                seen[id(value)] = value
    return list(seen.values())


def _error_code_sets(name: str) -> list[type[StrEnum]]:
    enums = _defined(name, StrEnum)
    by_name = {enum.__name__: enum for enum in enums}
    # The annotation is read as written (``code: ScriptedModelErrorCode``), not
    # evaluated: an exported class's __module__ is its package, not its source.
    annotations = [
        vars(error).get("__annotations__", {}).get("code") for error in _defined(name, CourseError)
    ]
    raised = {
        by_name[annotation] if type(annotation) is str else annotation
        for annotation in annotations
        if annotation in by_name or annotation in enums
    }
    sets = []
    for enum in enums:
        qualified = f"{name}.{enum.__qualname__}"
        if qualified in NOT_CODES:
            assert enum not in raised, f"{qualified} is the code of an error"
            continue
        assert enum in raised or qualified in ISSUE_CODES, (
            f"{qualified}: classify it as an error code set or add it to NOT_CODES"
        )
        sets.append(enum)
    return sets


def _hand_written(readme: Path) -> str:
    text = readme.read_text(encoding="utf-8")
    return text.split(API_REFERENCE_MARK, 1)[0]


CASES = [
    (name, readme, code_set)
    for name, readme in _packages().items()
    for code_set in _error_code_sets(name)
]


def test_every_known_error_code_set_is_found() -> None:
    found = {code_set.__name__ for _, _, code_set in CASES}

    assert found >= {
        "CourseProtocolErrorCode",
        "JsonErrorCode",
        "TranscriptIssueCode",
        "ScriptedModelErrorCode",
        "FixtureProviderErrorCode",
        "VendorErrorCode",
        "Invariant",
        "DemoStopCode",
    }


@pytest.mark.parametrize(
    ("package", "readme", "code_set"),
    CASES,
    ids=[f"{package}.{code_set.__name__}" for package, _, code_set in CASES],
)
def test_every_code_is_named_in_the_hand_written_part_of_its_readme(
    package: str, readme: Path, code_set: type[StrEnum]
) -> None:
    text = _hand_written(readme)

    missing = [
        member.name
        for member in code_set
        if f"`{member.value}`" not in text and f"`{member.name}`" not in text
    ]

    assert missing == [], f"{readme.relative_to(REPO)} never names {missing}"


@pytest.mark.parametrize(
    ("package", "readme", "code_set"),
    CASES,
    ids=[f"{package}.{code_set.__name__}" for package, _, code_set in CASES],
)
def test_a_hand_written_code_table_lists_every_code_of_its_set_once(
    package: str, readme: Path, code_set: type[StrEnum]
) -> None:
    spellings = {
        spelling: member for member in code_set for spelling in (member.name, member.value)
    }
    rows = [
        spellings[cell]
        for line in _hand_written(readme).splitlines()
        if line.lstrip().startswith("| `") and (cell := line.split("`", 2)[1]) in spellings
    ]
    if not rows:
        return

    assert sorted(rows) == sorted(code_set), f"{readme.relative_to(REPO)}: {code_set.__name__}"
