"""The wire-vocabulary contract fails on a planted wire name and only then."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import grimp
import pytest
from importlinter import ContractCheck
from importlinter.domain.contract import InvalidContractOptions

from tools.wire_contract import (
    WireLiteral,
    WireVocabularyContract,
    module_source_path,
    wire_literals_in,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
WIRE_NAMES = ["response_start", "tool_call", "response_end", "input_tokens", "schemaVersion"]


def _plant_package(root: Path, name: str, modules: dict[str, str]) -> None:
    package = root / name
    package.mkdir()
    for module, source in modules.items():
        (package / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")


def _run(package: str, home: str, allowed: list[str] | None = None) -> ContractCheck:
    options: dict[str, object] = {"home_package": home, "wire_names": WIRE_NAMES}
    if allowed is not None:
        options["allowed_literals"] = allowed
    contract = WireVocabularyContract(
        name="wire vocabulary", session_options={}, contract_options=options
    )
    return contract.check(grimp.build_graph(package, cache_dir=None), verbose=False)


def _check(package: str, home: str) -> tuple[bool, list[WireLiteral], list[str]]:
    result = _run(package, home)
    return result.kept, result.metadata["literals"], result.metadata["unreadable"]


@pytest.fixture
def scratch_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_contract_fails_on_a_wire_name_planted_outside_the_home_package(
    scratch_root: Path,
) -> None:
    _plant_package(
        scratch_root,
        "scratch_wire_leak",
        {
            "__init__": "",
            "home": 'KIND = "response_end"\n',
            "downstream": """\
                def is_terminal(record: dict[str, str]) -> bool:
                    return record["type"] == "response_end"
            """,
        },
    )

    kept, literals, unreadable = _check("scratch_wire_leak", home="scratch_wire_leak.home")

    assert kept is False
    assert literals == [WireLiteral("scratch_wire_leak.downstream", 2, "response_end")]
    assert unreadable == []


def test_contract_is_kept_when_only_the_home_package_spells_wire_names(
    scratch_root: Path,
) -> None:
    _plant_package(
        scratch_root,
        "scratch_wire_clean",
        {
            "__init__": "",
            "home": 'NAMES = ("tool_call", "schemaVersion", "input_tokens")\n',
            "downstream": 'STOP_REASON = "toolCall"\nUSAGE_KEY = "inputTokens"\n',
        },
    )

    kept, literals, unreadable = _check("scratch_wire_clean", home="scratch_wire_clean.home")

    assert (kept, literals, unreadable) == (True, [], [])


def test_an_allowance_exempts_one_name_in_one_module_and_its_submodules_only(
    scratch_root: Path,
) -> None:
    _plant_package(
        scratch_root,
        "scratch_wire_allowed",
        {
            "__init__": "",
            "home": "",
            "usage": 'FIELDS = ("input_tokens", "tool_call")\n',
            "other": 'FIELD = "input_tokens"\n',
        },
    )

    result = _run(
        "scratch_wire_allowed",
        home="scratch_wire_allowed.home",
        allowed=["scratch_wire_allowed.usage: input_tokens"],
    )

    assert result.kept is False
    assert result.metadata["literals"] == [
        WireLiteral("scratch_wire_allowed.other", 1, "input_tokens"),
        WireLiteral("scratch_wire_allowed.usage", 1, "tool_call"),
    ]
    assert result.warnings == []


def test_an_allowance_that_matches_nothing_is_reported_as_a_warning(scratch_root: Path) -> None:
    _plant_package(scratch_root, "scratch_wire_stale", {"__init__": "", "home": ""})

    result = _run(
        "scratch_wire_stale",
        home="scratch_wire_stale.home",
        allowed=["scratch_wire_stale: tool_call"],
    )

    assert result.kept is True
    assert result.warnings == [
        "allowed_literals entry matches nothing: scratch_wire_stale: tool_call"
    ]


def test_an_allowance_without_a_module_and_a_name_is_an_invalid_option() -> None:
    with pytest.raises(InvalidContractOptions) as caught:
        WireVocabularyContract(
            name="wire vocabulary",
            session_options={},
            contract_options={
                "home_package": "pkg",
                "wire_names": WIRE_NAMES,
                "allowed_literals": ["pkg.module tool_call"],
            },
        )

    assert list(caught.value.errors) == ["allowed_literals"]


def test_contract_reads_nested_and_f_string_literals_but_not_substrings() -> None:
    source = textwrap.dedent(
        """\
        LABEL = "a tool_call happened"
        def f(x: object) -> str:
            match x:
                case {"schemaVersion": 1}:
                    return f"{x}" "input_tokens"
            return "ok"
        """
    )

    found = wire_literals_in("m", source, frozenset(WIRE_NAMES))

    assert found == [
        WireLiteral("m", 4, "schemaVersion"),
        WireLiteral("m", 5, "input_tokens"),
    ]


def test_module_source_path_finds_submodules_without_importing_them(scratch_root: Path) -> None:
    _plant_package(
        scratch_root,
        "scratch_wire_unimported",
        {"__init__": "raise RuntimeError('must not be imported')\n", "inner": "X = 1\n"},
    )

    path = module_source_path("scratch_wire_unimported.inner")

    assert path == scratch_root / "scratch_wire_unimported" / "inner.py"
    assert "scratch_wire_unimported" not in sys.modules


def test_module_source_path_is_none_for_unknown_modules() -> None:
    assert module_source_path("scratch_wire_no_such_package.inner") is None


def test_lint_imports_with_the_repository_contract_type_fails_on_a_planted_name(
    tmp_path: Path,
) -> None:
    _plant_package(
        tmp_path,
        "scratch_wire_cli",
        {"__init__": "", "home": "", "leaky": 'EVENT = "tool_call"\n'},
    )
    config = tmp_path / "contracts.ini"
    config.write_text(
        textwrap.dedent(
            """\
            [importlinter]
            root_packages =
                scratch_wire_cli
            contract_types =
                wire_vocabulary: tools.wire_contract.WireVocabularyContract

            [importlinter:contract:wire]
            name = Wire vocabulary stays home
            type = wire_vocabulary
            home_package = scratch_wire_cli.home
            wire_names =
                tool_call
            """
        ),
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    lint_imports = Path(sys.executable).with_name("lint-imports")

    completed = subprocess.run(
        [str(lint_imports), "--no-cache", "--no-logo", str(config)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )

    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert "scratch_wire_cli.leaky:1 spells the wire name 'tool_call'" in completed.stdout
    assert "Wire vocabulary stays home BROKEN" in completed.stdout
