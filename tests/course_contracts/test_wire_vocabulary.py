"""The wire-vocabulary contract fails on a planted wire name and only then."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import grimp
import pytest
from importlinter import ContractCheck
from importlinter.domain.contract import InvalidContractOptions

from course_contracts.wire_vocabulary import (
    WireLiteral,
    WireVocabularyContract,
    module_source_path,
    wire_literals_in,
)
from tests.children import child_env

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
                wire_vocabulary: course_contracts.WireVocabularyContract

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
    env = child_env({"PYTHONPATH": str(tmp_path)})
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


def _run_shared(package: str, home: str, wire_names: list[str], shared: list[str]) -> ContractCheck:
    contract = WireVocabularyContract(
        name="wire vocabulary",
        session_options={},
        contract_options={"home_package": home, "wire_names": wire_names, "shared_names": shared},
    )
    return contract.check(grimp.build_graph(package, cache_dir=None), verbose=False)


def test_a_shared_name_may_be_spelled_by_the_other_adapter_and_nowhere_else(
    scratch_root: Path,
) -> None:
    _plant_package(
        scratch_root,
        "scratch_wire_shared",
        {
            "__init__": "",
            "vendor": 'KINDS = ("content_block_delta", "text_delta")\n',
            "transport": 'KIND = "text_delta"\n',
            "core": 'KIND = "text_delta"\nOTHER = "content_block_delta"\n',
        },
    )

    result = _run_shared(
        "scratch_wire_shared",
        home="scratch_wire_shared.vendor",
        wire_names=["content_block_delta", "text_delta"],
        shared=["scratch_wire_shared.transport: text_delta"],
    )

    assert result.kept is False
    assert result.metadata["literals"] == [
        WireLiteral("scratch_wire_shared.core", 1, "text_delta"),
        WireLiteral("scratch_wire_shared.core", 2, "content_block_delta"),
    ]
    assert result.warnings == []


def test_a_shared_name_covers_only_that_name_in_the_sharing_package(scratch_root: Path) -> None:
    _plant_package(
        scratch_root,
        "scratch_wire_share_one",
        {"__init__": "", "vendor": "", "transport": 'KINDS = ("text_delta", "message_stop")\n'},
    )

    result = _run_shared(
        "scratch_wire_share_one",
        home="scratch_wire_share_one.vendor",
        wire_names=["message_stop", "text_delta"],
        shared=["scratch_wire_share_one.transport: text_delta"],
    )

    assert result.metadata["literals"] == [
        WireLiteral("scratch_wire_share_one.transport", 1, "message_stop")
    ]


def test_a_shared_name_that_matches_nothing_is_reported_as_a_warning(scratch_root: Path) -> None:
    _plant_package(scratch_root, "scratch_wire_share_stale", {"__init__": "", "vendor": ""})

    result = _run_shared(
        "scratch_wire_share_stale",
        home="scratch_wire_share_stale.vendor",
        wire_names=["text_delta"],
        shared=["scratch_wire_share_stale.transport: text_delta"],
    )

    assert result.kept is True
    assert result.warnings == [
        "shared_names entry matches nothing: scratch_wire_share_stale.transport: text_delta"
    ]


@pytest.mark.parametrize(
    "line",
    ["pkg.other text_delta", "pkg.other: not_a_wire_name", "pkg.home: text_delta"],
    ids=["no-separator", "not-in-wire-names", "the-home-itself"],
)
def test_a_shared_name_must_be_a_wire_name_of_another_package(line: str) -> None:
    with pytest.raises(InvalidContractOptions) as caught:
        WireVocabularyContract(
            name="wire vocabulary",
            session_options={},
            contract_options={
                "home_package": "pkg.home",
                "wire_names": ["text_delta"],
                "shared_names": [line],
            },
        )

    assert list(caught.value.errors) == ["shared_names"]


def _copy_of_course_stream_with(root: Path, source: str) -> None:
    package = root / "course_stream"
    shutil.copytree(
        REPO_ROOT / "packages" / "course-stream" / "src" / "course_stream",
        package,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (package / "_planted.py").write_text(source, encoding="utf-8")


def test_the_repository_contracts_fail_on_an_anthropic_wire_name_planted_in_a_core_package(
    tmp_path: Path,
) -> None:
    # A copy of course_stream first on the path stands in for the real one,
    # so the repository's own .importlinter reads the planted module.
    _copy_of_course_stream_with(
        tmp_path, 'KIND = "content_block_delta"\nDELTA = "text_delta"\nTEXT = "text"\n'
    )
    env = child_env({"PYTHONPATH": str(tmp_path)})
    lint_imports = Path(sys.executable).with_name("lint-imports")

    completed = subprocess.run(
        [str(lint_imports), "--no-cache", "--no-logo", str(REPO_ROOT / ".importlinter")],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )

    report = " ".join(completed.stdout.split())
    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert (
        "course_stream._planted:1 spells the wire name 'content_block_delta'; "
        "only course_provider_anthropic may." in report
    )
    assert (
        "course_stream._planted:2 spells the wire name 'text_delta'; "
        "only course_provider_anthropic and course_provider_fixture may." in report
    )
    assert (
        "course_stream._planted:2 spells the wire name 'text_delta'; "
        "only course_provider_fixture and course_provider_anthropic may." in report
    )
    assert "'text'" not in report
    contracts = (
        (REPO_ROOT / ".importlinter").read_text(encoding="utf-8").count("[importlinter:contract:")
    )
    assert f"Contracts: {contracts - 2} kept, 2 broken." in report
