"""A recorded or passing body judged by its wire's grammar alone: the strict check of a stream.

What ``course check`` does to each call of a cassette, and what the cassette
transports do to each stream they record or replay (`stream_judge_for`, their
``StreamJudges``): a 2xx response whose media type is its wire's framing, to a
call a wire claims (`call_wire`: the wire the cassette records with the
call, else the one its host and path say), is cut into frames by that framing and
judged by that wire's `WireGrammar` as its bytes pass. No event loop,
thread, client or model is involved, so the check costs about what framing
the body and decoding its JSON cost, and it judges what the vendor
documents, not what the course port carries.

Over 300 lines on purpose: the judge and the three ways it is given (a body
as it passes, a whole body, a recorded call) are one mechanism, and apart
each would be half of the rule of what is judged.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any, Final, final

from returns.result import Failure, Result, Success

from course_http import (
    BodyJudge,
    EventDecoder,
    RecordedRequest,
    RecordedResponse,
    VendorError,
    VendorErrorCode,
)
from course_vendor._call_wire import call_wire
from course_vendor._grammar import WireGrammar
from course_vendor._vendor_plugin import VendorPlugin

__all__ = [
    "StreamJudge",
    "judge_body",
    "recorded_stream_problem",
    "stream_judge_for",
    "streamed_wire",
]

_DECODED_ENCODINGS: Final = {"": None, "identity": None, "gzip": 16 + 15, "deflate": 32 + 15}
"""Each content coding a judge reads, and its ``zlib`` window bits (deflate: zlib or gzip)."""


def _media_type(headers: Mapping[str, str]) -> str:
    return headers.get("content-type", "").partition(";")[0].strip().lower()


def _content_encoding(headers: Mapping[str, str]) -> str:
    return headers.get("content-encoding", "").strip().lower()


def streamed_wire(
    call: RecordedRequest | str, response: RecordedResponse, *, wire: str | None = None
) -> VendorPlugin | None:
    """The wire whose grammar judges ``response`` to the recorded request ``call``, or ``None``.

    ``call`` is the recorded request (its path, and the host and wire the
    cassette keeps), or its path alone (a cassette of format 1, a recorded
    body). ``None`` unless the response is a 2xx in one of the media types
    of the wire's framing (``text/event-stream`` for most), in a content
    coding a judge reads (none, ``gzip``, ``deflate``), and a wire claims
    the call (`call_wire`): an error status, a JSON body, a call no wire
    streams is what was recorded, not a stream to judge. A plug-in that
    cannot be used is passed over when the path decides. Raises
    `VendorError` as `call_wire` does.
    """
    return _judged_wire(call, response.status, response.headers, wire)


def _judged_wire(
    call: RecordedRequest | str, status: int, headers: Mapping[str, str], wire: str | None
) -> VendorPlugin | None:
    if not 200 <= status < 300:
        return None
    if _content_encoding(headers) not in _DECODED_ENCODINGS:
        return None
    plugin = call_wire(call, wire=wire)
    if plugin is None:
        return None
    if _media_type(headers) not in plugin.wire.framing.media_types:
        return None
    return plugin


@final
class StreamJudge:
    """One body judged by one wire's grammar as its bytes pass, with no event loop.

    ``plugin`` names the wire (its framing and its grammar);
    ``content_encoding`` the body's content coding (``""``, ``identity``,
    ``gzip`` or ``deflate``). `feed_bytes` judges the frames each chunk
    completes and `close` the end of the body; both return the first
    problem found so far, or ``None``: a judge never raises for what the
    body holds. Raises ``ValueError`` for a content coding it cannot read.
    """

    __slots__ = ("_decoder", "_frames", "_grammar", "_inflater", "_problem", "_result", "_wire")

    def __init__(self, plugin: VendorPlugin, *, content_encoding: str = "") -> None:
        coding = content_encoding.strip().lower()
        if coding not in _DECODED_ENCODINGS:
            raise ValueError(f"a judge cannot read a body in content coding {coding!r}")
        window = _DECODED_ENCODINGS[coding]
        self._inflater = None if window is None else zlib.decompressobj(window)
        self._wire = plugin.name
        self._grammar: WireGrammar[Any] = plugin.grammar()
        self._decoder: EventDecoder = plugin.wire.framing.decoder(plugin.name)
        self._frames = 0
        self._problem: VendorError | None = None
        self._result: object = None

    @property
    def frame_count(self) -> int:
        """The number of frames judged so far."""
        return self._frames

    @property
    def finished(self) -> bool:
        """Whether the wire's terminal event was judged."""
        return self._grammar.finished

    @property
    def problem(self) -> VendorError | None:
        """The first problem found so far, or ``None``."""
        return self._problem

    @property
    def result(self) -> object:
        """The grammar's result once `close` found no problem; ``None`` before."""
        return self._result

    def feed_bytes(self, chunk: bytes) -> VendorError | None:
        """Judge every frame ``chunk`` completes; the first problem so far, or ``None``.

        After a problem, the chunk is not read: the body is already judged.
        """
        if self._problem is not None:
            return self._problem
        try:
            data = chunk if self._inflater is None else self._inflater.decompress(chunk)
        except zlib.error as error:
            return self._refuse(f"the body is not valid in its content coding ({error})")
        return self._judge(self._decoder.feed_bytes, data)

    def close(self) -> VendorError | None:
        """Judge the end of the body: the first problem of the whole body, or ``None``."""
        if self._problem is not None:
            return self._problem
        if self._inflater is not None:
            try:
                rest = self._inflater.flush()
            except zlib.error as error:
                return self._refuse(f"the body is not valid in its content coding ({error})")
            if not self._inflater.eof:
                return self._refuse("the body ends inside its content coding")
            if self._judge(self._decoder.feed_bytes, rest) is not None:
                return self._problem
        if self._judge(lambda _: self._decoder.close(), b"") is not None:
            return self._problem
        try:
            self._result = self._grammar.end(self._frames)
        except VendorError as error:
            self._problem = error
        return self._problem

    def _judge(self, frames_of: Any, data: bytes) -> VendorError | None:
        try:
            for frame in frames_of(data):
                self._grammar.feed(frame, self._frames)
                self._frames += 1
        except VendorError as error:
            self._problem = error
        return self._problem

    def _refuse(self, message: str) -> VendorError:
        self._problem = VendorError(
            VendorErrorCode.VENDOR_INVALID_EVENT,
            f"event {self._frames}: {message}",
            vendor=self._wire,
            event_index=self._frames,
        )
        return self._problem


