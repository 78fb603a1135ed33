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
    "course_provider_openai.UsagePlace": "where a Chat dialect's usage arrives",
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


def unnamed_codes(where: str, hand_written: str, code_set: type[StrEnum]) -> list[str]:
    """The codes of ``code_set`` the ``hand_written`` text never names, as one offence."""
    missing = [
        member.name
        for member in code_set
        if f"`{member.value}`" not in hand_written and f"`{member.name}`" not in hand_written
    ]
    return [f"{where}: never names {code_set.__name__} {missing}"] if missing else []


def table_problems(where: str, hand_written: str, code_set: type[StrEnum]) -> list[str]:
    """A hand-written table of ``code_set`` that misses a code or repeats one, as one offence.

    A table is the rows (``| `CODE` ...``) that name a code of the set; the
    offence names the line of its first row.
    """
    spellings = {
        spelling: member for member in code_set for spelling in (member.name, member.value)
    }
    rows = [
        (number, spellings[cell])
        for number, line in enumerate(hand_written.splitlines(), start=1)
        if line.lstrip().startswith("| `") and (cell := line.split("`", 2)[1]) in spellings
    ]
    listed = sorted(member for _, member in rows)
    if not rows or listed == sorted(code_set):
        return []
    missing = [member.name for member in code_set if member not in listed]
    repeated = sorted({member.name for member in listed if listed.count(member) > 1})
    wrong = []
    if missing:
        wrong.append(f"misses {missing}")
    if repeated:
        wrong.append(f"lists {repeated} more than once")
    return [f"{where}:{rows[0][0]}: the table of {code_set.__name__} {', '.join(wrong)}"]


def test_every_code_is_named_in_the_hand_written_part_of_its_readme() -> None:
    offences = [
        offence
        for _, readme, code_set in CASES
        for offence in unnamed_codes(str(readme.relative_to(REPO)), _hand_written(readme), code_set)
    ]

    assert offences == [], "\n".join(["", *offences])


def test_a_hand_written_code_table_lists_every_code_of_its_set_once() -> None:
    offences = [
        offence
        for _, readme, code_set in CASES
        for offence in table_problems(
            str(readme.relative_to(REPO)), _hand_written(readme), code_set
        )
    ]

    assert offences == [], "\n".join(["", *offences])


class PlantedCode(StrEnum):
    FIRST = "FIRST"
    SECOND = "SECOND"
    THIRD = "THIRD"


def test_an_unnamed_code_and_a_table_that_misses_or_repeats_one_are_named() -> None:
    text = "# planted\n\nFails with `FIRST`.\n\n| `FIRST` | one |\n| `FIRST` | again |\n"
    whole = "| `FIRST` | one |\n| `SECOND` | two |\n| `THIRD` | three |\n"

    assert unnamed_codes("README.md", text, PlantedCode) == [
        "README.md: never names PlantedCode ['SECOND', 'THIRD']"
    ]
    assert table_problems("README.md", text, PlantedCode) == [
        "README.md:5: the table of PlantedCode misses ['SECOND', 'THIRD'], "
        "lists ['FIRST'] more than once"
    ]
    assert unnamed_codes("README.md", whole, PlantedCode) == []
    assert table_problems("README.md", whole, PlantedCode) == []
    assert table_problems("README.md", whole + whole, PlantedCode) == [
        "README.md:1: the table of PlantedCode lists ['FIRST', 'SECOND', 'THIRD'] more than once"
    ]
    assert table_problems("README.md", "No table names `FIRST`.\n", PlantedCode) == []
