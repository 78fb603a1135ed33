"""The vendors group's targets for our adapters, judged on figures made up here, never timed."""

from __future__ import annotations

from benchmarks._serve_row import ServeBudget
from benchmarks._vendor_measure import FLOOR, OUR_MODELS, Measured, VendorsBudget
from benchmarks.vendor_peers import VENDOR_PEERS
from benchmarks.vendors import _rows_for

BUDGET = VendorsBudget(
    sizes=(10, 100),
    peer_sizes=(10, 100),
    single_pass_sizes=(),
    rounds=3,
    warmup=0,
    min_round_seconds=0.0,
    memory_sizes=(),
    serve=ServeBudget(events=10, rounds=1, warmup=0),
)
OURS = OUR_MODELS["gemini"]
SDK = next(peer.name for peer in VENDOR_PEERS if peer.api == "gemini")


def _measured(ours: dict[int, float], events: dict[int, int]) -> Measured:
    """Ours at ``ours[n]`` times the floor, the SDK at 100x, over bodies of ``events[n]``."""
    measured = Measured()
    for n, ratio in ours.items():
        floor = [float(n)] * BUDGET.rounds
        seconds = {FLOOR: floor, OURS: [ratio * n] * 3, SDK: [100.0 * n] * 3}
        measured.keep(seconds, n)
    measured.events.update(events)
    return measured


def _our_row(measured: Measured) -> tuple[str, str]:
    rows = [row for row in _rows_for("gemini", "tool", measured, BUDGET) if row.name.endswith(OURS)]
    assert len(rows) == 1
    return rows[0].target, rows[0].status


def test_a_one_event_body_is_judged_at_the_largest_size_only() -> None:
    measured = _measured({10: 30.0, 100: 1.5}, {10: 1, 100: 1})
    assert measured.one_event_body()
    target, status = _our_row(measured)
    assert target.startswith("<= 2x floor at 10^2 (one event at every N); <= SDK helper / 2")
    assert status == "met"


def test_a_one_event_body_misses_when_its_largest_size_is_past_the_floor_limit() -> None:
    measured = _measured({10: 1.5, 100: 2.5}, {10: 1, 100: 1})
    assert _our_row(measured)[1] == "missed"


def test_a_body_whose_events_grow_with_n_is_judged_at_every_size() -> None:
    measured = _measured({10: 30.0, 100: 1.5}, {10: 12, 100: 102})
    assert not measured.one_event_body()
    target, status = _our_row(measured)
    assert target.startswith("<= 2x floor at every N; <= SDK helper / 2")
    assert status == "missed"
    assert _our_row(_measured({10: 1.9, 100: 1.5}, {10: 12, 100: 102}))[1] == "met"


def test_no_events_recorded_is_not_a_one_event_body() -> None:
    assert not Measured().one_event_body()
