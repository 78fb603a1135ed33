"""The no-private-imports contract: another package's _private modules are off limits."""

from __future__ import annotations

import textwrap
from pathlib import Path

import grimp
import pytest
from importlinter.domain.contract import ContractCheck

from course_contracts import PrivateImport, PrivateImportsContract, is_private_module


def _plant(root: Path, package: str, modules: dict[str, str]) -> None:
    folder = root / package
    folder.mkdir()
    for module, source in modules.items():
        path = folder / f"{module.replace('.', '/')}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")


def _check(*packages: str) -> ContractCheck:
    contract = PrivateImportsContract(
        name="no private imports", session_options={}, contract_options={"packages": packages}
    )
    return contract.check(grimp.build_graph(*packages, cache_dir=None), verbose=False)


@pytest.fixture
def scratch_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_private_module_is_one_with_an_underscored_part_below_its_package() -> None:
    assert is_private_module("course_protocol._untrusted")
    assert is_private_module("course_http.loopback._script")
    assert not is_private_module("course_protocol.untrusted")
    assert not is_private_module("course_http.loopback")
    assert not is_private_module("_pytest")


def test_importing_another_packages_private_module_breaks_the_contract(scratch_root: Path) -> None:
    _plant(
        scratch_root,
        "scratch_low",
        {
            "__init__": "from scratch_low._core import VALUE\n",
            "_core": "VALUE = 1\n",
            "sub/__init__": "",
            "sub/_deep": "DEEP = 2\n",
        },
    )
    _plant(
        scratch_root,
        "scratch_high",
        {
            "__init__": "",
            "_fine": "from scratch_low import VALUE\nfrom scratch_high._other import X\n",
            "_other": "X = 1\n",
            "leaky": "import math\n\nfrom scratch_low._core import VALUE\n",
            "deeper": "from scratch_low.sub._deep import DEEP\n",
        },
    )

    check = _check("scratch_low", "scratch_high")

    assert not check.kept
    assert check.metadata["imports"] == [
        PrivateImport("scratch_high.deeper", "scratch_low.sub._deep", 1),
        PrivateImport("scratch_high.leaky", "scratch_low._core", 3),
    ]


def test_public_imports_and_a_packages_own_private_modules_keep_the_contract(
    scratch_root: Path,
) -> None:
    _plant(
        scratch_root,
        "scratch_base",
        {"__init__": "from scratch_base._a import A\n", "_a": "A = 1\n", "public": "B = 2\n"},
    )
    _plant(
        scratch_root,
        "scratch_user",
        {
            "__init__": "",
            "_uses": "from scratch_base import A\nfrom scratch_base.public import B\n",
        },
    )

    check = _check("scratch_base", "scratch_user")

    assert check.kept
    assert check.metadata["imports"] == []
