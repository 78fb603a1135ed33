"""`CourseCassette`: one test's cassette, and the transport (or model) bound to it.

Over 300 lines on purpose: the cassette's lifetime in one test (open, play or
record, close, keep or drop, what it did) is one piece of state.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar, final

import pytest

from course_cassettes import (
    Cassette,
    CassetteTransport,
    Httpx2CassetteTransport,
    Httpx2RecordingTransport,
    RecordingTransport,
)
from course_http import HttpTransport, Timeouts, VendorError
from course_pytest._clients import (
    AsyncClient,
    AsyncTransport,
    SyncClient,
    SyncTransport,
    async_client,
    sync_client,
)
from course_pytest._modes import Plan, RecordMode, plan_for
from course_pytest._opening import Opening
from course_pytest._options import CassetteOptions
from course_pytest._scratch import keep_recording, scratch_path
from course_pytest._summary import CassetteUse, cassette_use
from course_pytest._teardown import fail_unless_consumed
from course_vendor import prompt_cache_moves

__all__ = ["CourseCassette"]

M = TypeVar("M")


class _Configuration(Protocol):
    """An adapter configuration: it says where the vendor's API is."""

    @property
    def base_url(self) -> str: ...


@final
class CourseCassette:
    """The cassette of one test, as the ``course_cassette`` fixture hands it out.

    `transport` is an ``HttpTransport`` bound to the cassette at `path`,
    made on first use and the same one after: a ``CassetteTransport``
    replaying it, or a ``RecordingTransport`` writing it, as the record mode
    and the file's existence say (`plan`). `model` builds a vendor model
    over it. At teardown the transport is closed; a recording becomes the
    cassette only when the test passed (until then it is written beside it,
    as ``.<name>.json.<process>-<random>.recording``), so a failed recording (a wrong key's
    401, a bug) never replaces a cassette nor leaves one to replay. When
    the test passed and replayed, every recorded call must have been played
    (``assert_consumed``), unless the test is marked ``course_allow_unplayed``.

    ``how_to_record`` is what a test whose cassette is missing is told;
    ``how_to_replace`` what it is told when the cassette cannot be used
    (``how_to_record`` when not given); ``how_to_extend`` (one line) what
    ends the ``HTTP_RECORDING_EXHAUSTED`` message of a replay asked for
    more calls than recorded.
    """

    def __init__(
        self,
        path: Path,
        mode: RecordMode,
        options: CassetteOptions,
        how_to_record: str,
        *,
        how_to_replace: str | None = None,
        how_to_extend: str = "",
    ) -> None:
        self._opening = Opening(
            path=path,
            # Beside the cassette until the test passed: a failed recording never replaces it.
            recording_path=scratch_path(path),
            mode=mode,
            plan=plan_for(mode, path.exists(), replay_only=bool(options.faults)),
            options=options,
            how_to_record=how_to_record,
            how_to_replace=how_to_record if how_to_replace is None else how_to_replace,
            how_to_extend=how_to_extend,
        )
        self._transport: CassetteTransport | RecordingTransport | None = None
        self._base_url: str | None = None
        self._httpx: Httpx2CassetteTransport | Httpx2RecordingTransport | None = None
        self._sync_clients: list[SyncClient] = []
        self._async_clients: list[AsyncClient] = []

    @property
    def path(self) -> Path:
        """Where the cassette file is: ``<test folder>/cassettes/<test module>/<name>.json``."""
        return self._opening.path

    @property
    def mode(self) -> RecordMode:
        """The run's record mode."""
        return self._opening.mode

    @property
    def plan(self) -> Plan:
        """What this test does: ``"replay"``, ``"record"``, ``"extend"`` or ``"missing"``."""
        return self._opening.plan

    @property
    def problems(self) -> tuple[VendorError, ...]:
        """Every refusal and strict-check failure of this test's httpx2 transport so far.

        An SDK may turn a refusal into an error of its own (a ``400``'s
        ``BadRequestError``); this is where the course error still is. A course
        transport raises its errors itself: ``()`` for it."""
        return () if self._httpx is None else self._httpx.problems

    def use(self) -> CassetteUse | None:
        """What this test did with its cassette, for the run's summary; ``None`` when unused.

        As its httpx2 transport (`exchange`) counted it: the calls it
        replayed (an extension: the earlier calls it served) and recorded,
        the streams it judged and those it could not.
        """
        exchange = self.exchange
        if exchange is None:
            return None
        return cassette_use(
            str(self.path),
            self.mode.value,
            exchange,
            prompt_cache=self._opening.options.prompt_cache,
            prompt_cache_exempt=self._opening.options.prompt_cache_exempt,
        )

    @property
    def exchange(self) -> Httpx2CassetteTransport | Httpx2RecordingTransport | None:
        """The httpx2 transport under the cassette (`httpx_transport`'s or `transport`'s); ``None``
        before either is made. Its ``replayed``, ``recorded``, ``judged`` and ``unchecked``."""
        return self._httpx or (None if self._transport is None else self._transport.exchange)

    @property
    def recording(self) -> bool:
        """Whether calls of this test may reach the network (it records, or extends)."""
        return self.plan in ("record", "extend")

    def transport(self, base_url: str, *, timeouts: Timeouts | None = None) -> HttpTransport:
        """The transport of this test, bound to its cassette (made once, then the same one).

        ``base_url`` is where the real API is: calls go there when
        recording, and a replay is built on it too, so that it sends the
        very path (any prefix of the base URL's included) that was recorded.
        Fails the test (with how to record it) when the cassette must be
        replayed and does not exist, or cannot be used; raises
        ``ValueError`` when asked again for another ``base_url``.
        """
        if self._httpx is not None:
            raise ValueError(_ONE_WAY)
        if self._transport is not None:
            if base_url != self._base_url:
                raise ValueError(
                    f"this test's transport is for {self._base_url}, not {base_url}: "
                    "one cassette, one API"
                )
            return self._transport
        self._base_url = base_url
        self._transport = self._opening.transport(base_url, timeouts)
        return self._transport

    def httpx_transport(
        self, *, inner: SyncTransport | AsyncTransport | None = None
    ) -> Httpx2CassetteTransport | Httpx2RecordingTransport:
        """This test's httpx2 transport over its cassette, sync and async (made once).

        For any client built on httpx2, the official SDKs above all:
        ``anthropic.Anthropic(http_client=httpx2.Client(transport=...))``. An
        ``Httpx2CassetteTransport`` replaying the cassette, or an
        ``Httpx2RecordingTransport`` writing it through ``inner`` (the
        network by default; another transport, such as an
        ``httpx2.MockTransport``, may stand in), as the record mode and the
        file say. Each recorded stream is checked by its vendor's strict
        parser, unless the marker says ``strict=False``. Fails the test as
        `transport` does when the cassette is missing or unusable; raises
        ``ValueError`` when the test already uses `transport` (one
        cassette, one way to play it).
        """
        if self._transport is not None:
            raise ValueError(_ONE_WAY)
        if self._httpx is None:
            self._httpx = self._opening.httpx_transport(inner)
        return self._httpx

    def client(self, **options: object) -> SyncClient:
        """An ``httpx2.Client`` over `httpx_transport`, closed at teardown.

        ``options`` are the client's own (``timeout=``); pass it to an SDK
        as ``http_client=``.
        """
        client = sync_client(self.httpx_transport(), options)
        self._sync_clients.append(client)
        return client

    def async_client(self, **options: object) -> AsyncClient:
        """An ``httpx2.AsyncClient`` over `httpx_transport`, closed at teardown."""
        client = async_client(self.httpx_transport(), options)
        self._async_clients.append(client)
        return client

    def model(self, model_class: Callable[..., M], config: _Configuration, **options: object) -> M:
        """``model_class(config, transport=..., **options)`` over this test's transport.

        For any vendor model built as ``Model(config, *, transport=...)``
        (``AnthropicMessagesModel``, ``OpenAIChatModel``,
        ``OpenAIResponsesModel``, ``GeminiModel``, or a vendor package's
        own); the transport is made for
        ``config.base_url``. A recording needs the vendor's key, from
        ``api_key=`` or the vendor's environment variable; a replay needs none.
        """
        return model_class(config, transport=self.transport(config.base_url), **options)

    async def _close_httpx(
        self, transport: Httpx2CassetteTransport | Httpx2RecordingTransport
    ) -> tuple[VendorError, ...]:
        try:
            for client in self._sync_clients:
                client.close()
            for async_client_made in self._async_clients:
                await async_client_made.aclose()
        finally:
            # Either kind of client may have used it: both ways are closed.
            try:
                transport.close()
            finally:
                await transport.aclose()
        return transport.problems

    async def close(self, *, check_consumed: bool, passed: bool = True) -> None:
        """Close the transport; then keep a recording, or check that every recorded call was played.

        A recording replaces the cassette at `path` only when ``passed`` (the
        test passed); otherwise it is deleted and the cassette is left as it
        was. With ``check_consumed``, a replay fails the test
        (``pytest.fail``, a short message naming the first unplayed call)
        when recorded calls were never played. When ``passed``, the test
        fails too when an ``ignore`` path of its marker points at nothing in
        any call of its cassette (replayed or recorded; a cassette of no
        calls says nothing): a misspelt path ignores nothing. When ``passed``
        and the marker says ``prompt_cache=True``, the test fails too when a
        call of its cassette (replayed or recorded) moved the request prefix
        its wire cached for an earlier call: the course error
        (``HTTP_PROMPT_CACHE_MOVED``, naming the first moved path) first.
        """
        if self._httpx is not None:
            await self._close_played(self._httpx, check_consumed=check_consumed, passed=passed)
            return
        transport = self._transport
        if transport is None:
            return
        try:
            await transport.aclose()
        finally:
            if isinstance(transport, RecordingTransport):
                self._keep_recording(passed=passed)
        if check_consumed and isinstance(transport, CassetteTransport):
            self._fail_unless_consumed(transport)
        if passed:
            self._check_ignored(transport.cassette)
            self._check_prompt_cache(transport.cassette)

    async def _close_played(
        self,
        transport: Httpx2CassetteTransport | Httpx2RecordingTransport,
        *,
        check_consumed: bool,
        passed: bool,
    ) -> None:
        problems: tuple[VendorError, ...] = ()
        try:
            problems = await self._close_httpx(transport)
        finally:
            if isinstance(transport, Httpx2RecordingTransport):
                # A refused call or a stream the parser refused: not a cassette to keep.
                self._keep_recording(passed=passed and not problems)
        if passed and problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            pytest.fail(f"{problems[0]} ({self.path}){more}", pytrace=False)
        if check_consumed and isinstance(transport, Httpx2CassetteTransport):
            self._fail_unless_consumed(transport)
        if passed:
            self._check_ignored(transport.cassette)
            self._check_prompt_cache(transport.cassette)

    def _fail_unless_consumed(self, transport: CassetteTransport | Httpx2CassetteTransport) -> None:
        fail_unless_consumed(transport.assert_consumed, str(self.path))

    def _check_ignored(self, cassette: Cassette) -> None:
        matching = self._opening.options.matching
        if matching is None or not cassette.calls:
            return
        unmatched = cassette.paths_matching_nothing(matching.ignore)
        if unmatched:
            pytest.fail(
                f"course_cassette(ignore=...): {', '.join(map(repr, unmatched))} "
                f"point(s) at nothing in any recorded call of {self.path}, so ignore "
                "nothing: is the path misspelt? (a mismatch names the path to paste)",
                pytrace=False,
            )

    def _check_prompt_cache(self, cassette: Cassette) -> None:
        if not self._opening.options.prompt_cache:
            return
        try:
            problems = [
                move.error()
                for move in prompt_cache_moves([call.request for call in cassette.calls])
            ]
        except VendorError as broken:
            problems = [broken]
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            pytest.fail(f"{problems[0]} ({self.path}){more}", pytrace=False)

    def _keep_recording(self, *, passed: bool) -> None:
        keep_recording(self._opening.recording_path, self.path, passed=passed)

    @property
    def recording_path(self) -> Path:
        """Where a recording is written until it becomes the cassette: unique to this object."""
        return self._opening.recording_path

    def __repr__(self) -> str:
        return f"CourseCassette({str(self.path)!r}, mode={self.mode.value!r}, plan={self.plan!r})"


_ONE_WAY = (
    "this test's cassette is played by one transport: transport() (a course model) "
    "or httpx_transport() (an httpx2 client, an SDK), not both"
)
