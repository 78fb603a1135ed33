"""One recorded Anthropic SDK call replayed per test: our cassette transport, VCR.py, the floor.

Each pass is one test's worth of work: the replay's set-up (our cassette
loaded from its file and `Httpx2CassetteTransport` built over it with the
strict check on, ``course_vendor.stream_judge_for``, as the pytest plugin
replays: the streamed call's body judged by its wire's grammar; VCR.py's
``use_cassette`` with pytest-recording's default record mode, ``none``),
then an ``anthropic.Anthropic`` client over an ``httpx2.Client`` making one
call, streamed (``messages.stream``) or plain (``messages.create``), and
checking its text. The floor serves the same bytes from an
``httpx2.MockTransport``. All three run side by side in the same rounds of
one fresh interpreter (``benchmarks._cassettes_child``), whatever groups
ran before. VCR.py patches httpx2's transports itself; whether it
intercepts them is probed before its rows are measured (``n/a`` when not).
Our rows' target is both at most 1.5x the floor and faster than VCR.py;
the status says met or missed for each.
"""

from __future__ import annotations

import importlib
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import httpx2

from benchmarks._timing import Spread, measure_sync_side_by_side, per_round_ratios
from benchmarks._vendor_bodies import vendor_body
from benchmarks.report import Row
from course_cassettes import Httpx2CassetteTransport, Httpx2RecordingTransport, load_cassette
from course_vendor import stream_judge_for

__all__ = [
    "GROUP",
    "KEY",
    "KINDS",
    "OURS",
    "VCR",
    "CassettesBudget",
    "measure_cassettes",
    "our_status",
    "unavailable",
]

GROUP = "cassettes"
FLOOR = "httpx2.MockTransport"
OURS = "Httpx2CassetteTransport"
VCR = "VCR.py (pytest-recording defaults)"
TARGET = 1.5

Kind = Literal["streamed", "plain"]
KINDS: tuple[Kind, ...] = ("streamed", "plain")
KEY = "sk-ant-api03-bench-not-a-key-bench-not-a-key-bench-not-a-key-0000"
_PLAIN_TEXT = "Hello from a plain message."


@dataclass(frozen=True)
class CassettesBudget:
    """How many rounds are timed, and whether the peers (VCR.py) are measured."""

    rounds: int
    warmup: int
    include_peers: bool


def _answer(kind: Kind) -> tuple[int, list[tuple[str, str]], bytes, str]:
    if kind == "streamed":
        body = vendor_body("anthropic-messages", "text", 20)
        return 200, [("content-type", "text/event-stream; charset=utf-8")], body.body, body.text
    message = (
        '{"id":"msg_bench","type":"message","role":"assistant","model":"claude-bench",'
        f'"content":[{{"type":"text","text":"{_PLAIN_TEXT}"}}],"stop_reason":"end_turn",'
        '"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":6}}'
    )
    return 200, [("content-type", "application/json")], message.encode(), _PLAIN_TEXT


def _upstream(kind: Kind) -> httpx2.MockTransport:
    status, headers, body, _ = _answer(kind)
    return httpx2.MockTransport(
        lambda request: httpx2.Response(status, headers=headers, content=body)
    )


def _call(anthropic: Any, client: httpx2.Client, kind: Kind) -> str:
    sdk = anthropic.Anthropic(api_key=KEY, http_client=client, max_retries=0)
    arguments: dict[str, Any] = {
        "model": "claude-bench",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "Say hello."}],
    }
    if kind == "streamed":
        with sdk.messages.stream(**arguments) as stream:
            text: str = stream.get_final_text()
        return text
    message = sdk.messages.create(**arguments)
    return str(message.content[0].text)


def _checked(text: str, expected: str, name: str) -> str:
    if text != expected:
        raise AssertionError(f"{name} read {text!r}, not {expected!r}")
    return text


def _floor(anthropic: Any, kind: Kind) -> Callable[[], object]:
    expected = _answer(kind)[3]

    def run() -> object:
        with httpx2.Client(transport=_upstream(kind)) as client:
            return _checked(_call(anthropic, client, kind), expected, FLOOR)

    return run


def _ours(anthropic: Any, kind: Kind, path: Path) -> Callable[[], object]:
    expected = _answer(kind)[3]
    recording = Httpx2RecordingTransport(path, inner=_upstream(kind), check=stream_judge_for)
    with httpx2.Client(transport=recording) as client:
        _call(anthropic, client, kind)

    def run() -> object:
        # The strict check on, as the pytest plugin replays: the stream judged by its grammar.
        transport = Httpx2CassetteTransport(load_cassette(path).unwrap(), check=stream_judge_for)
        with httpx2.Client(transport=transport) as client:
            text = _checked(_call(anthropic, client, kind), expected, OURS)
        transport.assert_consumed()
        if kind == "streamed" and transport.judged != (0,):
            raise AssertionError(f"{OURS} judged {transport.judged}, not the one stream")
        return text

    return run


def _vcr_unavailable() -> str | None:
    try:
        vcr = importlib.import_module("vcr")
        refusal = importlib.import_module("vcr.errors").CannotOverwriteExistingCassetteException
    except ImportError:
        return "vcrpy not installed (the peers group)"
    # Whether this VCR.py intercepts httpx2 at all, asked of it rather than
    # inferred from its version or from what `httpx` names: a request it
    # does not stop reaches the refusing transport.
    with tempfile.TemporaryDirectory() as workdir:
        probe = vcr.use_cassette(str(Path(workdir) / "probe.yaml"), record_mode="none")
        try:
            with probe, httpx2.Client(transport=_refusing()) as client:
                client.get("http://probe.invalid/")
        except refusal:
            return None
        except AssertionError:
            pass
    return "this vcrpy does not intercept httpx2: a request went past it to the transport"


