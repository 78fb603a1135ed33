"""``make node-deps``: the Node example's SDK installed from its lock, or a message and status 0.

``make test`` must pass on a machine without npm or offline, the Node
example's test then skipping: these runs force the rule (``-B``) with no
npm on ``PATH``, and with an npm that fails, and never touch the real
``node_modules``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.children import child_env

REPO = Path(__file__).resolve().parents[2]
MAKE = shutil.which("make")

pytestmark = pytest.mark.skipif(MAKE is None, reason="needs make")


def _node_deps(path: Path) -> subprocess.CompletedProcess[str]:
    assert MAKE is not None
    return subprocess.run(
        [MAKE, "-s", "-B", "node-deps"],
        cwd=REPO,
        env=child_env({"PATH": str(path)}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_without_npm_it_says_the_node_test_will_skip_and_succeeds(tmp_path: Path) -> None:
    completed = _node_deps(tmp_path)
    assert (completed.returncode, completed.stdout) == (
        0,
        "node-deps: no npm on PATH: the Node example's test will skip\n",
    )


def test_a_failing_npm_ci_is_reported_and_tolerated(tmp_path: Path) -> None:
    npm = tmp_path / "npm"
    npm.write_text(f'#!/bin/sh\necho "$@" > {tmp_path / "asked"}\nexit 1\n', encoding="utf-8")
    npm.chmod(0o755)
    completed = _node_deps(tmp_path)
    assert (completed.returncode, completed.stdout) == (
        0,
        "node-deps: npm ci failed (offline?): the Node example's test will skip\n",
    )
    assert (tmp_path / "asked").read_text(encoding="utf-8") == (
        "ci --prefix examples/record_with_node --no-audit --no-fund --loglevel=error "
        "--fetch-timeout=60000 --fetch-retries=1\n"
    )
