"""The provider guide quotes code that runs: every ``python excerpt`` block matches the source."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

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


def python_blocks(markdown: str) -> list[tuple[int, str]]:
    """The guide's quoted excerpts, each with the line its code starts on.

    An excerpt is a block fenced as ``python excerpt``.
    """
    return [
        (markdown.count("\n", 0, match.start(1)) + 1, match.group(1))
        for match in re.finditer(
            r"^```python excerpt\n(.*?)^```$", markdown, flags=re.MULTILINE | re.DOTALL
        )
    ]


def normalized(code: str) -> str:
    return textwrap.dedent(code).strip()


EXCERPTS = [
    (line, block) for line, block in python_blocks(GUIDE.read_text()) if PORT_EXCERPT not in block
]


def unquoted(where: str, excerpts: list[tuple[int, str]]) -> list[str]:
    """Every excerpt that is not a run of lines of one of `QUOTED_SOURCES`."""
    return [
        f"{where}:{line}: quotes no tested source: {block.strip().splitlines()[0]}"
        for line, block in excerpts
        if not any(quoted_in(normalized(block), path) for path in QUOTED_SOURCES)
    ]


def test_the_guide_quotes_several_excerpts() -> None:
    assert len(EXCERPTS) >= 5


def test_the_anthropic_example_quotes_the_adapter_and_its_tests() -> None:
    anthropic = [path for path in QUOTED_SOURCES if "anthropic" in str(path)]

    quoted = {
        path.name
        for _, excerpt in EXCERPTS
        for path in anthropic
        if quoted_in(normalized(excerpt), path)
    }

    assert {"_grammar.py", "_mapping.py", "_model.py", "test_grammar_failures.py"} <= quoted
    assert "test_recorded_compatibility.py" in quoted


def test_each_excerpt_is_quoted_verbatim_from_the_tested_example() -> None:
    offences = unquoted(str(GUIDE.relative_to(REPO_ROOT)), EXCERPTS)

    assert offences == [], "\n".join(["", *offences])


def test_an_edited_excerpt_is_noticed_at_its_line() -> None:
    line, excerpt = EXCERPTS[0]
    tampered = excerpt.replace("line", "row", 1)

    assert tampered != excerpt
    assert unquoted("guide.md", [(line, tampered)]) == [
        f"guide.md:{line}: quotes no tested source: {tampered.strip().splitlines()[0]}"
    ]
    assert unquoted("guide.md", [(line, excerpt)]) == []


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
