"""The grammar is a fold apart from the port: fed frame by frame, judged whole, the same verdict.

`course_vendor.judge_body` (the strict check of a recording) frames a body's
bytes and folds them through the plug-in's grammar; feeding the same events
one by one gives the same result or the same error at the same event. The
grammar's modules import nothing of the course port.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from types import ModuleType

import pytest
from returns.result import Failure, Success

import course_protocol._messages
import course_protocol._port
import course_protocol._response
import course_protocol._transcript
import course_stream
from course_http import SseEvent
from course_provider_anthropic import MESSAGES_PLUGIN, MessagesGrammar
from course_vendor import StreamJudge, judge_body
from tests.course_provider_anthropic.bodies import (
    BLOCKS,
    judge,
    one_block_body,
    text_body,
    tool_body,
)
from tests.course_provider_anthropic.test_grammar_failures import CASES as GRAMMAR_CASES
from tests.course_provider_anthropic.test_mapping_failures import CASES as MAPPING_CASES
from tests.course_vendor.wire import sse_bytes

GRAMMAR_MODULES = (
    "course_provider_anthropic._grammar",
    "course_provider_anthropic._blocks",
    "course_provider_anthropic._citations",
    "course_provider_anthropic._result",
    "course_provider_anthropic._usage",
    "course_provider_anthropic._reads",
    "course_provider_anthropic._errors",
)
"""The grammar and everything it imports of its package."""
PORT_MODULES: tuple[ModuleType, ...] = (
    course_protocol._messages,
    course_protocol._response,
    course_protocol._port,
    course_protocol._transcript,
)
BODIES = {
    "text": text_body("The sum ", "is 42."),
    "tool": tool_body("", '{"a": ', "1}"),
    **{kind: one_block_body(block) for kind, block in BLOCKS.items()},
    **{name: events for name, events, *_ in (*GRAMMAR_CASES, *MAPPING_CASES)},
}
"""Bodies on the grammar and off it, each named."""


@pytest.mark.parametrize(
    "events", [pytest.param(events, id=name) for name, events in BODIES.items()]
)
def test_judging_a_body_whole_agrees_with_feeding_its_frames_one_by_one(
    events: list[SseEvent],
) -> None:
    fed = judge(events)

    verdict = judge_body(MESSAGES_PLUGIN, sse_bytes(events))

    if isinstance(verdict, Success):
        assert verdict.unwrap() == fed
    else:
        assert isinstance(verdict, Failure)
        error = verdict.failure()
        assert (error.code, error.event_index, error.message) == (
            fed.code,  # type: ignore[union-attr]
            fed.event_index,  # type: ignore[union-attr]
            fed.message,  # type: ignore[union-attr]
        )


def test_a_judge_fed_one_byte_at_a_time_finds_the_same_result() -> None:
    body = sse_bytes(tool_body("", '{"a": ', "1}"))
    judge_of_bytes = StreamJudge(MESSAGES_PLUGIN)

    problems = [judge_of_bytes.feed_bytes(body[at : at + 1]) for at in range(len(body))]

    assert problems == [None] * len(body)
    assert judge_of_bytes.close() is None
    assert judge_of_bytes.result == judge(tool_body("", '{"a": ', "1}"))


def test_the_plugin_registers_the_grammar() -> None:
    assert MESSAGES_PLUGIN.grammar is MessagesGrammar


def _port_values() -> dict[int, str]:
    values = {
        id(getattr(module, name)): f"{module.__name__}.{name}"
        for module in PORT_MODULES
        for name in module.__all__
    }
    values.update(
        {
            id(getattr(course_stream, name)): f"course_stream.{name}"
            for name in course_stream.__all__
        }
    )
    return values


@pytest.mark.parametrize("name", GRAMMAR_MODULES)
def test_the_grammar_holds_no_type_or_function_of_the_port(name: str) -> None:
    module = importlib.import_module(name)
    port = _port_values()

    held = sorted(port[id(value)] for value in vars(module).values() if id(value) in port)

    assert held == []


@pytest.mark.parametrize("name", GRAMMAR_MODULES)
def test_the_grammar_imports_neither_the_port_nor_the_mapping(name: str) -> None:
    tree = ast.parse(Path(inspect.getfile(importlib.import_module(name))).read_text("utf-8"))
    imported = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }

    assert not {
        module
        for module in imported
        if module.startswith("course_stream")
        or module in {m.__name__ for m in PORT_MODULES}
        or module.endswith(("._mapping", "._stop", "._model", "._plugin"))
    }
