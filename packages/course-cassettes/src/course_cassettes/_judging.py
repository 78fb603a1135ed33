"""The strict check of a cassette transport's streams: `StreamJudges` and what they found.

Both httpx2 transports (replay and recording) judge each stream they play or
record with a judge the check gives for its call (``course_vendor``'s: the
wire's grammar alone), fed as the bytes pass: the played body and the tee
feed it, `Judging` keeps what it found, in the call's terms.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import final

from course_cassettes._httpx2_calls import located
from course_http import SSE_FRAMING, BodyJudge, RecordedRequest, VendorError

__all__ = ["Judging", "StreamJudges"]

StreamJudges = Callable[[RecordedRequest, int, Mapping[str, str]], BodyJudge | None]
"""The strict check of the streams a cassette transport records or replays.

Given a call's request (as the cassette holds it: its path, and the host
and wire it records), its response's status and headers (lower-case
names), the `course_http.BodyJudge` of its body, or ``None`` when no wire
judges it (not a 2xx stream, or a call no installed wire claims).
``course_vendor.stream_judge_for`` is the registry's."""


def _is_event_stream(status: int, headers: Mapping[str, str]) -> bool:
    media_type = headers.get("content-type", "").partition(";")[0].strip(" \t").lower()
    return 200 <= status < 300 and media_type in SSE_FRAMING.media_types


@final
class Judging:
    """What one transport's strict check found: its problems, and which streams it judged.

    ``judges`` is the check (`StreamJudges`; ``None``: nothing is judged,
    nor counted). Without ``strict`` (a cassette that says ``strict:
    false``) nothing is judged either, and every 2xx event stream is kept
    in `unchecked`. `judge` gives the judge of one call's body; a refusal is
    kept with `refused`. Safe to share between threads. Raises
    ``TypeError`` when ``judges`` is neither a callable nor ``None``.
    """

    def __init__(self, judges: StreamJudges | None, *, strict: bool = True) -> None:
        if judges is not None and not callable(judges):
            raise TypeError("check must be a callable or None")
        self._judges = judges
        self._strict = strict
        self._lock = threading.Lock()
        self._problems: list[VendorError] = []
        self._of_call: dict[int, VendorError] = {}
        self._judged: list[int] = []
        self._unchecked: list[tuple[int, str]] = []

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every refusal and strict-check problem so far, in order."""
        with self._lock:
            return tuple(self._problems)

    @property
    def judged(self) -> tuple[int, ...]:
        """The index of each call whose stream was judged, in order."""
        with self._lock:
            return tuple(self._judged)

    @property
    def unchecked(self) -> tuple[tuple[int, str], ...]:
        """The index and path of each call whose 2xx event stream no wire judged, in order."""
        with self._lock:
            return tuple(self._unchecked)

    def problem_of(self, index: int) -> VendorError | None:
        """The problem found in the stream of call ``index``, ``None`` while it has none."""
        with self._lock:
            return self._of_call.get(index)

    def judge(
        self, index: int, request: RecordedRequest, status: int, headers: Mapping[str, str]
    ) -> BodyJudge | None:
        """The judge of call ``index``'s body, its problems kept here named by the call.

        ``request`` is the call's, as the cassette holds it. ``None`` when
        nothing judges it: no check, not strict, or no judge for this call
        (a 2xx event stream is then kept in `unchecked`).
        """
        if self._judges is None:
            return None
        judge = self._judges(request, status, headers) if self._strict else None
        with self._lock:
            if judge is None:
                if _is_event_stream(status, headers):
                    self._unchecked.append((index, request.path))
                return None
            self._judged.append(index)
        return _CallJudge(judge, index, self._found)

    def refused(self, problem: VendorError) -> None:
        """Keep ``problem``, a request the transport refused."""
        with self._lock:
            self._problems.append(problem)

    def _found(self, problem: VendorError, index: int) -> None:
        with self._lock:
            self._problems.append(problem)
            self._of_call.setdefault(index, problem)


@final
class _CallJudge:
    """A judge of one call's body whose first problem names the call, and is kept once."""

    __slots__ = ("_index", "_judge", "_keep", "_problem")

    def __init__(
        self, judge: BodyJudge, index: int, keep: Callable[[VendorError, int], None]
    ) -> None:
        self._judge = judge
        self._index = index
        self._keep = keep
        self._problem: VendorError | None = None

    @property
    def finished(self) -> bool:
        return self._judge.finished

    def feed_bytes(self, chunk: bytes) -> VendorError | None:
        if self._problem is not None:
            return self._problem
        return self._named(self._judge.feed_bytes(chunk))

    def close(self) -> VendorError | None:
        if self._problem is not None:
            return self._problem
        return self._named(self._judge.close())

    def _named(self, problem: VendorError | None) -> VendorError | None:
        if problem is None:
            return None
        self._problem = located(problem, self._index)
        self._keep(self._problem, self._index)
        return self._problem
