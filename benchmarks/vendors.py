"""The real adapters per event, against the floor, the SSE framings, the SDKs and pydantic-ai.

For each API (Anthropic Messages, OpenAI Chat, OpenAI Responses) and each
shape (``n`` text deltas; one Tool call in ``n`` argument fragments; ``n``
reasoning deltas, for the wires that have them, judged by the floor alone), every
candidate reads the same in-memory body at each size
(``benchmarks._vendor_measure``). A row is one (API, shape, candidate): its
ratio to the floor at the middle size, its ratios at the other sizes, its
growth between the two largest sizes it ran at, and its targets. Peak memory
of our adapters is measured in fresh interpreters
(``benchmarks._vendors_child``), the body built as it is read.
"""

from __future__ import annotations

from benchmarks._children import child_json
from benchmarks._serve_row import serve_rows
from benchmarks._timing import Spread
from benchmarks._vendor_bodies import APIS, UNMEASURED, Api, Shape, body_form, shapes_of
from benchmarks._vendor_measure import (
    DECODER_FRAMING,
    FLOOR,
    HTTPX_FRAMING,
    OUR_MODELS,
    Measured,
    VendorsBudget,
    measure,
    power,
)
from benchmarks.report import Row
from benchmarks.vendor_peers import VENDOR_PEERS

__all__ = [
    "DECODER_FRAMING",
    "FLOOR",
    "HTTPX_FRAMING",
    "OUR_MODELS",
    "VendorsBudget",
    "run_vendors",
]

GROUP = "vendors"
FLOOR_LIMIT = 2.0
"""Our adapter may spend at most twice the floor per event.

At every N, except for a body that is one event at every N (a Gemini Tool
call arrives whole): there it is judged at the largest N only. Every call
costs the same fixed work before its first event (the request built and
checked, the exchange through the HTTP client, the stream set up), the
same for every vendor, which a body of N events spreads over N of them
and the floor never does. A one-event body cannot spread it: at 10^3 and
10^4 its row measures that per-call cost against one ``json.loads``, and
the framing rows, which do part of that work and parse nothing, are
themselves several times the floor there. At the largest N reading the
event costs more than the call around it, and the ratio measures what the
target is about. The smaller sizes' ratios stay in the row."""
HELPER_FACTORS: dict[Api, float] = {
    "anthropic-messages": 5.0,
    "openai-chat": 10.0,
    "openai-responses": 10.0,
    "gemini": 2.0,
}
"""How many times faster than the API's SDK stream helper our adapter must be.

google-genai has no stream helper: Gemini's factor is against its raw
stream, which reads a one-chunk Tool body about 2-6x slower than ours (its
text bodies about 16x)."""
LINEAR_LIMIT = 11.0
"""Ten times the events may cost at most 11x the time."""
MEMORY_SLACK = 16.0
"""Peak growth per event allowed beyond what the final message holds: about one more
copy of the text while it is joined (7 B/event here), and some room."""
EXACT_ARGUMENTS_SLACK = 32.0
"""The Responses Tool rows' slack (OpenAI's, and every wire streaming its bodies): its
grammar keeps the whole argument text to compare the item's ``done`` (and the terminal's
repetition) with it exactly, one more copy beside the parsed arguments."""


def _helper_name(api: Api) -> str | None:
    """The API's SDK stream-helper row, or its raw SDK row when the SDK has no helper.

    ``None`` for a dialect measured without peers (its SDK rows are its base wire's).
    """
    sdk = [peer.name for peer in VENDOR_PEERS if peer.api == api and " SDK " in peer.name]
    if not sdk:
        return None
    return next((name for name in sdk if "stream()" in name), sdk[0])


def _growth(measured: Measured, name: str) -> tuple[int, int, float] | None:
    """The last size step this row has: the two sizes and t(larger)/t(smaller).

    The median of per-round ratios when both sizes ran in the same rounds
    (ours, the floor, the framings); otherwise (the peers) the ratio of the
    two sizes' medians.
    """
    if name in measured.growth:
        small, large, spread = measured.growth[name]
        return small, large, spread.median
    sizes = measured.sizes_of(name)
    if len(sizes) < 2:
        return None
    small, large = sizes[-2], sizes[-1]
    return (
        small,
        large,
        (measured.median(name, large) or 0.0) / (measured.median(name, small) or 1.0),
    )


def _median_ratio(measured: Measured, name: str, n: int) -> float:
    ratio = measured.ratios(name, n)
    return ratio.median if ratio is not None else float("inf")


