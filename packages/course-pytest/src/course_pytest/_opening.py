"""The transport a test's plan opens over its cassette, or the failure that says how to record it.

A ``"record"`` or ``"extend"`` plan records into the scratch file (an
extension replaying the cassette first); a ``"replay"`` plays the cassette;
a ``"missing"`` one, or a cassette that cannot be used, fails the test.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest

from course_cassettes import (
    Cassette,
    CassetteTransport,
    Httpx2CassetteTransport,
    Httpx2RecordingTransport,
    RecordingTransport,
    StreamJudges,
    load_cassette,
)
from course_http import Timeouts
from course_pytest._clients import AsyncTransport, SyncTransport
from course_pytest._modes import Plan, RecordMode
from course_pytest._options import CassetteOptions
from course_vendor import stream_judge_for

__all__ = ["Opening"]


@dataclass(frozen=True, slots=True)
class Opening:
    """What opening one test's cassette needs: where it is, its plan, options and messages."""

    path: Path
    recording_path: Path
    mode: RecordMode
    plan: Plan
    options: CassetteOptions
    how_to_record: str
    how_to_replace: str
    how_to_extend: str

    def transport(
        self, base_url: str, timeouts: Timeouts | None
    ) -> CassetteTransport | RecordingTransport:
        """The course transport on ``base_url`` the plan says; fails the test as `recorded` does."""
        options = self.options
        recorded = self.recorded()
        if self.plan == "replay" and recorded is not None:
            # The replay is built on the same base URL as the recording, so it
            # sends exactly the path a live call would (a base URL may carry a
            # path prefix: https://api.groq.com/openai).
            return CassetteTransport(
                recorded,
                base_url=base_url,
                matching=options.matching,
                faults=options.faults,
                chunking=options.chunking,
                timeouts=timeouts,
                when_exhausted=self.how_to_extend,
                check=self.check,
            )
        # A recording; an extension replays the cassette first.
        return RecordingTransport(
            base_url,
            self.recording_path,
            redaction=options.redaction,
            matching=options.matching,
            keep_headers=options.keep_headers,
            timeouts=timeouts,
            replay_first=recorded,
            check=self.check,
            strict=options.strict,
            wire=options.wire,
        )

    def httpx_transport(
        self, inner: SyncTransport | AsyncTransport | None
    ) -> Httpx2CassetteTransport | Httpx2RecordingTransport:
        """The httpx2 transport the plan says (recording through ``inner``); fails as `recorded`."""
        options = self.options
        recorded = self.recorded()
        if self.plan == "replay" and recorded is not None:
            return Httpx2CassetteTransport(
                recorded,
                matching=options.matching,
                faults=options.faults,
                chunking=options.chunking,
                check=self.check,
                when_exhausted=self.how_to_extend,
            )
        return Httpx2RecordingTransport(
            self.recording_path,
            inner=inner,
            redaction=options.redaction,
            matching=options.matching,
            keep_headers=options.keep_headers,
            replay_first=recorded,
            check=self.check,
            strict=options.strict,
            wire=options.wire,
        )

    @property
    def check(self) -> StreamJudges | None:
        """The strict check of each stream: the registry's wires' grammars, unless ``strict=False``.

        A replay also honours what the cassette says (``strict: false``).
        With ``wire=`` on the marker, a call that records no wire is judged as
        that wire, and one that records another is ``VENDOR_WIRE_MISMATCH``.
        """
        if not self.options.strict:
            return None
        wire = self.options.wire
        return stream_judge_for if wire is None else partial(stream_judge_for, wire=wire)

    def recorded(self) -> Cassette | None:
        """The cassette a replay or an extension plays first; ``None`` for a new recording.

        Fails the test (``pytest.fail``, saying how to record it) when the
        cassette is missing and must be replayed, or cannot be used.
        """
        if self.plan == "missing" and self.options.faults:
            pytest.fail(
                f"the cassette {self.path} does not exist, and a test with faults never "
                "records (a live call cannot be faulted): record it with the test that names "
                "the same cassette without faults.",
                pytrace=False,
            )
        if self.plan == "missing":
            pytest.fail(
                f"the cassette {self.path} does not exist, and record mode "
                f"{self.mode.value!r} replays only.\n{self.how_to_record}",
                pytrace=False,
            )
        if self.plan == "record":
            return None
        loaded = load_cassette(self.path)
        recorded = loaded.value_or(None)
        if recorded is None:
            pytest.fail(f"{loaded.failure()}\n{self.how_to_replace}", pytrace=False)
        return recorded
