"""Each package README's API reference is generated from the code, so it cannot drift."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from scripts import api_reference

REPO_ROOT = Path(__file__).resolve().parents[2]

READMES = api_reference.package_readmes()


def drift(where: str, text: str, module: str) -> list[str]:
    """The README ``text`` of ``module`` whose API reference is not the generated one.

    The offence names the first line that differs.
    """
    generated = api_reference.rewritten(text, module)
    if generated == text:
        return []
    pairs = zip(text.splitlines(), generated.splitlines(), strict=False)
    first = next(
        (number for number, (old, new) in enumerate(pairs, start=1) if old != new),
        min(text.count("\n"), generated.count("\n")) + 1,
    )
    return [f"{where}:{first}: not the API reference the code generates: run `make api-reference`"]


def missing_entries(where: str, text: str, module: str) -> list[str]:
    """Every name of ``module.__all__`` without an entry in the reference part of ``text``."""
    reference = text.split(api_reference.START, 1)[1]
    return [
        f"{where}: no entry for {module}.{name}"
        for name in importlib.import_module(module).__all__
        if f"### `{name}" not in reference
    ]


def _offences(rule: Callable[[str, str, str], list[str]]) -> list[str]:
    return [
        offence
        for module, readme in READMES
        for offence in rule(
            str(readme.relative_to(REPO_ROOT)), readme.read_text(encoding="utf-8"), module
        )
    ]


def test_the_readme_holds_the_api_reference_the_code_generates() -> None:
    offences = _offences(drift)

    assert offences == [], "\n".join(["", *offences])


def test_every_public_name_has_an_entry() -> None:
    offences = _offences(missing_entries)

    assert offences == [], "\n".join(["", *offences])


def test_every_error_code_is_in_its_table() -> None:
    from course_provider_fixture import FixtureProviderErrorCode

    readme = REPO_ROOT / "packages" / "course-provider-fixture" / "README.md"
    reference = readme.read_text(encoding="utf-8").split(api_reference.START, 1)[1]

    for code in FixtureProviderErrorCode:
        assert f"| `{code.value}` | " in reference
    assert "| `PROVIDER_EXHAUSTED` | A call arrived when no queued response was left" in reference


def test_an_edited_reference_is_noticed_at_its_line() -> None:
    module, readme = READMES[0]
    text = readme.read_text(encoding="utf-8")
    tampered = text.replace(api_reference.END, "An extra line.\n\n" + api_reference.END)
    edited_line = tampered.splitlines().index("An extra line.") + 1

    assert api_reference.rewritten(tampered, module) == text
    assert drift("README.md", tampered, module) == [
        f"README.md:{edited_line}: not the API reference the code generates: "
        "run `make api-reference`"
    ]
    assert drift("README.md", text, module) == []


def test_a_public_name_without_an_entry_is_named() -> None:
    module = READMES[0][0]
    names = importlib.import_module(module).__all__
    left_out = next(
        name
        for name in names
        if not any(other.startswith(name) for other in names if other != name)
    )
    entries = "".join(f"### `{name}`\n\n" for name in names if name != left_out)
    text = f"# {module}\n\n{api_reference.START}\n{entries}{api_reference.END}\n"

    assert missing_entries("README.md", text, module) == [
        f"README.md: no entry for {module}.{left_out}"
    ]
    assert missing_entries("README.md", text + f"### `{left_out}`\n", module) == []
