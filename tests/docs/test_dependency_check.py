"""deps-check catches a member that imports something it does not declare."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.children import child_env

REPO_ROOT = Path(__file__).resolve().parents[2]


def deptry(member: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deptry", "src"],
        cwd=member,
        env=child_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def copy_of_scripted(tmp_path: Path) -> Path:
    member = tmp_path / "course-scripted"
    shutil.copytree(
        REPO_ROOT / "packages" / "course-scripted",
        member,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return member


def test_the_scripted_member_declares_what_it_imports(tmp_path: Path) -> None:
    completed = deptry(copy_of_scripted(tmp_path))

    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_importing_an_undeclared_sibling_package_fails_the_check(tmp_path: Path) -> None:
    member = copy_of_scripted(tmp_path)
    planted = member / "src" / "course_scripted" / "_planted.py"
    planted.write_text("import course_provider_fixture\n")

    completed = deptry(member)

    output = completed.stdout + completed.stderr
    assert completed.returncode != 0
    assert "DEP003" in output
    assert "'course_provider_fixture' imported but it is a transitive dependency" in output
