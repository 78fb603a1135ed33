"""The environment of every interpreter the harness starts, and the one way a measuring child runs.

Children run in production mode (no asyncio debug) and share one bytecode
cache under the git-ignored results folder, even when the caller (``make``
exports ``PYTHONDONTWRITEBYTECODE``) disabled writing it: otherwise every
child would compile every source it imports, and the import rows would
time the compiler.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["PYCACHE", "ROOT", "child_environment", "child_figures", "child_json"]

ROOT = Path(__file__).resolve().parent.parent
PYCACHE = ROOT / "benchmarks" / "results" / "pycache"


def child_environment() -> dict[str, str]:
    """A copy of this process's environment for a child interpreter, as described above."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONASYNCIODEBUG", "PYTHONDONTWRITEBYTECODE"}
    }
    environment["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return environment


def child_json(module: str, *arguments: str) -> object:
    """Run ``python -m module arguments`` from the repository root; return its last line, parsed.

    The child prints one JSON document as its last line of output. Raises
    ``RuntimeError`` with the child's standard error when it exits non-zero.
    """
    completed = subprocess.run(
        [sys.executable, "-m", module, *arguments],
        cwd=ROOT,
        env=child_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"{module} {' '.join(arguments)} failed:\n{completed.stderr}")
    document: object = json.loads(completed.stdout.strip().splitlines()[-1])
    return document


def child_figures(module: str, *arguments: str) -> dict[str, float]:
    """`child_json` for a child whose last line is one JSON object of figures.

    Raises ``RuntimeError`` as `child_json` does.
    """
    figures = child_json(module, *arguments)
    assert isinstance(figures, dict)
    return figures
