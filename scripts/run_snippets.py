"""Run the python snippets of Markdown files, each as a reader would paste it into a file.

Every fenced block whose info string is exactly ``python`` runs as its own
script, in a fresh interpreter (the one running this file), from the
current directory: no top-level ``await``, no shared state between blocks,
so an async example must be a complete ``asyncio.run(main())`` script. A
block whose first line is a comment ending in ``, continued`` adds to the
file the block before it wrote, so it runs after that block's code.
Blocks marked ``python excerpt`` quote source files and are checked against
them elsewhere; they are not run. Standard library only: the same script
runs in the workspace and in a fresh virtualenv holding one package.

Usage: python scripts/run_snippets.py [--first] FILE.md...
       python scripts/run_snippets.py --print FILE.md
Exits non-zero, naming the file and line of the block, when a file has no
runnable block or a block fails; ``--first`` runs only each file's first one.
``--print`` writes the file's first block to stdout instead of running it,
for an example that is a test module to run under pytest.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
TIMEOUT_SECONDS = 120


def snippets(markdown: Path) -> list[tuple[int, str]]:
    """Every runnable python block of ``markdown``, with the line its code starts on."""
    text = markdown.read_text(encoding="utf-8")
    blocks: list[tuple[int, str]] = []
    for found in _BLOCK.finditer(text):
        code = found.group(1)
        if blocks and code.startswith("#") and code.partition("\n")[0].endswith(", continued"):
            code = blocks[-1][1] + code
        blocks.append((text.count("\n", 0, found.start(1)) + 1, code))
    return blocks


def run(markdown: Path, line: int, code: str) -> str | None:
    """Run one block; None when it exits 0, else what went wrong."""
    try:
        completed = subprocess.run(
            [sys.executable, "-"],
            input=code,
            capture_output=True,
            text=True,
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"{markdown}:{line}: still running after {TIMEOUT_SECONDS} s"
    if completed.returncode == 0:
        return None
    return f"{markdown}:{line}: exit {completed.returncode}\n{completed.stderr}"


def main(arguments: list[str]) -> int:
    if arguments[:1] == ["--print"] and len(arguments) == 2:
        blocks = snippets(Path(arguments[1]))
        if not blocks:
            print(f"{arguments[1]}: no runnable ```python block", file=sys.stderr)
            return 1
        print(blocks[0][1], end="")
        return 0
    first_only = arguments[:1] == ["--first"]
    files = [Path(name) for name in arguments[1:] if first_only] or [Path(a) for a in arguments]
    failures = []
    for markdown in files:
        blocks = snippets(markdown)
        if not blocks:
            failures.append(f"{markdown}: no runnable ```python block")
        for line, code in blocks[:1] if first_only else blocks:
            failure = run(markdown, line, code)
            if failure is not None:
                failures.append(failure)
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
