"""VendorModel: the one ``CourseModel`` implementation under every real vendor adapter.

A vendor adapter is its request conversion and its stream parser; everything
between the port and the wire lives here, once: the argument check, the API
key, the transport and who closes it, the event loop a model belongs to, and
production (course_stream's `run_producer` and `forward_source` over
`stream_events`, with the vendor's parser as the `SourcePlay`).

Over 300 lines on purpose: the model's lifetime (key, transport, loop, close)
is one piece of state; splitting it would spread one invariant over modules.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import os
import weakref
from abc import abstractmethod
from collections.abc import Mapping
from functools import partial
from typing import Any, Generic, Self, TypeAlias, TypeVar

from course_http import (
    ClosedOnExit,
    HttpRequest,
    HttpTransport,
    LiveTransport,
    ScrubbedStream,
    SseEvent,
    VendorError,
    VendorErrorCode,
    request_secrets,
    stream_events,
)
from course_protocol import CourseModelChunk, CourseModelRequest, CourseModelResponse
from course_protocol.calls import check_stream_call
from course_stream import AbortSignal, EventStream, SourcePlay, forward_source, run_producer
from course_vendor._api_key import checked_api_key, environment_api_key
from course_vendor._config import VendorConfig
from course_vendor._config_errors import config_error
from course_vendor._extras import merged
from course_vendor._sendable import check_sendable
from course_vendor._vendor_wire import VendorWire

__all__ = ["VendorModel", "VendorPlay", "VendorWire"]

C = TypeVar("C", bound=VendorConfig)

VendorPlay: TypeAlias = SourcePlay[SseEvent, CourseModelChunk, CourseModelResponse]
"""A vendor's stream parser, as `forward_source` plays it: one `SseEvent` in, any
number of chunks pushed; the terminal response at the end; whatever the event
source raised (already a `VendorError`) passed through."""

_Stream = EventStream[CourseModelChunk, CourseModelResponse]


class VendorModel(ClosedOnExit, Generic[C]):
    """A ``CourseModel`` that streams one vendor API call per `stream` call.

    A subclass supplies the request body (`_body`), the headers for a key
    (`_headers`) and a fresh parser per call (`_parser`); this class does the
    rest, the same way for every vendor:

    - **Configuration** ``config`` (``C``, the vendor package's `VendorConfig`)
      belongs to the adapter, never to the request.
    - **Key**: ``api_key`` when given (checked now by `checked_api_key`:
      `VendorConfigError` ``VENDOR_INVALID_API_KEY``, the key never shown);
      otherwise the first of the wire's ``key_variables`` set in the
      environment, read at each call. A
      call without a key fails its stream with ``VENDOR_MISSING_API_KEY``,
      except over a `RecordedTransport`: a replay sends nothing anywhere, so
      it needs no key and never reads the environment (an explicit key is
      still sent, and left out of the transport's recorded requests). The
      key appears in no repr, message or log.
    - **Transport**: without ``transport``, the model creates a
      `LiveTransport` on ``config.base_url`` with ``config.timeouts``
      (`Timeouts` by default) and closes it in `aclose` (or ``async with``).
      A transport passed in is the caller's: its base URL and timeouts win,
      so a configuration with ``timeouts`` is refused with it
      (`VendorConfigError` ``VENDOR_INVALID_CONFIG``: set them on that
      transport), and `aclose` leaves it open.
    - **One event loop**: a model belongs to the loop of its first call,
      because a live transport's pooled connections do; a call from another
      loop raises ``RuntimeError``. Make one model per loop (per
      ``asyncio.run``).
    """

    __slots__ = (
        "_api_key",
        "_closed",
        "_config",
        "_loop",
        "_owns_transport",
        "_transport",
        "_wire",
    )

    def __init__(
        self,
        config: C,
        wire: VendorWire,
        *,
        api_key: str | None,
        transport: HttpTransport | None,
    ) -> None:
        """Raise `VendorConfigError` for a bad key or config timeouts with a transport.

        Raises ``TypeError`` when ``config`` is not a `VendorConfig` or
        ``transport`` not an `HttpTransport`, ``ValueError`` when
        `LiveTransport` refuses ``config.base_url``, and `VendorConfigError`
        ``VENDOR_INVALID_CONFIG`` for an option ``wire`` does not send
        (`VendorWire.check_options`).
        """
        if not isinstance(config, VendorConfig):
            raise TypeError(f"config must be a VendorConfig, not {type(config).__name__}")
        wire.check_options(config)
        self._api_key = None if api_key is None else checked_api_key(api_key)
        if transport is None:
            self._transport: HttpTransport = LiveTransport(
                config.base_url, timeouts=config.timeouts
            )
            self._owns_transport = True
        elif not isinstance(transport, HttpTransport):
            raise TypeError(
                f"transport must be an HttpTransport or None, not {type(transport).__name__}"
            )
        elif config.timeouts is not None:
            raise config_error(
                f"{type(config).__name__}.timeouts",
                "apply to the transport the model creates; set them on the transport you pass in",
            )
        else:
            self._transport = transport
            self._owns_transport = False
        self._config = config
        self._wire = wire
        self._closed = False
        self._loop: weakref.ref[asyncio.AbstractEventLoop] | None = None

    @property
    def config(self) -> C:
        """The adapter's configuration, sent with every call."""
        return self._config

    def with_config(self, **changes: Any) -> Self:
        """A model like this one whose configuration is ``dataclasses.replace(config, **changes)``.

        For a loop that changes an option between turns (a lower
        ``temperature``, ``tool_choice="none"`` on the last turn): the new
        configuration is checked again, as any is, and the new model is a
        shallow copy of this one (``copy.copy``) on it, sharing its key,
        transport and event loop and what the vendor's model was built with
        (a dialect, a token provider). A vendor model keeps nothing across
        calls (the transcript carries what a conversation needs), so the
        copy shares no state; a subclass that must decides what its copy
        shares with its own ``__copy__``. The copy never
        closes the transport: close this model once both are done. Raises
        `VendorConfigError` ``VENDOR_INVALID_CONFIG`` for a refused value or
        a change of ``base_url`` or ``timeouts`` (they belong to the shared
        transport), and ``TypeError`` for a field the configuration lacks.
        """
        for fixed in ("base_url", "timeouts"):
            if fixed in changes:
                raise config_error(
                    f"{type(self._config).__name__}.{fixed}",
                    "belongs to the transport this model shares: build a new model to change it",
                )
        config = dataclasses.replace(self._config, **changes)
        self._wire.check_options(config)
        derived = copy.copy(self)
        derived._config = config
        derived._owns_transport = False
        return derived

    @property
    def transport(self) -> HttpTransport:
        """The transport every call goes through (created by the model, or passed in)."""
        return self._transport

    @abstractmethod
    def _body(self, request: CourseModelRequest) -> Mapping[str, object]:
        """The vendor's JSON body for ``request`` under `config`.

        Called only for a request `check_sendable` accepted. Raises
        `VendorError` ``VENDOR_INVALID_REQUEST`` for a request the vendor
        cannot express.
        """

    @abstractmethod
    def _headers(self, api_key: str | None) -> Mapping[str, str]:
        """The vendor's headers for one call; ``api_key`` is ``None`` over a recorded transport."""

    def _signed(self, request: HttpRequest) -> HttpRequest:
        """``request`` as sent by a wire that signs each request (``VendorWire.signs``).

        Called for a call without a key over a transport that does not
        replay, once the request is whole; this base returns it unchanged.
        A signing wire returns it with its signature headers (the base URL
        is `transport`'s). Raises `VendorError` (``VENDOR_MISSING_API_KEY``
        when there is nothing to sign with), which fails the call's stream.
        """
        return request

    @abstractmethod
    def _parser(self, request_id: str) -> VendorPlay:
        """A fresh parser of one streamed response to the request ``request_id``."""

    def stream(self, request: CourseModelRequest, signal: AbortSignal) -> _Stream:
        """Start one vendor call for ``request``; return its stream at once.

        Raises ``TypeError`` when ``request`` is not exactly a
        ``CourseModelRequest`` or ``signal`` not an ``AbortSignal``, and
        ``RuntimeError`` when no event loop runs, the model is closed, or it
        belongs to another event loop. Then, synchronously, the request is
        put in the vendor's terms and the key found; production runs as one
        task, and the stream:

        - fails with ``signal.reason`` when the signal is already aborted
          (nothing is sent), or the moment it aborts: the HTTP response is
          closed and its connection released, whatever await was pending;
        - fails with ``VENDOR_INVALID_REQUEST`` (a transcript no vendor can
          answer, as `check_sendable` finds it, then a request this vendor
          cannot express, or a body the transport cannot send) or
          ``VENDOR_MISSING_API_KEY``, nothing sent;
        - fails with the transport's `VendorError` (an ``HTTP_*`` code, with
          the vendor's error type, code and message) before the stream, or
          with the parser's during it (a vendor's ``error`` event:
          ``VENDOR_ERROR_EVENT``); chunks delivered before a failure stay
          delivered. Whatever fails the stream, the call's credentials are
          scrubbed from the error (its message, ``str``, ``repr`` and
          ``vendor_*`` fields) before it is raised;
        - finishes with the parser's `CourseModelResponse` once the vendor's
          terminal event came and the body ended.

        Stopping iteration does not stop the call (the stream keeps the rest
        for a later consumer, as every ``CourseModel`` does); abort the
        signal to stop it.
        """
        check_stream_call(type(self).__name__, request, signal)
        self._bind_loop()
        try:
            outgoing: HttpRequest | VendorError = self._outgoing(request)
        except VendorError as error:
            outgoing = error
        # Whatever fails the call (the status, the vendor's error event, the
        # client) may echo the key: the stream scrubs every failure, once.
        secrets = (
            ()
            if isinstance(outgoing, VendorError)
            else request_secrets(outgoing.headers, outgoing.path)
        )
        stream: _Stream = ScrubbedStream(secrets)
        run_producer(stream, signal, partial(self._produce, stream, signal, request.id, outgoing))
        return stream

    async def aclose(self) -> None:
        """Close the model: later calls raise ``RuntimeError``; calling it again does nothing.

        Closes the transport the model created (its pooled connections);
        never one that was passed in. Close a model once its streams have
        settled.
        """
        self._closed = True
        if self._owns_transport:
            await self._transport.aclose()

    def __repr__(self) -> str:
        if self._api_key is not None:
            key = "given"
        elif self._transport.replays:
            key = "none (a recorded transport needs none)"
        else:
            key = f"read from {' or '.join(self._wire.key_variables)} at each call"
        return (
            f"{type(self).__name__}(config={self._config!r}, transport={self._transport!r}, "
            f"api_key: {key})"
        )

    def _bind_loop(self) -> None:
        name = type(self).__name__
        if self._closed:
            raise RuntimeError(f"{name} is closed; create a new model")
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = weakref.ref(loop)
        elif self._loop() is not loop:
            raise RuntimeError(
                f"{name} belongs to the event loop of its first call and its transport's "
                "connections do too; create one model per event loop"
            )

    def _key_for_call(self) -> str | None:
        if self._api_key is not None:
            return self._api_key
        if self._transport.replays:
            return None
        if self._wire.signs and not any(map(os.environ.get, self._wire.key_variables)):
            # No key set: the call is signed instead (_signed).
            return None
        return environment_api_key(
            self._wire.key_variables, model=type(self).__name__, vendor=self._wire.vendor
        )

    def _outgoing(self, request: CourseModelRequest) -> HttpRequest:
        check_sendable(request, self._wire.vendor, content=self._wire.content)
        vendor = self._wire.vendor
        body = merged(self._body(request), self._config.extra_body, "extra_body", vendor)
        key = self._key_for_call()
        headers = merged(self._headers(key), self._config.extra_headers, "extra_headers", vendor)
        try:
            outgoing = HttpRequest(self._wire.request_path(self._config.model), body, headers)
        except ValueError as error:
            # A body the transport refuses (JSON nested past its limit once the
            # vendor's envelope is around the Tool arguments) is one the vendor
            # cannot be sent; the message names the path, never a header value.
            raise VendorError(
                VendorErrorCode.VENDOR_INVALID_REQUEST,
                f"the request cannot be sent: {error}",
                vendor=self._wire.vendor,
            ) from None
        if key is None and self._wire.signs and not self._transport.replays:
            return self._signed(outgoing)
        return outgoing

    async def _produce(
        self,
        stream: _Stream,
        signal: AbortSignal,
        request_id: str,
        outgoing: HttpRequest | VendorError,
    ) -> None:
        if isinstance(outgoing, VendorError):
            stream.fail(outgoing)
            return
        events = stream_events(
            self._transport,
            outgoing,
            vendor=self._wire.vendor,
            describe_error=self._wire.describe_error,
            framing=self._wire.framing,
            # A recording keeps the wire with the call: its path alone may be several wires'.
            wire=self._wire.vendor,
        )
        await forward_source(stream, signal, events, self._parser(request_id))
