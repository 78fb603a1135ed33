"""``course replay --wire gemini``: thoughts, vendor tools, citations and usage in course JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course_protocol import parse_response
from tests.course_cli.helpers import CourseRunner
from tests.course_provider_gemini import bodies as gemini


def test_replay_prints_the_new_blocks_in_the_course_vocabulary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = {"language": "PYTHON", "code": "print(2)"}
    grounded = {"webSearchQueries": ["one plus one"]}
    counts = {"promptTokenCount": 5, "candidatesTokenCount": 2, "thoughtsTokenCount": 3}
    body = gemini.sse(
        [
            gemini.chunk(gemini.thought("plan")),
            gemini.chunk(
                {"thought": True, "thoughtSignature": "VA=="},
                {"executableCode": code},
                gemini.text("2"),
                finish="STOP",
                groundingMetadata=grounded,
                counts={**counts, "cachedContentTokenCount": 4},
            ),
        ]
    )
    path = tmp_path / "rich.sse"
    path.write_bytes(body)

    run = CourseRunner(capsys)("replay", "--wire", "gemini", path, "--request-id", "run")

    assert (run.status, run.err) == (0, "")
    lines = [json.loads(line) for line in run.out.splitlines()]
    assert lines[:2] == [
        {"type": "reasoningDelta", "requestId": "run-1", "delta": "plan"},
        {"type": "textDelta", "requestId": "run-1", "delta": "2"},
    ]
    assert lines[2]["message"]["content"] == [
        {
            "type": "reasoning",
            "text": "plan",
            "opaque": {"wire": "gemini", "data": {"thoughtSignature": "VA=="}},
        },
        {
            "type": "vendorTool",
            "kind": "executableCode",
            "opaque": {"wire": "gemini", "data": {"executableCode": code}},
        },
        {
            "type": "text",
            "text": "2",
            "citations": [{"wire": "gemini", "data": {"groundingMetadata": grounded}}],
        },
    ]
    assert lines[2]["usage"] == {
        "inputTokens": 5,
        "outputTokens": 5,
        "cacheReadTokens": 4,
        "reasoningTokens": 3,
    }
    assert parse_response(lines[2]).unwrap().message.content[0].text == "plan"  # type: ignore[union-attr]
