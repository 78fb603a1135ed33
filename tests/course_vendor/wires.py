"""The real vendor models side by side, for the tests of `VendorModel` they share.

`WIRES` is the parametrization every shared test runs over: one `Wire` per
wire of every installed vendor package, found through the vendor registry
(the ``course.vendors`` entry points), each made by the ``harness.py`` of
that package's test folder. A vendor package that registers a wire but has
no harness fails here, at collection. `CONFIGS` is the configuration class
of those wires, once each (two wires of one vendor share one), for the
shared tests of what a configuration checks.
"""

from __future__ import annotations

import asyncio
import importlib
from importlib.metadata import entry_points
from typing import Any

import httpx2
import pytest

from course_http import HttpTransport, RecordedTransport, Timeouts
from course_vendor import VENDOR_ENTRY_POINT_GROUP, VendorConfig
from tests.course_vendor.wire import (
    JSON,
    KEY,
    REQUEST,
    SSE,
    TOOLS,
    AnyModel,
    Wire,
    read_into,
    sse_bytes,
)

__all__ = [
    "CONFIGS",
    "JSON",
    "KEY",
    "REQUEST",
    "SSE",
    "TOOLS",
    "WIRES",
    "AnyModel",
    "StallingTransport",
    "StallsBeforeTheStatus",
    "Wire",
    "checked_on",
    "every_config",
    "every_wire",
    "read_into",
    "sse_bytes",
]


def _registered_wires() -> tuple[Wire, ...]:
    found = []
    for point in sorted(entry_points(group=VENDOR_ENTRY_POINT_GROUP), key=lambda p: p.name):
        package = point.module.partition(".")[0]
        harness = importlib.import_module(f"tests.{package}.harness")
        wire = harness.WIRES.get(point.name)
        if not isinstance(wire, Wire):
            raise LookupError(f"tests/{package}/harness.py has no Wire for {point.name!r}")
        found.append(wire)
    return tuple(found)


WIRES = _registered_wires()
"""One `Wire` per registered vendor wire, in name order."""

every_wire = pytest.mark.parametrize("wire", WIRES, ids=[wire.name for wire in WIRES])
"""Run a test once per vendor API, with the `Wire` as its ``wire`` argument."""


def _configurations() -> tuple[tuple[type[VendorConfig], dict[str, Any]], ...]:
    found: dict[type[VendorConfig], dict[str, Any]] = {}
    for wire in WIRES:
        config = wire.model(tools=(), transport=RecordedTransport([])).config
        found.setdefault(
            type(config), {"model": config.model, "max_output_tokens": config.max_output_tokens}
        )
    return tuple(found.items())


CONFIGS = _configurations()
"""The configuration class of every registered wire, once each, with the fields of the
smallest configuration its harness builds (``model`` and ``max_output_tokens``)."""

every_config = pytest.mark.parametrize(
    ("config_class", "minimal"), CONFIGS, ids=[kind.__name__ for kind, _ in CONFIGS]
)
"""Run a test once per configuration class, with ``config_class`` and ``minimal``, the
fields a configuration of it needs."""


def checked_on(name: str) -> str:
    """How a recorded body's problem names the wire ``name`` whose grammar judged it."""
    return f"judged on {name}"


class StallsBeforeTheStatus(httpx2.AsyncBaseTransport):
    """An httpx2 transport that takes the request and never answers, until cancelled.

    ``arrived`` is set once the request reached it; ``cancelled`` once the
    wait was cancelled (the call let go of it).
    """

    def __init__(self) -> None:
        self.arrived = asyncio.Event()
        self.cancelled = False

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        self.arrived.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        raise AssertionError("unreachable: the wait above never ends by itself")


class StallingTransport(HttpTransport):
    """A course transport over `StallsBeforeTheStatus`: a server that never sends a status."""

    def __init__(self) -> None:
        self.exchange = StallsBeforeTheStatus()
        super().__init__("http://stalls.invalid", timeouts=Timeouts(read=None), trust_env=False)

    def _exchange(self) -> httpx2.AsyncBaseTransport:
        return self.exchange
