"""The command beside broken and rival vendor plug-ins: one line for each problem, no traceback.

``--wire`` naming a wire whose plug-in cannot be used is one line and exit
status 2; a cassette check or ``course serve`` passes a broken plug-in over,
names it once on stderr, and every other wire still works; a recorded path
two wires claim alike is one ``VENDOR_WIRE_CONFLICT`` line.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path

import anthropic
import pytest

from course_http.loopback import LoopbackServer
from tests.course_cli.helpers import CourseRunner
from tests.course_cli.serving import SECONDS, serving
from tests.course_cli.test_check_cassettes import call, written
from tests.course_cli.test_serve_record import KEY, QUESTION, upstream_answer
from tests.course_vendor.plugins import BROKEN_MODULES, MadeUpSite, wire_module
from tests.course_vendor.wires import WIRES

HOSTILE = "course-vendor-hostile"
RIVAL = "course-vendor-rival"
ANTHROPIC = next(wire for wire in WIRES if wire.name == "anthropic-messages")
BROKEN = [f"broken-{position}" for position in range(len(BROKEN_MODULES))]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[MadeUpSite]:
    """A folder of made-up distributions, off ``sys.path`` again when the test ends."""
    made = MadeUpSite(tmp_path / "site")
    yield made
    made.forget()


def with_broken_plugins(site: MadeUpSite) -> MadeUpSite:
    wires = {}
    for position, (source, _) in enumerate(BROKEN_MODULES.values()):
        module = site.module(f"course_broken_cli_plugin_{position}", source)
        wires[f"broken-{position}"] = f"{module}:PLUGIN"
    site.module("course_not_a_cli_plugin", "PLUGIN = object()\n")
    wires["not-a-plugin"] = "course_not_a_cli_plugin:PLUGIN"
    site.distribution(HOSTILE, wires)
    return site


def with_rival_endpoint(site: MadeUpSite) -> MadeUpSite:
    site.module("course_rival_cli_wire", wire_module("aaa-messages", "/v1/messages"))
    site.distribution(RIVAL, {"aaa-messages": "course_rival_cli_wire:PLUGIN"})
    return site


def anthropic_cassette(path: Path, body: bytes) -> Path:
    return written(path, call(ANTHROPIC, body))


@pytest.mark.parametrize("command", ["replay", "check"])
@pytest.mark.parametrize("wire", [*BROKEN, "not-a-plugin"])
def test_a_wire_whose_plugin_cannot_load_is_one_line_and_status_2(
    site: MadeUpSite, course: CourseRunner, tmp_path: Path, command: str, wire: str
) -> None:
    body = tmp_path / "answer.sse"
    body.write_bytes(ANTHROPIC.text_body("42"))

    with with_broken_plugins(site).installed():
        run = course(command, "--wire", wire, body)

    assert (run.status, run.out) == (2, "")
    assert run.err.startswith(
        f"course {command}: VENDOR_PLUGIN_BROKEN: the wire {wire!r} cannot be used: "
        f"its entry point course_"
    ), run.err
    assert f" of {HOSTILE} " in run.err
    assert run.err.count("\n") == 1
    assert run.err.endswith("\n")


def test_a_wire_name_two_packages_register_is_one_conflict_line(
    site: MadeUpSite, course: CourseRunner, tmp_path: Path
) -> None:
    body = tmp_path / "answer.sse"
    body.write_bytes(ANTHROPIC.text_body("42"))
    site.distribution(RIVAL, {"anthropic-messages": "course_provider_anthropic:MESSAGES_PLUGIN"})

    with site.installed():
        run = course("replay", "--wire", "anthropic-messages", body)
        other = course("replay", "--wire", "openai-chat", tmp_path / "missing.sse")

    assert (run.status, run.out) == (2, "")
    assert run.err == (
        "course replay: VENDOR_WIRE_CONFLICT: the wire 'anthropic-messages' is registered by 2 "
        "distributions: course-provider-anthropic (course_provider_anthropic:MESSAGES_PLUGIN) "
        f"and {RIVAL} (course_provider_anthropic:MESSAGES_PLUGIN); uninstall all but one\n"
    )
    assert "VENDOR_WIRE_CONFLICT" not in other.err


def test_a_cassette_checks_beside_broken_plugins_each_named_once_on_stderr(
    site: MadeUpSite, course: CourseRunner, tmp_path: Path
) -> None:
    good = anthropic_cassette(tmp_path / "good.json", ANTHROPIC.text_body("42"))
    whole = ANTHROPIC.text_body("42")
    cut = anthropic_cassette(tmp_path / "cut.json", whole[: whole.rindex(b"event:")])

    with with_broken_plugins(site).installed():
        run = course("check", good, cut, good)

    assert run.status == 1
    [problem, summary] = run.out.splitlines()
    assert problem.startswith(
        f"{cut}: response 0: VENDOR_MISSING_TERMINAL: calls[0].response.body: "
    )
    assert " on anthropic-messages: " in problem
    assert summary == "checked 3 files, 3 responses: 1 problem in 1 file"
    lines = run.err.splitlines()
    assert [line.split(": ")[:2] for line in lines] == [
        ["course check", "VENDOR_PLUGIN_BROKEN"] for _ in [*BROKEN, "not-a-plugin"]
    ]
    assert [line.split("'")[1] for line in lines] == [*BROKEN, "not-a-plugin"]
    assert "Traceback" not in run.err


def test_a_clean_cassette_stays_status_0_when_a_plugin_of_another_wire_is_broken(
    site: MadeUpSite, course: CourseRunner, tmp_path: Path
) -> None:
    good = anthropic_cassette(tmp_path / "good.json", ANTHROPIC.text_body("42"))

    with with_broken_plugins(site).installed():
        run = course("check", "--wire", "cassette", good)

    assert (run.status, run.out) == (0, "checked 1 file, 1 response: clean\n")
    assert len(run.err.splitlines()) == len(BROKEN) + 1


def test_a_stream_whose_path_two_wires_claim_is_one_conflict_problem(
    site: MadeUpSite, course: CourseRunner, tmp_path: Path
) -> None:
    good = anthropic_cassette(tmp_path / "good.json", ANTHROPIC.text_body("42"))

    with with_rival_endpoint(site).installed():
        run = course("check", good)

    assert run.status == 1
    [problem, _summary] = run.out.splitlines()
    assert problem.startswith(
        f"{good}: response 0: VENDOR_WIRE_CONFLICT: calls[0].response.body: the path "
        "'/v1/messages' is the endpoint of 2 wires, 'aaa-messages' of course-vendor-rival"
    )
    assert run.err == ""


def test_without_made_up_packages_a_cassette_check_says_nothing_on_stderr(
    course: CourseRunner, tmp_path: Path
) -> None:
    good = anthropic_cassette(tmp_path / "good.json", ANTHROPIC.text_body("42"))

    run = course("check", good)

    assert (run.status, run.err) == (0, "")


def _ask(base_url: str) -> str:
    client = anthropic.Anthropic(base_url=base_url, api_key=KEY, max_retries=0, timeout=SECONDS)
    with (
        client,
        client.messages.stream(model="claude-test", max_tokens=64, messages=QUESTION) as stream,
    ):
        return "".join(stream.text_stream)


def test_serve_names_a_broken_plugin_once_and_still_finds_the_anthropic_wire(
    site: MadeUpSite, tmp_path: Path
) -> None:
    cassette = anthropic_cassette(tmp_path / "answers.json", ANTHROPIC.text_body("42"))
    with_broken_plugins(site)

    with serving(str(cassette), environment={"PYTHONPATH": str(site.root)}) as child:
        banner = child.line()
        sdk = child.line()
        child.process.send_signal(signal.SIGTERM)
        rest, err = child.finish()

    assert banner.startswith("course serve: http://127.0.0.1:")
    assert sdk == f"  anthropic: {banner.split()[2]} (ANTHROPIC_BASE_URL)"
    assert rest == ""
    lines = err.splitlines()
    assert [line.split("'")[1] for line in lines[:-1]] == [*BROKEN, "not-a-plugin"]
    assert all(line.startswith("course serve: VENDOR_PLUGIN_BROKEN: ") for line in lines[:-1]), err
    assert lines[-1] == "course serve: terminated"


def test_serve_names_a_path_two_wires_claim_and_gives_no_base_url_for_it(
    site: MadeUpSite, tmp_path: Path
) -> None:
    cassette = anthropic_cassette(tmp_path / "answers.json", ANTHROPIC.text_body("42"))
    with_rival_endpoint(site)

    with serving(str(cassette), environment={"PYTHONPATH": str(site.root)}) as child:
        banner = child.line()
        child.process.send_signal(signal.SIGTERM)
        rest, err = child.finish()

    assert banner.startswith("course serve: http://127.0.0.1:")
    assert rest == ""
    [conflict, terminated] = err.splitlines()
    assert conflict.startswith(
        "course serve: VENDOR_WIRE_CONFLICT: the path '/v1/messages' is the endpoint of 2 wires"
    )
    assert terminated == "course serve: terminated"


async def test_the_recording_proxy_relays_a_valid_stream_whole_beside_a_broken_plugin(
    site: MadeUpSite, tmp_path: Path
) -> None:
    cassette = tmp_path / "recorded.json"
    with_broken_plugins(site)
    environment = {"PYTHONPATH": str(site.root)}

    async with LoopbackServer(upstream_answer) as upstream:
        with serving(
            str(cassette), "--record", "--upstream", upstream.base_url, environment=environment
        ) as child:
            banner = await asyncio.to_thread(child.banner)
            answer = await asyncio.to_thread(_ask, banner.split()[2])
            report = await asyncio.to_thread(child.line)
            child.process.send_signal(signal.SIGTERM)
            _rest, err = await asyncio.to_thread(child.finish)

    assert (answer, report) == ("42", "POST /v1/messages: recorded: 200")
    lines = err.splitlines()
    assert [line.split("'")[1] for line in lines[:-1]] == [*BROKEN, "not-a-plugin"]
    assert lines[-1] == "course serve: terminated"
