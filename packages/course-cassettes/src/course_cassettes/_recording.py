"""Recording real calls into a cassette file as they stream: `RecordingTransport`."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import final

from course_cassettes._cassette import Cassette, Redaction, RequestMatching
from course_cassettes._httpx2_recording import Httpx2RecordingTransport
from course_cassettes._judging import StreamJudges
from course_http import HttpTransport, NetworkExchange, Timeouts

__all__ = ["RecordingTransport"]


@final
class RecordingTransport(HttpTransport):
    """Sends every call to the network and writes it, redacted, to the cassette at ``path``.

    The course transport over an `Httpx2RecordingTransport` (the one
    recording transport) whose inner transport is the network
    (``course_http.NetworkExchange``: ``trust_env`` reads proxies and CA
    bundles from the environment); ``timeouts`` limit each call as a
    `LiveTransport`'s do. Calls ask for an unencoded body so the cassette
    stays readable; a body compressed anyway is decoded as it streams,
    passed on and recorded decoded (without its ``content-encoding``), so
    what it echoes is scrubbed too. Each call's response is teed as it
    streams and the file is rewritten (at once, never half) when a call ends
    and when the transport closes. A call is recorded as it was: a status
    error with its body; a body cut by a dropped connection, or whose
    encoding does not decode (``end: "interrupted"``); one that timed out
    (``end: "stalled"``); a body the client stopped reading is read to its
    end first, within bounds (as `Httpx2RecordingTransport` reads it).
    Replayed, each fails the same way again (the undecodable body as a
    dropped connection). A call that got no response at all (no connection)
    is not a vendor's answer and is not recorded.

    ``redaction`` masks request fields and paths; whatever it says, secret
    headers and headers outside the allow-list are never written and every
    credential of the request is scrubbed from what is (``keep_headers``
    adds header names to keep; a secret one is a ``ValueError``).
    ``matching`` and ``strict`` are written into the cassette for its
    replays; with ``check`` (`StreamJudges`) and ``strict`` each stream is
    judged as it is recorded. What the recording found (its problems, the
    calls it recorded, replayed and judged) is its `exchange`'s. Each call
    keeps its host and the wire of the model that made it (or ``wire``, for
    a call whose sender names none), as `Httpx2RecordingTransport` keeps them.

    With ``replay_first`` (a recorded cassette: VCR's ``new_episodes``), the
    cassette's masks stay, and ``redaction`` only adds to them (the calls
    kept are masked again the same way); calls
    are served from it while each request matches the next recorded one;
    from the first that does not, every call goes to the network, and the
    file becomes the calls played plus the new ones (once there is one).
    """

    def __init__(
        self,
        base_url: str,
        path: str | os.PathLike[str],
        *,
        redaction: Redaction | None = None,
        matching: RequestMatching | None = None,
        keep_headers: Sequence[str] = (),
        timeouts: Timeouts | None = None,
        trust_env: bool = True,
        replay_first: Cassette | None = None,
        check: StreamJudges | None = None,
        strict: bool = True,
        wire: str | None = None,
    ) -> None:
        self._recording = Httpx2RecordingTransport(
            path,
            inner=NetworkExchange(trust_env=trust_env),
            redaction=redaction,
            matching=matching,
            keep_headers=keep_headers,
            replay_first=replay_first,
            check=check,
            strict=strict,
            wire=wire,
        )
        super().__init__(base_url, timeouts=timeouts or Timeouts(), trust_env=False)

    @property
    def path(self) -> Path:
        """Where the cassette is written."""
        return self._recording.path

    @property
    def cassette(self) -> Cassette:
        """The cassette as recorded so far (a call still streaming holds what arrived)."""
        return self._recording.cassette

    @property
    def exchange(self) -> Httpx2RecordingTransport:
        """The recording transport under the client: its `problems`, what it recorded and judged."""
        return self._recording

    def _exchange(self) -> Httpx2RecordingTransport:
        return self._recording

    async def aclose(self) -> None:
        """Write the cassette (a call still streaming as it stands), then close the connections.

        Calling it again does nothing more. Raises ``OSError`` when the file
        cannot be written (the connections are closed anyway).
        """
        await super().aclose()

    def __repr__(self) -> str:
        return f"RecordingTransport(base_url={self.base_url!r}, path={str(self.path)!r})"
