"""Every README's first python example runs as written, so none can go stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
RUNNER = REPO_ROOT / "scripts" / "run_readme_example.py"
PACKAGE_READMES = sorted(REPO_ROOT.glob("packages/*/README.md"))
READMES = [REPO_ROOT / "README.md", *PACKAGE_READMES]


def test_every_package_has_a_readme() -> None:
    packages = sorted(path.parent for path in REPO_ROOT.glob("packages/*/pyproject.toml"))

    assert [readme.parent for readme in PACKAGE_READMES] == packages


@pytest.mark.parametrize("readme", READMES, ids=[path.parent.name for path in READMES])
def test_the_first_python_example_of_the_readme_runs(readme: Path) -> None:
    completed = subprocess.run(
        [sys.executable, str(RUNNER), str(readme)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )

    assert completed.returncode == 0, completed.stderr


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("raise SystemExit('the example broke')\n", "the example broke"),
        (
            "import asyncio\nawait asyncio.sleep(0)\nassert False, 'after an await'\n",
            "after an await",
        ),
    ],
    ids=["plain-failure", "failure-after-top-level-await"],
)
def test_a_failing_example_fails_the_runner(tmp_path: Path, block: str, message: str) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n```python\n{block}```\n\n```python\nprint('second')\n```\n")

    completed = subprocess.run(
        [sys.executable, str(RUNNER), str(readme)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )

    assert completed.returncode != 0
    assert message in completed.stderr
    assert "second" not in completed.stdout


def test_a_readme_without_a_python_example_fails_the_runner(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n```sh\nmake test\n```\n")

    completed = subprocess.run(
        [sys.executable, str(RUNNER), str(readme)], capture_output=True, text=True, check=False
    )

    assert completed.returncode != 0
    assert "has no closed ```python block" in completed.stderr


def test_the_runner_prints_the_first_python_block_for_a_readme_whose_example_is_a_test(
    tmp_path: Path,
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n```python\ndef test_x():\n    pass\n```\n\n```python\nno\n```\n")

    completed = subprocess.run(
        [sys.executable, str(RUNNER), "--print", str(readme)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )

    assert (completed.returncode, completed.stdout) == (0, "def test_x():\n    pass\n")
