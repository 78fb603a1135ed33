"""What a loopback server serves: each response and how it is cut, and what it saw."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Literal, final

from course_http._recorded import RecordedResponse
from course_http._secrets import REDACTED, SECRET_HEADERS, masked_path
from course_protocol.slots import slot_setter

__all__ = [
    "LoopbackEnd",
    "LoopbackRequest",
    "LoopbackResponse",
    "LoopbackStream",
    "Responder",
    "in_order",
]


@final
@dataclass(frozen=True, slots=True, init=False)
class LoopbackResponse:
    """One response to serve: the `RecordedResponse` to send, cut into chunks, paced.

    ``chunking`` is ``"whole"`` (one write), ``"bytes"`` (one write per
    byte) or the offsets where the body is cut (strictly increasing, inside
    the body). ``delay`` is the pause, in seconds, before every chunk but the
    first; ``first_delay`` the pause after the status and headers, before the
    first chunk. The response's ``end`` plays out on the socket: ``"interrupted"``
    closes the connection after the body, ``"stalled"`` keeps it open and
    silent until the client leaves or the server stops. Chunk boundaries are
    where the server writes; the client may read several chunks at once.

    Raises ``TypeError`` or ``ValueError`` for a field of the wrong type or value.
    """

    response: RecordedResponse
    chunking: Literal["whole", "bytes"] | tuple[int, ...]
    delay: float
    first_delay: float

    def __init__(
        self,
        response: RecordedResponse,
        *,
        chunking: Literal["whole", "bytes"] | Sequence[int] = "whole",
        delay: float = 0.0,
        first_delay: float = 0.0,
    ) -> None:
        if type(response) is not RecordedResponse:
            raise TypeError("response must be a RecordedResponse")
        for name, seconds in (("delay", delay), ("first_delay", first_delay)):
            if type(seconds) not in (int, float) or not 0 <= seconds < float("inf"):
                raise ValueError(f"{name} must be a finite number of seconds, 0 or more")
        _set_response(self, response)
        _set_chunking(self, _checked_chunking(chunking, len(response.body)))
        _set_delay(self, float(delay))
        _set_first_delay(self, float(first_delay))

    def chunks(self) -> list[bytes]:
        """The body cut as ``chunking`` says (no chunk for an empty body)."""
        body = self.response.body
        if not body:
            return []
        if self.chunking == "whole":
            return [body]
        if self.chunking == "bytes":
            return [body[at : at + 1] for at in range(len(body))]
        edges = (0, *self.chunking, len(body))
        return [body[start:stop] for start, stop in itertools.pairwise(edges)]


_set_response = slot_setter(LoopbackResponse, "response")
_set_chunking = slot_setter(LoopbackResponse, "chunking")
_set_delay = slot_setter(LoopbackResponse, "delay")
_set_first_delay = slot_setter(LoopbackResponse, "first_delay")


def _checked_chunking(chunking: object, length: int) -> Literal["whole", "bytes"] | tuple[int, ...]:
    if chunking == "whole":
        return "whole"
    if chunking == "bytes":
        return "bytes"
    if not isinstance(chunking, (list, tuple)):
        raise TypeError('chunking must be "whole", "bytes" or a list of cut offsets')
    cuts = tuple(chunking)
    if any(type(cut) is not int for cut in cuts):
        raise TypeError("cut offsets must be ints")
    if any(not 0 < cut < length for cut in cuts) or list(cuts) != sorted(set(cuts)):
        raise ValueError("cut offsets must increase strictly and fall inside the body")
    return cuts


@final
@dataclass(frozen=True, slots=True, repr=False)
class LoopbackRequest:
    """A request as the loopback server received it.

    ``path`` includes the query string; ``headers`` are the received pairs in
    order, names lower-cased; ``body`` is the raw body. Secret header values
    and key query parameters are kept (so a test can check the key was sent)
    but never shown in the repr.
    """

    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), or ``None``."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key == wanted), None)

    def json(self) -> object:
        """The body parsed as JSON; raises ``ValueError`` when it is not JSON."""
        return json.loads(self.body)

    def __repr__(self) -> str:
        shown = tuple(
            (name, REDACTED if name in SECRET_HEADERS else value) for name, value in self.headers
        )
        return (
            f"LoopbackRequest(method={self.method!r}, path={masked_path(self.path)!r}, "
            f"headers={shown!r}, "
            f"body=<{len(self.body)} bytes>)"
        )


@unique
class LoopbackEnd(StrEnum):
    """How one exchange of a loopback server ended."""

    COMPLETE = "complete"
    """The whole response was sent."""

    INTERRUPTED = "interrupted"
    """The server closed the connection on purpose (an ``"interrupted"`` response)."""

    CLIENT_DISCONNECTED = "client_disconnected"
    """The client went away before the response was complete."""

    SERVER_STOPPED = "server_stopped"
    """The server stopped while the response was stalled or paused."""


@final
@dataclass(frozen=True, slots=True)
class LoopbackStream:
    """A response that arrives while it is served, relayed as it comes (a proxy's answer).

    ``opened`` is awaited once the request has arrived, and gives the status,
    the headers and the body's chunks; each chunk is written as soon as it
    comes. When the chunks raise, the exchange ends with the connection
    closed mid-body (`LoopbackEnd.INTERRUPTED`), as the upstream's did.
    """

    opened: Callable[[], Awaitable[tuple[int, Mapping[str, str], AsyncIterator[bytes]]]]


Responder = Callable[
    [LoopbackRequest], "LoopbackResponse | LoopbackStream | RecordedResponse | None"
]
"""What to serve for a request; ``None``: nothing (the server answers 500 and says so)."""


def in_order(responses: Sequence[LoopbackResponse | RecordedResponse]) -> Responder:
    """A `Responder` serving ``responses`` one per request, in order, then nothing.

    Raises ``TypeError`` when ``responses`` is not a list or tuple of them.
    """
    if not isinstance(responses, (list, tuple)):
        raise TypeError(f"responses must be a list or tuple, not {type(responses).__name__}")
    for index, response in enumerate(responses):
        if type(response) not in (LoopbackResponse, RecordedResponse):
            raise TypeError(f"responses[{index}] must be a LoopbackResponse or RecordedResponse")
    queue = list(responses)
    queue.reverse()

    def respond(
        request: LoopbackRequest,
    ) -> LoopbackResponse | LoopbackStream | RecordedResponse | None:
        del request
        return queue.pop() if queue else None

    return respond
