"""The run's summary of its cassettes: totals, every unchecked stream, carried across processes."""

from __future__ import annotations

import json

from course_cassettes import loads_cassette
from course_pytest._summary import USE_KEY, CassetteUse, RunSummary, cassette_use
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


def test_a_cassettes_streams_are_judged_or_named_unchecked() -> None:
    use = cassette_use("c.json", "none", CASSETTE, replayed=3, strict=True)
    assert use == CassetteUse("c.json", "none", 3, 0, 1, ("POST /v1/unknown",), True)


def test_strict_false_leaves_every_stream_unchecked() -> None:
    use = cassette_use("c.json", "once", CASSETTE, replayed=1, strict=False)
    assert (use.judged, use.unchecked) == (0, ("POST /v1/messages", "POST /v1/unknown"))
    assert (use.replayed, use.recorded) == (1, 2)


def test_a_use_survives_the_trip_through_a_report_and_bad_values_are_passed_over() -> None:
    use = cassette_use("c.json", "none", CASSETTE, replayed=2, strict=True)
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
    summary = RunSummary()
    summary.uses.append(cassette_use("a.json", "none", CASSETTE, replayed=3, strict=True))
    summary.uses.append(cassette_use("b.json", "once", CASSETTE, replayed=0, strict=True))
    lines = summary.lines()
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
    checked = cassette_use("a.json", "none", CASSETTE, replayed=3, strict=True, prompt_cache=True)
    exempt = cassette_use(
        "b.json", "none", CASSETTE, replayed=3, strict=True, prompt_cache_exempt="swaps the model"
    )
    summary = RunSummary()
    for use in (checked, exempt):
        summary.add([(USE_KEY, json.loads(json.dumps(use.as_property())))])
    assert summary.uses == [checked, exempt]
    lines = summary.lines()
    assert lines[0].endswith("; 1 cassette checked for prompt caching")
    assert lines[-1] == "prompt cache not checked (swaps the model): b.json"