def judge_body(
    plugin: VendorPlugin, body: bytes, *, content_encoding: str = ""
) -> Result[Any, VendorError]:
    """``body``, a whole streamed body of ``plugin``'s wire, judged by its grammar.

    ``Success`` holds the grammar's result; ``Failure`` the `VendorError` of
    the first frame off the grammar (or ``VENDOR_MISSING_TERMINAL`` when the
    body ends before its terminal event). Raises ``ValueError`` as
    `StreamJudge` does.
    """
    judge = StreamJudge(plugin, content_encoding=content_encoding)
    problem = judge.feed_bytes(body) or judge.close()
    return Success(judge.result) if problem is None else Failure(problem)


def stream_judge_for(
    call: RecordedRequest | str,
    status: int,
    headers: Mapping[str, str],
    *,
    wire: str | None = None,
) -> BodyJudge | None:
    """The judge of a response body to the recorded request ``call``, or ``None`` when no wire
    judges it.

    A ``course_cassettes.StreamJudges``: ``call`` is the request as the
    cassette holds it (or its path alone), ``status`` and ``headers``
    (lower-case names) are the response's; ``wire`` is the wire asked for
    (`call_wire`; ``functools.partial`` makes a check of it). ``None`` unless
    a wire judges it (`streamed_wire`'s rule). The judge is the wire's
    `StreamJudge`, whose problems say the wire (``judged on
    anthropic-messages: event 3: ...``); a call no one wire may judge (two
    claim it alike, it records a wire that cannot be used or another than
    ``wire``) gets a judge that refuses it with that `VendorError`.
    """
    try:
        plugin = _judged_wire(call, status, headers, wire)
    except VendorError as conflict:
        return _Refused(conflict)
    if plugin is None:
        return None
    judge = StreamJudge(plugin, content_encoding=_content_encoding(headers))
    return _WireJudge(judge, plugin.name)


@final
class _WireJudge:
    """A `StreamJudge` whose problem says the wire that judged it, the same object each time."""

    __slots__ = ("_judge", "_problem", "_wire")

    def __init__(self, judge: StreamJudge, wire: str) -> None:
        self._judge = judge
        self._wire = wire
        self._problem: VendorError | None = None

    @property
    def finished(self) -> bool:
        return self._judge.finished

    def feed_bytes(self, chunk: bytes) -> VendorError | None:
        return self._said(self._judge.feed_bytes(chunk))

    def close(self) -> VendorError | None:
        return self._said(self._judge.close())

    def _said(self, problem: VendorError | None) -> VendorError | None:
        if problem is not None and self._problem is None:
            self._problem = problem.with_message(f"judged on {self._wire}: {problem.message}")
        return self._problem


@final
class _Refused:
    """The judge of a body no one wire may judge: it refuses it, whatever it holds."""

    __slots__ = ("_problem",)

    def __init__(self, problem: VendorError) -> None:
        self._problem = problem

    @property
    def finished(self) -> bool:
        return False

    def feed_bytes(self, chunk: bytes) -> VendorError | None:
        return self._problem

    def close(self) -> VendorError | None:
        return self._problem


def recorded_stream_problem(
    call: RecordedRequest | str, response: RecordedResponse, *, wire: str | None = None
) -> VendorError | None:
    """The problem the grammar of ``call``'s wire finds in the recorded ``response``, or ``None``.

    A ``course_cassettes.StreamCheck``: ``call`` is the recorded request
    (or its path alone), ``wire`` the wire asked for (`call_wire`); the
    recorded body is fed to the judge `stream_judge_for` gives, as a replay
    feeds it. ``None`` when no wire judges it. A response recorded cut
    short (``end`` not ``"complete"``) is judged only up to its cut: its
    missing end is how it was recorded, not a problem. When no one wire may
    judge it (two claim it alike: ``VENDOR_WIRE_CONFLICT``; it records a
    wire not installed: ``VENDOR_UNKNOWN_WIRE``; another wire than ``wire``:
    ``VENDOR_WIRE_MISMATCH``), that is the problem: the stream is not
    judged by a wire picked by name. Never raises for what the body holds,
    nor for a plug-in of another wire that cannot be used.
    """
    try:
        plugin = streamed_wire(call, response, wire=wire)
    except VendorError as conflict:
        return conflict
    if plugin is None:
        return None
    # A call recorded as cut short ends where it was cut: the frame the cut
    # tore and the terminal that never came are how it was recorded, and
    # only a whole frame the grammar refuses before the cut is a problem.
    judge = _WireJudge(
        StreamJudge(plugin, content_encoding=_content_encoding(response.headers)), plugin.name
    )
    problem = judge.feed_bytes(response.body)
    if problem is None and response.end == "complete":
        problem = judge.close()
    return problem
