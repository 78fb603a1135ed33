"""``course check --prompt-cache``: each cassette call that moved the prefix cached before it.

The calls are answered with a JSON body (no stream to judge) unless a test
says otherwise: what is checked here is the requests.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from course_cassettes import Cassette, CassetteCall, write_cassette
from course_http import RecordedResponse
from tests.course_cli.helpers import CourseRunner
from tests.course_cli.test_check_cassettes import call, cut_before_the_terminal
from tests.course_vendor.plugins import MadeUpSite, wire_module
from tests.course_vendor.prompt_cache import recorded
from tests.course_vendor.wires import JSON, WIRES

MESSAGES = "/v1/messages"

FIRST: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 256,
    "tools": [
        {
            "name": "get_weather",
            "description": "Get the current weather.",
            "input_schema": {"type": "object"},
            "cache_control": {"type": "ephemeral"},
        }
    ],
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
}


def appended() -> dict[str, Any]:
    second = copy.deepcopy(FIRST)
    second["messages"] += [
        {"role": "assistant", "content": "Sunny."},
        {"role": "user", "content": "And tomorrow?"},
    ]
    return second


def edited() -> dict[str, Any]:
    second = appended()
    second["tools"][0]["description"] = "Get the weather."
    return second


def answered(body: dict[str, Any]) -> CassetteCall:
    return CassetteCall(recorded(MESSAGES, body), RecordedResponse(200, JSON, b"{}"))


def cassette(path: Path, *calls: CassetteCall, strict: bool = True) -> Path:
    write_cassette(path, Cassette(calls, strict=strict))
    return path


MOVED = (
    "HTTP_PROMPT_CACHE_MOVED: call 2 moved the prefix anthropic-messages cached for call 1 "
    'at tools[0].description: recorded "Get the current weather.", then "Get the weather."'
)


@pytest.mark.parametrize("wire_option", [(), ("--wire", "cassette")])
def test_a_moved_prefix_is_one_problem_of_its_call_only_when_asked(
    course: CourseRunner, tmp_path: Path, wire_option: tuple[str, ...]
) -> None:
    moved = cassette(tmp_path / "moved.json", answered(FIRST), answered(edited()))
    grown = cassette(tmp_path / "grown.json", answered(FIRST), answered(appended()))

    unasked = course("check", *wire_option, moved, grown)
    asked = course("check", *wire_option, "--prompt-cache", moved, grown)

    assert (unasked.status, unasked.out.splitlines()) == (
        0,
        ["checked 2 files, 4 responses: clean"],
    )
    assert asked.status == 1
    assert asked.out.splitlines() == [
        f"{moved}: response 1: {MOVED}",
        "checked 2 files, 4 responses: 1 problem in 1 file",
    ]


def test_a_cassette_that_says_strict_false_is_still_compared(
    course: CourseRunner, tmp_path: Path
) -> None:
    loose = cassette(tmp_path / "loose.json", answered(FIRST), answered(edited()), strict=False)

    run = course("check", "--prompt-cache", loose)

    assert run.status == 1
    assert run.out.splitlines()[0] == f"{loose}: response 1: {MOVED}"


def test_moves_and_stream_problems_are_said_in_call_order(
    course: CourseRunner, tmp_path: Path
) -> None:
    anthropic = WIRES[0]
    body, code, _index = cut_before_the_terminal(anthropic)
    mixed = cassette(
        tmp_path / "mixed.json",
        answered(FIRST),
        answered(edited()),
        call(anthropic, body),
    )

    run = course("check", "--prompt-cache", mixed)

    assert run.status == 1
    lines = run.out.splitlines()
    assert lines[0] == f"{mixed}: response 1: {MOVED}"
    assert lines[1].startswith(f"{mixed}: response 2: {code}: ")


def test_the_flag_with_a_vendor_wire_is_a_usage_error(course: CourseRunner, tmp_path: Path) -> None:
    body = tmp_path / "answer.sse"
    body.write_bytes(b"data: {}\n\n")

    run = course("check", "--wire", "openai-chat", "--prompt-cache", body)

    assert run.status == 2
    assert "--prompt-cache compares the requests of cassettes" in run.err


def test_a_wire_whose_cache_prefix_fails_is_one_problem_of_the_file(
    course: CourseRunner, tmp_path: Path
) -> None:
    site = MadeUpSite(tmp_path / "site")
    site.module(
        "course_made_up_cache", wire_module("made-up-cache", "/v9/cache", cache_prefix="_raises")
    )
    site.distribution("course-vendor-made-up", {"made-up-cache": "course_made_up_cache:PLUGIN"})
    calls = [
        CassetteCall(recorded("/v9/cache", {}), RecordedResponse(200, JSON, b"{}")),
        answered(FIRST),
        answered(edited()),
    ]
    broken = cassette(tmp_path / "broken.json", *calls)

    with site.installed():
        run = course("check", "--prompt-cache", broken)

    assert run.status == 1
    assert run.out.splitlines()[0] == (
        f"{broken}: VENDOR_PLUGIN_BROKEN: the wire 'made-up-cache' cannot be checked for "
        "prompt caching: its cache_prefix raised KeyError"
    )