def _our_targets(api: Api, measured: Measured, budget: VendorsBudget) -> tuple[str, bool]:
    name = OUR_MODELS[api]
    if measured.one_event_body():
        judged = budget.sizes[-1:]
        words = [f"<= {FLOOR_LIMIT:.0f}x floor at {power(judged[0])} (one event at every N)"]
    else:
        judged = budget.sizes
        words = [f"<= {FLOOR_LIMIT:.0f}x floor at every N"]
    met = all(_median_ratio(measured, name, n) <= FLOOR_LIMIT for n in judged)
    helper = _helper_name(api)
    shared = (
        []
        if helper is None
        else [n for n in measured.sizes_of(helper) if n in measured.sizes_of(name)]
    )
    if helper is not None and shared:
        # At the middle size (all rounds) when both ran there, else the largest both did.
        middle = budget.sizes[len(budget.sizes) // 2]
        at = middle if middle in shared else shared[-1]
        factor = HELPER_FACTORS[api]
        limit = _median_ratio(measured, helper, at) / factor
        words.append(f"<= SDK helper / {factor:.0f} ({limit:.1f}x at {power(at)})")
        met = met and _median_ratio(measured, name, at) <= limit
    growth = _growth(measured, name)
    if growth is not None and growth[1] == 10 * growth[0] and growth[1] >= 10**5:
        words.append(f"t({power(growth[1])})/t({power(growth[0])}) <= {LINEAR_LIMIT:.0f}x")
        met = met and growth[2] <= LINEAR_LIMIT
    return "; ".join(words), met


def _measured_text(measured: Measured, name: str, at: int) -> tuple[str, dict[str, float]]:
    per_event_us = (measured.median(name, at) or 0.0) / at * 1e6
    figures: dict[str, float] = {"us_per_event": per_event_us, "n": float(at)}
    parts = [f"{per_event_us:.2f} µs/event"]
    for n in measured.sizes_of(name):
        ratio = _median_ratio(measured, name, n)
        figures[f"ratio_{n}"] = ratio
        figures[f"us_per_event_{n}"] = (measured.median(name, n) or 0.0) / n * 1e6
        if n != at and name != FLOOR:
            parts.append(f"{ratio:.2f}x at {power(n)}")
    growth = _growth(measured, name)
    if growth is not None:
        figures["growth"] = growth[2]
        step = f"t({power(growth[1])})/t({power(growth[0])}) {growth[2]:.1f}x"
        if name in measured.growth:
            spread = measured.growth[name][2]
            step += f" ({spread.low:.1f}x .. {spread.high:.1f}x)"
        else:
            step += " (medians of two sessions)"
        parts.append(step)
    if name in measured.skipped:
        parts.append(measured.skipped[name])
    return "; ".join(parts), figures


def _rows_for(api: Api, shape: Shape, measured: Measured, budget: VendorsBudget) -> list[Row]:
    middle = budget.sizes[len(budget.sizes) // 2]
    peers = [peer.name for peer in VENDOR_PEERS if peer.api == api and shape != "reasoning"]
    rows: list[Row] = []
    for name in (FLOOR, HTTPX_FRAMING, DECODER_FRAMING, OUR_MODELS[api], *peers):
        title = f"{api} {shape}: {name}"
        sizes = measured.sizes_of(name)
        if not sizes:
            reason = measured.missing.get(name, "not measured")
            rows.append(Row.unavailable(GROUP, title, f"floor, N={power(middle)}", reason))
            continue
        at = middle if middle in sizes else max(n for n in sizes if n <= middle)
        text, figures = _measured_text(measured, name, at)
        if name == FLOOR:
            rows.append(Row(GROUP, title, "itself", None, text, status="baseline", figures=figures))
            continue
        target, status = "", ""
        if name == OUR_MODELS[api]:
            target, met = _our_targets(api, measured, budget)
            status = "met" if met else "missed"
        against = f"floor, N={power(at)}"
        rows.append(
            Row(GROUP, title, against, measured.ratios(name, at), text, target, status, figures)
        )
    return rows


def _children(api: Api, shape: Shape, sizes: tuple[int, ...]) -> dict[int, dict[str, float]]:
    figures = child_json(
        "benchmarks._vendors_child", "--api", api, "--shape", shape, "--deltas", *map(str, sizes)
    )
    assert isinstance(figures, dict)
    return {n: figures[str(n)] for n in sizes}


def _memory_row(api: Api, shape: Shape, sizes: tuple[int, ...]) -> Row:
    small, large = sizes
    title = f"{api} {shape}: {OUR_MODELS[api]}, peak memory, consumer keeping up"
    runs = _children(api, shape, sizes)
    peak = {n: runs[n]["peak_bytes"] for n in sizes}
    per_event = (peak[large] - peak[small]) / (large - small)
    held = (runs[large]["held"] - runs[small]["held"]) / (large - small)
    exact = (body_form(api), shape) == ("openai-responses", "tool")
    slack = EXACT_ARGUMENTS_SLACK if exact else MEMORY_SLACK
    limit = held + slack
    figures = {"peak_growth_bytes_per_event": per_event, "held_bytes_per_event": held}
    measured = (
        f"peak +{peak[large] / 2**20:.1f} MiB at {power(large)}: +{per_event:.0f} B/event; "
        f"the final message holds {held:.1f} B/event"
    )
    target = f"<= held + {slack:.0f} B/event ({limit:.0f} B/event)"
    status = "met" if per_event <= limit else "missed"
    # The ratio column: the peak's growth per event over what the message holds per
    # event (1.0x: the reader holds nothing but the message it builds).
    ratio = Spread.of([per_event / held]) if held > 0 else None
    against = f"final message, per event, {power(small)} -> {power(large)}"
    return Row(GROUP, title, against, ratio, measured, target, status, figures)


def run_vendors(budget: VendorsBudget, apis: tuple[Api, ...] = APIS) -> list[Row]:
    """Measure every shape of each API of ``apis`` (every API by default; `shapes_of`), then
    the memory children (`shapes_of`) and the ``course serve`` rows of the same APIs; return the
    group's rows.

    The wires with no body builder get their ``n/a`` row only when every API is measured.
    """
    unmeasured = UNMEASURED if apis == APIS else ()
    rows: list[Row] = [
        Row.unavailable(GROUP, f"{api}: ours", "the floor", "no body builder for this wire")
        for api in unmeasured
    ]
    for api in apis:
        for shape in shapes_of(api):
            rows.extend(_rows_for(api, shape, measure(api, shape, budget), budget))
    if len(budget.memory_sizes) == 2:
        for api in apis:
            for shape in shapes_of(api):
                rows.append(_memory_row(api, shape, budget.memory_sizes))
    rows.extend(serve_rows(budget.serve, apis))
    return rows
