"""The root README's shell commands exist and work whether or not ``uv`` is on ``PATH``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.children import child_env

REPO_ROOT = Path(__file__).resolve().parents[2]
README = REPO_ROOT / "README.md"
MAKEFILE = REPO_ROOT / "Makefile"
_SH_BLOCK = re.compile(r"^```sh\n(.*?)^```$", re.MULTILINE | re.DOTALL)
# Where the Makefile installs uv when none is on PATH.
TOOLS_UV = REPO_ROOT / ".tools" / "bin" / "uv"


def readme_commands() -> list[str]:
    """Every command line of the README's ``sh`` blocks, without its comment."""
    return [
        line.partition("  #")[0].strip()
        for block in _SH_BLOCK.findall(README.read_text(encoding="utf-8"))
        for line in block.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def _program(command: str) -> str:
    return command.removeprefix("time ").split()[0]


def _make_help() -> str:
    return subprocess.run(
        ["make", "-s", "help"],
        cwd=REPO_ROOT,
        env=child_env(),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout


def _dry_run(target: str, *variables: str, path: str) -> list[str]:
    """What ``make -n TARGET`` would run, with ``PATH`` set to ``path``."""
    completed = subprocess.run(
        ["make", "-s", "-n", target, *variables],
        cwd=REPO_ROOT,
        env=child_env({"PATH": path}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return completed.stdout.splitlines()


def test_every_make_target_the_readme_names_is_defined_and_listed_by_make_help() -> None:
    rules = set(re.findall(r"^([\w-]+):", MAKEFILE.read_text(encoding="utf-8"), re.MULTILINE))
    named = {
        command.split()[1]
        for command in readme_commands()
        if _program(command) == "make" and len(command.split()) > 1
    }
    shown = _make_help()

    assert {"test", "demo", "run", "wheels", "checkpoint"} <= named
    assert named - rules == set()
    assert [target for target in sorted(named) if f"make {target}" not in shown] == []


def test_no_readme_command_needs_uv_on_path_or_in_tools() -> None:
    programs = {_program(command) for command in readme_commands()}

    assert "uv" not in programs
    assert [command for command in readme_commands() if ".tools/" in command] == []


@pytest.fixture
def uv_on_path(tmp_path: Path) -> Path:
    """A folder holding a ``uv`` stand-in (never run here: only ``make -n``)."""
    stand_in = tmp_path / "uv"
    stand_in.write_text("#!/bin/sh\nexit 99\n")
    stand_in.chmod(0o755)
    return tmp_path


@pytest.mark.parametrize(
    ("target", "variables", "command"),
    [
        ("run", ("ARGS=course demo",), "run --frozen --no-sync course demo"),
        ("wheels", (), "build --all-packages --wheel --out-dir dist"),
    ],
)
def test_run_and_wheels_use_the_uv_on_path_or_the_one_in_tools(
    uv_on_path: Path, target: str, variables: tuple[str, ...], command: str
) -> None:
    plain_path = os.pathsep.join(
        folder
        for folder in os.environ["PATH"].split(os.pathsep)
        if folder and not (Path(folder) / "uv").exists()
    )

    with_uv = _dry_run(target, *variables, path=f"{uv_on_path}{os.pathsep}{plain_path}")
    without_uv = _dry_run(target, *variables, path=plain_path)

    assert with_uv[-1] == f"{uv_on_path / 'uv'} {command}"
    assert without_uv[-1] == f"{TOOLS_UV} {command}"


def test_run_without_args_says_how_to_use_it() -> None:
    completed = subprocess.run(
        ["make", "-s", "run", f"UV={shutil.which('true')}"],
        cwd=REPO_ROOT,
        env=child_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )

    assert completed.returncode == 2
    assert completed.stderr.splitlines()[0] == "usage: make run ARGS='course demo'"
