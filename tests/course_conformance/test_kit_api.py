"""The kit's own surface: arguments, reports, messages, the network block, no pytest."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from socket import create_connection as early_create_connection
from typing import Any
from urllib.error import URLError

import pytest

import course_conformance
from course_conformance import (
    ALL_SCENARIOS,
    ConformanceError,
    Invariant,
    NetworkAccessError,
    Scenario,
    assert_conforms,
    blocked_network,
    check_scenario,
)
from course_protocol import CourseModelUsage
from course_scripted import ScriptedModel, reply_text
from tests.children import child_env
from tests.requests import request

REQUEST = request("request-kit-001", "Hello.", message_id="message-user-001")
USAGE = CourseModelUsage(input_tokens=1, output_tokens=1)


def make_model() -> ScriptedModel:
    return ScriptedModel([reply_text("Hi.", response_id="r-1", message_id="m-1", usage=USAGE)])


class ModelFactoryThatCounts:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> ScriptedModel:
        self.calls += 1
        return make_model()


async def test_every_scenario_gets_a_fresh_model() -> None:
    factory = ModelFactoryThatCounts()

    report = await assert_conforms(factory, REQUEST)

    assert factory.calls == len(ALL_SCENARIOS) == 4
    assert tuple(result.scenario for result in report.results) == ALL_SCENARIOS


async def test_only_the_chosen_scenarios_run_in_the_given_order() -> None:
    factory = ModelFactoryThatCounts()
    chosen = (Scenario.ABORT_AFTER_FIRST_CHUNK, Scenario.COMPLETE)

    report = await assert_conforms(factory, REQUEST, scenarios=chosen)

    assert tuple(result.scenario for result in report.results) == chosen
    assert factory.calls == 2
    with pytest.raises(KeyError):
        report.result_for(Scenario.PRE_ABORTED)


async def test_report_values_are_frozen() -> None:
    report = await assert_conforms(make_model, REQUEST, scenarios=[Scenario.COMPLETE])

    with pytest.raises(AttributeError):
        report.results = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        report.results[0].chunks = ()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("options", "error_type", "message"),
    [
        ({"scenarios": []}, ValueError, "at least one"),
        ({"scenarios": ["complete"]}, TypeError, "scenarios[0] must be a Scenario"),
        ({"scenarios": [Scenario.COMPLETE] * 2}, ValueError, "must not repeat"),
        ({"settle_turns": 0}, ValueError, "settle_turns must be >= 1"),
        ({"settle_turns": True}, TypeError, "settle_turns must be an int"),
        ({"settle_timeout": 0}, ValueError, "settle_timeout must be finite"),
        ({"settle_timeout": float("inf")}, ValueError, "settle_timeout must be finite"),
        ({"settle_timeout": "1"}, TypeError, "settle_timeout must be a number"),
        ({"cleanup_timeout": 0}, ValueError, "cleanup_timeout must be finite"),
        ({"cleanup_timeout": -1.0}, ValueError, "cleanup_timeout must be finite"),
        ({"cleanup_timeout": float("nan")}, ValueError, "cleanup_timeout must be finite"),
        ({"cleanup_timeout": True}, TypeError, "cleanup_timeout must be a number"),
    ],
)
async def test_bad_options_are_rejected_before_any_model_is_built(
    options: dict[str, Any], error_type: type[Exception], message: str
) -> None:
    factory = ModelFactoryThatCounts()

    with pytest.raises(error_type, match=message.replace("[", r"\[")):
        await assert_conforms(factory, REQUEST, **options)

    assert factory.calls == 0


async def test_a_request_that_is_not_a_protocol_request_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="request must be a CourseModelRequest, not dict"):
        await assert_conforms(make_model, {"id": "request-1"})  # type: ignore[arg-type]


async def test_a_model_factory_that_is_not_callable_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="make_model must be callable"):
        await check_scenario(make_model(), REQUEST, Scenario.COMPLETE)  # type: ignore[arg-type]


async def test_a_scenario_name_string_is_not_a_scenario() -> None:
    with pytest.raises(TypeError, match="scenario must be a Scenario"):
        await check_scenario(make_model, REQUEST, "complete")  # type: ignore[arg-type]


def test_conformance_error_message_names_invariant_scenario_and_value() -> None:
    error = ConformanceError(
        Invariant.CHUNK_REQUEST_ID, Scenario.COMPLETE, "wrong id", {"requestId": "x" * 500}
    )

    text = str(error)
    assert text.startswith("chunk-request-id: in scenario complete: wrong id; value: {")
    assert len(text) < 400
    assert isinstance(error, AssertionError)


def test_every_invariant_and_scenario_has_a_one_line_doc() -> None:
    text = Path(course_conformance.__file__ or "").with_name("_invariants.py").read_text()
    for member in [*Invariant, *Scenario]:
        after = text.split(f'{member.name} = "{member.value}"\n', 1)[1]
        assert after.lstrip().startswith('"""'), member


