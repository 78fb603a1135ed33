"""What a run did with its cassettes, said once at its end: the record mode, the calls, the checks.

Each test that used a cassette leaves a `CassetteUse` on its teardown report,
what its httpx2 transport counted as it played or recorded
(``user_properties``, so that pytest-xdist carries it from a worker to the
controller); the controller adds them up in a `RunSummary` and prints it in
pytest's terminal summary: the record mode, how many cassettes and calls
were replayed and recorded, how many recorded streams their wire's grammar
judged, every stream no installed wire judges (never silently unchecked),
how many cassettes the prompt-cache check compared and each test exempted
from it with its reason, and every problem of an installed plug-in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, final

import pytest

from course_cassettes import Httpx2CassetteTransport, Httpx2RecordingTransport
from course_vendor import registry_problems

__all__ = ["USE_KEY", "CassetteUse", "RunSummary", "cassette_use"]

USE_KEY: Final = "course_cassette"
"""The name of a teardown report's user property that holds a test's `CassetteUse`."""


@final
@dataclass(frozen=True, slots=True)
class CassetteUse:
    """What one test did with its cassette (``path``), as its transport counted it:
    ``replayed`` and ``recorded`` calls, the streams its wire ``judged``, and the
    ``unchecked`` ones (``METHOD path``); ``strict`` is the cassette's; whether its
    calls were compared for ``prompt_cache``, or why the test is exempt from it."""

    path: str
    mode: str
    replayed: int
    recorded: int
    judged: int
    unchecked: tuple[str, ...]
    strict: bool
    prompt_cache: bool = False
    prompt_cache_exempt: str | None = None

    def as_property(self) -> dict[str, object]:
        """Plain values a report carries across processes."""
        return {
            "path": self.path,
            "mode": self.mode,
            "replayed": self.replayed,
            "recorded": self.recorded,
            "judged": self.judged,
            "unchecked": list(self.unchecked),
            "strict": self.strict,
            "prompt_cache": self.prompt_cache,
            "prompt_cache_exempt": self.prompt_cache_exempt,
        }

    @classmethod
    def from_property(cls, value: object) -> CassetteUse | None:
        """The use a report carried, or ``None`` for a value that is not one."""
        if not isinstance(value, Mapping):
            return None
        try:
            return cls(
                path=str(value["path"]),
                mode=str(value["mode"]),
                replayed=int(value["replayed"]),
                recorded=int(value["recorded"]),
                judged=int(value["judged"]),
                unchecked=tuple(str(item) for item in value["unchecked"]),
                strict=bool(value["strict"]),
                prompt_cache=bool(value["prompt_cache"]),
                prompt_cache_exempt=_reason(value["prompt_cache_exempt"]),
            )
        except (KeyError, TypeError, ValueError):
            return None


def _reason(value: object) -> str | None:
    return None if value is None else str(value)


def cassette_use(
    path: str,
    mode: str,
    exchange: Httpx2CassetteTransport | Httpx2RecordingTransport,
    *,
    prompt_cache: bool = False,
    prompt_cache_exempt: str | None = None,
) -> CassetteUse:
    """The `CassetteUse` of a test whose cassette ``exchange`` played or recorded.

    What the transport did, as it counted it: the calls it replayed and
    recorded, the streams its wire's grammar judged (`judged`), and the 2xx
    event streams none judged (`unchecked`: no installed wire claims them,
    or the cassette says ``strict: false``).
    ``prompt_cache`` and ``prompt_cache_exempt`` are the test's prompt-cache
    check and its exemption, as its options say.
    """
    calls = exchange.cassette.calls
    recorded = exchange.recorded if isinstance(exchange, Httpx2RecordingTransport) else ()
    return CassetteUse(
        path=path,
        mode=mode,
        replayed=len(exchange.replayed),
        recorded=len(recorded),
        judged=len(exchange.judged),
        unchecked=tuple(
            f"{calls[index].request.method} {shown.partition('?')[0]}"
            for index, shown in exchange.unchecked
        ),
        strict=exchange.cassette.strict,
        prompt_cache=prompt_cache,
        prompt_cache_exempt=prompt_cache_exempt,
    )


class RunSummary:
    """The uses of a whole run, added up as reports arrive: a plug-in of the run's own.

    Registered by the course plugin at configuration; pytest calls its two hooks.
    """

    def __init__(self) -> None:
        self.uses: list[CassetteUse] = []

    def add(self, properties: Iterable[tuple[str, object]]) -> None:
        """Keep the `CassetteUse` of a teardown report's ``user_properties``, if it holds one."""
        for name, value in properties:
            if name == USE_KEY and (use := CassetteUse.from_property(value)) is not None:
                self.uses.append(use)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Keep a test's use of its cassette (a worker's too, under pytest-xdist)."""
        if report.when == "teardown":
            self.add(report.user_properties)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """Say what the run did with its cassettes (`lines`), when it used any."""
        lines = self.lines()
        if lines:
            terminalreporter.section("course cassettes", sep="-")
            for line in lines:
                terminalreporter.write_line(line)

    def lines(self) -> list[str]:
        """What the run's end says: the totals, then each unchecked stream, each prompt-cache
        exemption with its reason, and each plug-in problem."""
        if not self.uses:
            return []
        cassettes = len({use.path for use in self.uses})
        replayed = sum(use.replayed for use in self.uses)
        recorded = sum(use.recorded for use in self.uses)
        judged = sum(use.judged for use in self.uses)
        modes = sorted({use.mode for use in self.uses})
        lines = [
            f"record mode{'s' if len(modes) > 1 else ''} {', '.join(modes)}: "
            f"{_count(cassettes, 'cassette')}, "
            f"{_count(replayed, 'call')} replayed, {recorded} recorded; "
            f"{_count(judged, 'stream')} judged by its wire's grammar"
        ]
        compared = len({use.path for use in self.uses if use.prompt_cache})
        if compared:
            lines[0] += f"; {_count(compared, 'cassette')} checked for prompt caching"
        for use in self.uses:
            reason = "strict=False" if not use.strict else "no installed wire claims it"
            lines.extend(f"unchecked ({reason}): {call} in {use.path}" for call in use.unchecked)
        lines.extend(
            f"prompt cache not checked ({use.prompt_cache_exempt}): {use.path}"
            for use in self.uses
            if use.prompt_cache_exempt is not None
        )
        lines.extend(f"plug-in problem: {problem}" for problem in registry_problems())
        return lines


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
