"""The run's summary of its cassettes: totals, every unchecked stream, carried across processes."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2

from course_cassettes import (
    Cassette,
    Httpx2CassetteTransport,
    Httpx2RecordingTransport,
    loads_cassette,
)
from course_pytest._summary import USE_KEY, CassetteUse, RunSummary, cassette_use
from course_vendor import stream_judge_for
from tests.course_pytest.projects import ANTHROPIC, SSE


def _call(path: str, status: int, headers: dict[str, str], body: bytes) -> dict[str, object]:
    return {
        "request": {"method": "POST", "path": path, "headers": {}, "body": {"q": 1}},
        "response": {
            "status": status,
            "headers": headers,
            "end": "complete",
            "body": body.decode().splitlines(keepends=True),
        },
    }


CASSETTE = loads_cassette(
    json.dumps(
        {
            "course_cassette": 1,
            "calls": [
                _call("/v1/messages", 200, SSE, ANTHROPIC.text_body("42")),
                _call("/v1/unknown?x=1", 200, SSE, b"data: {}\n\n"),
                _call("/v1/messages", 400, {"content-type": "application/json"}, b"{}"),
            ],
        }
    )
).unwrap()


def _lines(uses: list[CassetteUse]) -> list[str]:
    summary = RunSummary()
    summary.uses.extend(uses)
    return summary.lines()


def _replayed(cassette: Cassette, calls: int) -> Httpx2CassetteTransport:
    """A replay of ``cassette``, judged by the registry, that played its first ``calls`` calls."""
    transport = Httpx2CassetteTransport(cassette, check=stream_judge_for)
    with httpx2.Client(transport=transport, base_url="http://cassette.invalid") as client:
        for call in cassette.calls[:calls]:
            client.post(call.request.path, json={"q": 1})
    return transport


def test_a_use_is_what_the_replay_played_and_judged_not_what_the_file_holds() -> None:
    assert cassette_use("c.json", "none", _replayed(CASSETTE, 3)) == CassetteUse(
        "c.json", "none", 3, 0, 1, ("POST /v1/unknown",), True
    )
    # One call of three played: one stream judged, nothing recorded, nothing else named.
    assert cassette_use("c.json", "none", _replayed(CASSETTE, 1)) == CassetteUse(
        "c.json", "none", 1, 0, 1, (), True
    )
    assert cassette_use("c.json", "none", _replayed(CASSETTE, 0)) == CassetteUse(
        "c.json", "none", 0, 0, 0, (), True
    )


def test_a_cassette_that_says_strict_false_leaves_every_played_stream_unchecked() -> None:
    lenient = Cassette(list(CASSETTE.calls), strict=False)
    use = cassette_use("c.json", "none", _replayed(lenient, 3))
    assert (use.judged, use.unchecked) == (0, ("POST /v1/messages", "POST /v1/unknown"))
    assert (use.replayed, use.recorded, use.strict) == (3, 0, False)
    assert _lines([use])[1:] == [
        "unchecked (strict=False): POST /v1/messages in c.json",
        "unchecked (strict=False): POST /v1/unknown in c.json",
    ]


def test_a_recording_counts_the_calls_it_recorded_and_the_streams_it_judged(
    tmp_path: Path,
) -> None:
    answers = iter(call.response for call in CASSETTE.calls[:2])

    def upstream(request: httpx2.Request) -> httpx2.Response:
        answer = next(answers)
        return httpx2.Response(answer.status, headers=dict(answer.headers), content=answer.body)

    recording = Httpx2RecordingTransport(
        tmp_path / "c.json", inner=httpx2.MockTransport(upstream), check=stream_judge_for
    )
    with httpx2.Client(transport=recording, base_url="http://api.invalid") as client:
        for call in CASSETTE.calls[:2]:
            client.post(call.request.path, json={"q": 1})

    assert cassette_use("c.json", "once", recording) == CassetteUse(
        "c.json", "once", 0, 2, 1, ("POST /v1/unknown",), True
    )


def test_a_use_survives_the_trip_through_a_report_and_bad_values_are_passed_over() -> None:
    use = cassette_use("c.json", "none", _replayed(CASSETTE, 2))
    summary = RunSummary()
    summary.add(
        [
            (USE_KEY, json.loads(json.dumps(use.as_property()))),
            (USE_KEY, {"path": "x"}),
            ("other", use.as_property()),
        ]
    )
    assert summary.uses == [use]


def test_the_summary_says_the_totals_then_each_unchecked_stream() -> None:
    lines = _lines(
        [
            cassette_use("a.json", "none", _replayed(CASSETTE, 3)),
            CassetteUse("b.json", "once", 0, 3, 1, ("POST /v1/unknown",), True),
        ]
    )
    assert lines[0] == (
        "record modes none, once: 2 cassettes, 3 calls replayed, 3 recorded; "
        "2 streams judged by its wire's grammar"
    )
    assert lines[1:3] == [
        "unchecked (no installed wire claims it): POST /v1/unknown in a.json",
        "unchecked (no installed wire claims it): POST /v1/unknown in b.json",
    ]


def test_a_run_that_used_no_cassette_says_nothing() -> None:
    assert RunSummary().lines() == []


def test_the_summary_counts_prompt_cache_checks_and_names_each_exemption_with_its_reason() -> None:
    checked = cassette_use("a.json", "none", _replayed(CASSETTE, 3), prompt_cache=True)
    exempt = cassette_use(
        "b.json", "none", _replayed(CASSETTE, 3), prompt_cache_exempt="swaps the model"
    )
    summary = RunSummary()
    for use in (checked, exempt):
        summary.add([(USE_KEY, json.loads(json.dumps(use.as_property())))])
    assert summary.uses == [checked, exempt]
    lines = summary.lines()
    assert lines[0].endswith("; 1 cassette checked for prompt caching")
    assert lines[-1] == "prompt cache not checked (swaps the model): b.json"
