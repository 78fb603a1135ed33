"""Every python snippet of every README and guide runs as pasted, so none can go stale."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.children import child_env

REPO_ROOT = Path(__file__).resolve().parents[2]
RUNNER = REPO_ROOT / "scripts" / "run_snippets.py"
PACKAGE_READMES = sorted(REPO_ROOT.glob("packages/*/README.md"))
GUIDES = sorted(REPO_ROOT.glob("docs/*.md"))
DOCUMENTS = [REPO_ROOT / "README.md", *PACKAGE_READMES, *GUIDES]


def _run(*arguments: str | Path, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RUNNER), *map(str, arguments)],
        cwd=cwd,
        env=child_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_every_package_has_a_readme() -> None:
    packages = sorted(path.parent for path in REPO_ROOT.glob("packages/*/pyproject.toml"))

    assert [readme.parent for readme in PACKAGE_READMES] == packages


@pytest.mark.parametrize(
    "document", DOCUMENTS, ids=[str(path.relative_to(REPO_ROOT)) for path in DOCUMENTS]
)
def test_every_python_snippet_runs_as_pasted(document: Path) -> None:
    completed = _run(document)

    assert completed.returncode == 0, completed.stderr


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("raise SystemExit('the example broke')\n", "the example broke"),
        ("import asyncio\nawait asyncio.sleep(0)\n", "SyntaxError"),
    ],
    ids=["plain-failure", "top-level-await-is-not-a-script"],
)
def test_a_failing_snippet_fails_the_runner_naming_its_line(
    tmp_path: Path, block: str, message: str
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n```python\nprint('first')\n```\n\n```python\n{block}```\n")

    completed = _run(readme)

    assert completed.returncode != 0
    assert message in completed.stderr
    assert f"{readme}:8:" in completed.stderr


def test_excerpts_are_not_run_and_a_file_without_snippets_fails(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n```python excerpt\nraise SystemExit(1)\n```\n\n```sh\nmake\n```\n")

    completed = _run(readme)

    assert completed.returncode != 0
    assert "no runnable ```python block" in completed.stderr


def test_first_runs_only_the_first_snippet(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("```python\nprint('one')\n```\n\n```python\nraise SystemExit(3)\n```\n")

    assert _run("--first", readme).returncode == 0
    assert _run(readme).returncode != 0


def test_print_writes_the_first_snippet_without_running_it(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("```python\ndef test_x():\n    pass\n```\n\n```python\nno\n```\n")

    completed = _run("--print", readme)

    assert (completed.returncode, completed.stdout) == (0, "def test_x():\n    pass\n")


def test_a_continued_block_runs_after_the_block_before_it(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(
        "```python\n# a.py\nvalue = 3\n```\n\n"
        "```python\n# a.py, continued\nraise SystemExit(value)\n```\n\n"
        "```python\nraise SystemExit(value)\n```\n"
    )

    completed = _run(readme)

    assert completed.returncode != 0
    assert f"{readme}:7: exit 3" in completed.stderr
    assert "NameError: name 'value'" in completed.stderr
