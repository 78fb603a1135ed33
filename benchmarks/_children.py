"""The environment of every interpreter the harness starts.

Children run in production mode (no asyncio debug) and share one bytecode
cache under the git-ignored results folder, even when the caller (``make``
exports ``PYTHONDONTWRITEBYTECODE``) disabled writing it: otherwise every
child would compile every source it imports, and the import rows would
time the compiler.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["PYCACHE", "ROOT", "child_environment"]

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
