"""A page that shows the ``course`` command installs the package that provides it.

``course-pytest`` and the adapters do not bring the command; a reader who
copies a page's ``pip install`` line and then its ``course check`` must have
``course-cli``. One rule, every offending page listed.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
_PIP_INSTALL = re.compile(r"pip install ([^`\n]*)")
_COURSE_COMMAND = re.compile(r"(?m)(?:^|`|\$ )course (?:check|serve|replay|demo)\b")


def install_line_offenders(page: str) -> list[str]:
    """The ``pip install`` lines of ``page`` missing ``course-cli`` while it uses ``course``."""
    if not _COURSE_COMMAND.search(page):
        return []
    return [line for line in _PIP_INSTALL.findall(page) if "course-cli" not in line.split()]


def _pages() -> list[Path]:
    return sorted([*REPO_ROOT.glob("docs/*.md"), *REPO_ROOT.glob("packages/*/README.md")])


def test_every_page_that_uses_the_course_command_installs_course_cli() -> None:
    offenders = [
        f"{page.relative_to(REPO_ROOT)}: pip install {line}"
        for page in _pages()
        for line in install_line_offenders(page.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_rule_finds_an_install_line_without_the_command_package() -> None:
    page = "Install (`pip install course-pytest`), then run `course check x.json`."
    assert install_line_offenders(page) == ["course-pytest"]
    assert install_line_offenders(page.replace("course-pytest", "course-pytest course-cli")) == []
    assert install_line_offenders("`pip install course-pytest` and nothing else") == []
