"""``examples/thinking_with_tools.py``: a thinking-with-Tools loop over two turns, offline."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "thinking_with_tools.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("thinking_with_tools", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.pop(spec.name, None)
    spec.loader.exec_module(module)
    return module


async def test_the_example_sends_the_thinking_back_signed_and_prints_the_loop(
    capsys: pytest.CaptureFixture[str],
) -> None:
    await _example().main()

    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "call 1",
        "  reasoning  '20 + 22 needs the add Tool; '",
        "  reasoning  'I will call it.'",
        '  toolCall   add {"left": 20, "right": 22}',
        "  stop       toolCall",
        "  tool       add ran locally: 42",
        "call 2 (a new model instance, from the transcript's JSON)",
        "  text       'The sum is 42.'",
        "  stop       stop",
        '  sent back  {"type": "thinking", "thinking": "20 + 22 needs the add Tool; I will call '
        'it.", "signature": "EqQBCkgIARABGAIiQExampleSignature0000000000"}',
        "answer       The sum is 42.",
    ]
