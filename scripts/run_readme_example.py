"""Run the first ```python block of a README, the way a reader would paste it.

The block runs as a module body in which top-level ``await`` (and async
comprehensions) are allowed, as in ``python -m asyncio``, so a five-line
example needs no ``async def main`` scaffolding. Standard library only: the
same script runs in the workspace and in a fresh virtualenv holding one
package. Exits non-zero when the README has no python block or the block
fails.

Usage: python scripts/run_readme_example.py path/to/README.md
       python scripts/run_readme_example.py --print path/to/README.md
(``--print`` writes the block to stdout instead, for an example that is a
test module to run under pytest.)
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import sys
from pathlib import Path


def first_python_block(readme: Path) -> str:
    """Return the first fenced python block of ``readme``; ``ValueError`` if there is none."""
    lines = readme.read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index("```python") + 1
        end = lines.index("```", start)
    except ValueError:
        raise ValueError(f"{readme} has no closed ```python block") from None
    return "\n".join(lines[start:end]) + "\n"


async def run(source: str, filename: str) -> None:
    """Execute ``source`` with top-level await allowed, in a fresh ``__main__`` namespace."""
    # Imports run inside the first step; debug mode would report them as a slow callback.
    asyncio.get_running_loop().slow_callback_duration = 60
    code = compile(source, filename, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    outcome = eval(code, {"__name__": "__main__"})
    if inspect.isawaitable(outcome):
        await outcome


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[1] == "--print":
        print(first_python_block(Path(argv[2])), end="")
        return 0
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    readme = Path(argv[1])
    asyncio.run(run(first_python_block(readme), f"{readme} (first python block)"), debug=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
