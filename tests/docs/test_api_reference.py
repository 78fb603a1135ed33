"""Each package README's API reference is generated from the code, so it cannot drift."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from scripts import api_reference

REPO_ROOT = Path(__file__).resolve().parents[2]

READMES = api_reference.package_readmes()


@pytest.mark.parametrize(("module", "readme"), READMES, ids=[module for module, _ in READMES])
def test_the_readme_holds_the_api_reference_the_code_generates(module: str, readme: Path) -> None:
    text = readme.read_text(encoding="utf-8")

    assert api_reference.rewritten(text, module) == text, (
        f"{readme.relative_to(REPO_ROOT)}: run `make api-reference`"
    )


@pytest.mark.parametrize(("module", "readme"), READMES, ids=[module for module, _ in READMES])
def test_every_public_name_has_an_entry(module: str, readme: Path) -> None:
    reference = readme.read_text(encoding="utf-8").split(api_reference.START, 1)[1]

    for name in importlib.import_module(module).__all__:
        assert f"### `{name}" in reference, f"{module}.{name}"


def test_every_error_code_is_in_its_table() -> None:
    from course_provider_fixture import FixtureProviderErrorCode

    readme = REPO_ROOT / "packages" / "course-provider-fixture" / "README.md"
    reference = readme.read_text(encoding="utf-8").split(api_reference.START, 1)[1]

    for code in FixtureProviderErrorCode:
        assert f"| `{code.value}` | " in reference
    assert "| `PROVIDER_EXHAUSTED` | A call arrived when no queued response was left" in reference


def test_an_edited_reference_is_noticed() -> None:
    module, readme = READMES[0]
    text = readme.read_text(encoding="utf-8")
    tampered = text.replace(api_reference.END, "An extra line.\n\n" + api_reference.END)

    assert api_reference.rewritten(tampered, module) == text
    assert api_reference.rewritten(tampered, module) != tampered
