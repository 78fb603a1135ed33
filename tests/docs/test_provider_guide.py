"""The provider guide quotes code that runs: every ``python excerpt`` block matches the source."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
GUIDE = REPO_ROOT / "docs" / "writing-a-provider-adapter.md"
# The port signature is quoted from the design, not from the example.
QUOTED_SOURCES = [
    *sorted((REPO_ROOT / "examples" / "jsonl_provider").glob("*.py")),
    *sorted((REPO_ROOT / "tests" / "examples").glob("*.py")),
    *sorted(
        (
            REPO_ROOT
            / "packages"
            / "course-provider-anthropic"
            / "src"
            / "course_provider_anthropic"
        ).glob("*.py")
    ),
    *sorted((REPO_ROOT / "tests" / "course_provider_anthropic").glob("*.py")),
]
PORT_EXCERPT = "class CourseModel(Protocol):"


def python_blocks(markdown: str) -> list[str]:
    """The guide's quoted excerpts: the blocks fenced as ``python excerpt``."""
    return re.findall(r"^```python excerpt\n(.*?)^```$", markdown, flags=re.MULTILINE | re.DOTALL)


def normalized(code: str) -> str:
    return textwrap.dedent(code).strip()


EXCERPTS = [block for block in python_blocks(GUIDE.read_text()) if PORT_EXCERPT not in block]


def test_the_guide_quotes_several_excerpts() -> None:
    assert len(EXCERPTS) >= 5


def test_the_anthropic_example_quotes_the_adapter_and_its_tests() -> None:
    anthropic = [path for path in QUOTED_SOURCES if "anthropic" in str(path)]

    quoted = {
        path.name
        for excerpt in EXCERPTS
        for path in anthropic
        if quoted_in(normalized(excerpt), path)
    }

    assert {"_grammar.py", "_mapping.py", "_model.py", "test_grammar_failures.py"} <= quoted
    assert "test_recorded_compatibility.py" in quoted


@pytest.mark.parametrize("excerpt", EXCERPTS, ids=lambda block: block.strip().splitlines()[0])
def test_each_excerpt_is_quoted_verbatim_from_the_tested_example(excerpt: str) -> None:
    assert any(quoted_in(normalized(excerpt), path) for path in QUOTED_SOURCES)


def test_an_edited_excerpt_is_noticed() -> None:
    tampered = EXCERPTS[0].replace("line", "row", 1)

    assert not any(quoted_in(normalized(tampered), path) for path in QUOTED_SOURCES)


def quoted_in(wanted: str, path: Path) -> bool:
    """True when ``wanted`` is a run of consecutive lines of ``path``, at any indentation."""
    lines = path.read_text().splitlines()
    size = len(wanted.splitlines())
    return any(
        normalized("\n".join(lines[start : start + size])) == wanted
        for start in range(len(lines) - size + 1)
    )


def test_the_port_quoted_in_the_guide_is_the_real_one() -> None:
    source = (REPO_ROOT / "packages/course-protocol/src/course_protocol/_port.py").read_text()

    assert "class CourseModel(Protocol):" in source
    assert "def stream(" in source


def test_the_guide_links_files_that_exist() -> None:
    for link in re.findall(r"\]\((\.\./[^)]+)\)", GUIDE.read_text()):
        assert (GUIDE.parent / link).resolve().exists(), link