def _vcr(anthropic: Any, kind: Kind, path: Path) -> Callable[[], object]:
    vcr = importlib.import_module("vcr")
    expected = _answer(kind)[3]
    recording = vcr.use_cassette(str(path), record_mode="once")
    with recording, httpx2.Client(transport=_upstream(kind)) as client:
        _call(anthropic, client, kind)

    def run() -> object:
        replaying = vcr.use_cassette(str(path), record_mode="none")
        with replaying, httpx2.Client(transport=_refusing()) as client:
            return _checked(_call(anthropic, client, kind), expected, VCR)

    return run


def _refusing() -> httpx2.MockTransport:
    def refuse(request: httpx2.Request) -> httpx2.Response:
        raise AssertionError(f"VCR.py let {request.url} through to the transport")

    return httpx2.MockTransport(refuse)


def unavailable(reason: str) -> list[Row]:
    """Every row of the group, each saying ``n/a: reason``."""
    return [
        Row.unavailable(GROUP, f"{name}, {kind}", f"{FLOOR}, {kind}", reason)
        for kind in KINDS
        for name in (FLOOR, OURS, VCR)
    ]


def measure_cassettes(budget: CassettesBudget) -> list[Row]:
    """One replayed SDK call per pass, streamed and plain: the floor, ours and VCR.py.

    VCR.py is measured only when ``budget.include_peers`` and it intercepts
    httpx2 (a probe request it must refuse never reaches the transport);
    its rows say why not otherwise. Raises ``AssertionError`` when a candidate reads the
    wrong text or VCR.py lets a replayed request through.
    """
    try:
        anthropic = importlib.import_module("anthropic")
    except ImportError:
        return unavailable("anthropic not installed (the peers group)")
    vcr_missing = _vcr_unavailable() if budget.include_peers else "peers left out (smoke)"
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as workdir:
        for kind in KINDS:
            rows.extend(_group(anthropic, kind, Path(workdir), vcr_missing, budget))
    return rows


def _group(
    anthropic: Any, kind: Kind, workdir: Path, vcr_missing: str | None, budget: CassettesBudget
) -> list[Row]:
    floor = f"{FLOOR}, {kind}"
    candidates: dict[str, Callable[[], Callable[[], object]]] = {}
    made = {
        floor: _floor(anthropic, kind),
        f"{OURS}, {kind}": _ours(anthropic, kind, workdir / f"ours-{kind}.json"),
    }
    if vcr_missing is None:
        made[f"{VCR}, {kind}"] = _vcr(anthropic, kind, workdir / f"vcr-{kind}.yaml")
    for name, run in made.items():
        candidates[name] = _constant(run)
    seconds = measure_sync_side_by_side(candidates, rounds=budget.rounds, warmup=budget.warmup)
    base = Spread.of(seconds[floor]).median
    rows = [
        Row(
            GROUP,
            floor,
            "one SDK call per test",
            None,
            f"{base * 1e3:.2f} ms per test",
            status="baseline",
            figures={"seconds": base},
        )
    ]
    ours, vcr = f"{OURS}, {kind}", f"{VCR}, {kind}"
    against_vcr = None
    if vcr_missing is None:
        against_vcr = Spread.of(per_round_ratios(seconds[ours], seconds[vcr]))
    rows.append(_our_row(ours, floor, seconds, against_vcr, vcr_missing))
    if vcr_missing is not None:
        rows.append(Row.unavailable(GROUP, vcr, floor, vcr_missing))
        return rows
    mine = Spread.of(seconds[vcr]).median
    rows.append(
        Row(
            GROUP,
            vcr,
            floor,
            Spread.of(per_round_ratios(seconds[vcr], seconds[floor])),
            f"{mine * 1e3:.2f} ms per test",
            figures={"seconds": mine},
        )
    )
    return rows


def _our_row(
    ours: str,
    floor: str,
    seconds: dict[str, list[float]],
    against_vcr: Spread | None,
    vcr_missing: str | None,
) -> Row:
    ratio = Spread.of(per_round_ratios(seconds[ours], seconds[floor]))
    mine = Spread.of(seconds[ours]).median
    measured = f"{mine * 1e3:.2f} ms per test"
    figures = {"seconds": mine}
    if against_vcr is not None:
        low, high = against_vcr.low, against_vcr.high
        measured += f"; {against_vcr.median:.2f}x VCR.py ({low:.2f}x .. {high:.2f}x)"
        figures["ratio_to_vcr"] = against_vcr.median
    return Row(
        GROUP,
        ours,
        floor,
        ratio,
        measured,
        target=f"<= {TARGET}x the floor and faster than VCR.py",
        status=our_status(
            ratio.median, None if against_vcr is None else against_vcr.median, vcr_missing
        ),
        figures=figures,
    )


def our_status(to_floor: float, to_vcr: float | None, vcr_missing: str | None) -> str:
    """Met or missed for each half of our target: ``<= 1.5x`` the floor, faster than VCR.py.

    ``to_floor`` and ``to_vcr`` are medians of our per-round ratios to each;
    ``to_vcr`` is ``None`` when VCR.py was not measured, and ``vcr_missing``
    then says why. Raises nothing.
    """
    floor_part = f"<= {TARGET}x the floor: {'met' if to_floor <= TARGET else 'missed'}"
    if to_vcr is None:
        return f"{floor_part}; faster than VCR.py: n/a ({vcr_missing})"
    return f"{floor_part}; faster than VCR.py: {'met' if to_vcr < 1.0 else 'missed'}"


def _constant(run: Callable[[], object]) -> Callable[[], Callable[[], object]]:
    return lambda: run