def _sockets_work() -> bool:
    # A numeric address resolves without any lookup, so this never leaves the machine.
    return bool(socket.getaddrinfo("127.0.0.1", 80))


async def test_blocked_network_raises_and_records_every_attempt() -> None:
    with blocked_network() as attempts:
        with pytest.raises(NetworkAccessError):
            socket.getaddrinfo("model.invalid", 443)
        with socket.socket() as unconnected, pytest.raises(NetworkAccessError):
            unconnected.connect(("127.0.0.1", 9))
        with pytest.raises(NetworkAccessError):
            await asyncio.open_connection("model.invalid", 443)

    assert [attempt.split("(")[0] for attempt in attempts] == [
        "socket.getaddrinfo",
        "socket.connect",
        "socket.getaddrinfo",
    ]
    assert attempts[1] == "socket.connect(('127.0.0.1', 9))"
    assert _sockets_work()


def test_blocked_network_catches_references_taken_before_the_block() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        address = listener.getsockname()
        with blocked_network() as attempts, pytest.raises(NetworkAccessError):
            early_create_connection(address, 1).close()

    host, port = address
    assert attempts == [f"socket.getaddrinfo({host!r}, {port}, 0, 1, 0)"]


def test_blocked_network_stops_urllib_too() -> None:
    with blocked_network() as attempts, pytest.raises(URLError, match="blocked"):
        urllib.request.urlopen("http://model.invalid/", timeout=1)

    assert [attempt.split("(")[0] for attempt in attempts] == ["socket.getaddrinfo"]


def test_sockets_work_again_after_a_block_that_raises() -> None:
    with pytest.raises(RuntimeError, match="inside"), blocked_network():
        raise RuntimeError("inside")

    assert _sockets_work()


def test_overlapping_blocks_that_exit_out_of_order_leave_sockets_working() -> None:
    first, second = blocked_network(), blocked_network()

    first_attempts = first.__enter__()
    second_attempts = second.__enter__()
    first.__exit__(None, None, None)
    with pytest.raises(NetworkAccessError):
        socket.getaddrinfo("model.invalid", 443)
    second.__exit__(None, None, None)

    assert _sockets_work()
    assert first_attempts == []
    assert [attempt.split("(")[0] for attempt in second_attempts] == ["socket.getaddrinfo"]


def test_the_kit_runs_under_plain_asyncio_without_importing_pytest() -> None:
    program = """
import asyncio, sys
from course_conformance import assert_conforms, Scenario
from course_protocol import CourseModelRequest, CourseModelUsage, CourseUserMessage
from course_scripted import ScriptedModel, reply_text

request = CourseModelRequest(id="r", messages=(CourseUserMessage(id="u", content="Hi"),))
usage = CourseModelUsage(input_tokens=1, output_tokens=1)
report = asyncio.run(assert_conforms(
    lambda: ScriptedModel([reply_text("Hi.", response_id="x", message_id="m", usage=usage)]),
    request,
))
assert "pytest" not in sys.modules, "the kit imported pytest"
print(len(report.results), report.result_for(Scenario.COMPLETE).response.request_id)
"""
    completed = subprocess.run(
        [sys.executable, "-c", program],
        env=child_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == "4 r\n"
