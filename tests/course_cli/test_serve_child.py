"""``course serve`` as a process: how it starts (imports first) and how a signal stops it."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from course_cassettes import Cassette, write_cassette
from tests.course_cli.serving import SECONDS, SERVE, SIGINT_IGNORED, serving
from tests.course_cli.test_cassettes import write_wire_cassettes

# Runs `course serve` in-process and says which modules were imported while
# an event loop ran: each such import holds up the loop (a slow callback).
IMPORT_PROBE = """\
import asyncio, sys

class ImportsWhileALoopRuns:
    names = []

    def find_spec(self, name, path=None, target=None):
        if asyncio.events._get_running_loop() is not None:
            self.names.append(name)
        return None

sys.meta_path.insert(0, ImportsWhileALoopRuns())
from course_cli import main
status = main(["serve", *sys.argv[1:]])
print("imported while the event loop ran:", ImportsWhileALoopRuns.names, file=sys.stderr)
sys.exit(status)
"""


def _base_url(first_line: str) -> str:
    assert first_line.startswith("course serve: http://127.0.0.1:"), first_line
    return first_line.split()[2]


def _port(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1])


def _keep_alive_exchange(port: int, path: str, body: bytes) -> tuple[socket.socket, bytes]:
    """One HTTP/1.1 request on a connection left open; the connection and the response's head."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=SECONDS)
    connection.sendall(
        f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n\r\n".encode()
        + body
    )
    received = b""
    while not received.endswith(b"\r\n0\r\n\r\n"):
        data = connection.recv(65536)
        assert data, "the server closed the connection before the response ended"
        received += data
    return connection, received.partition(b"\r\n")[0]


def test_serve_imports_nothing_once_its_event_loop_runs(tmp_path: Path) -> None:
    write_wire_cassettes(tmp_path)

    with serving(str(tmp_path), command=(sys.executable, "-c", IMPORT_PROBE)) as child:
        port = _port(_base_url(child.line()))
        connection, status = _keep_alive_exchange(port, "/v1/nothing", b"{}")
        connection.close()
        child.process.send_signal(signal.SIGINT)
        _, err = child.finish()

    assert status == b"HTTP/1.1 404 Not Found"
    assert err.splitlines()[-1] == "imported while the event loop ran: []"


@pytest.mark.parametrize("command", [SERVE, SIGINT_IGNORED], ids=["plain", "sigint-ignored"])
def test_sigterm_stops_the_server_closing_its_connections_with_status_143(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    recorded = tmp_path / "empty.json"
    write_cassette(recorded, Cassette())

    with serving(str(recorded), command=command) as child:
        port = _port(_base_url(child.line()))
        connection, status = _keep_alive_exchange(port, "/v1/messages", json.dumps({}).encode())
        with connection:
            child.process.send_signal(signal.SIGTERM)
            out, err = child.finish()
            closed = connection.recv(1)

    assert status == b"HTTP/1.1 404 Not Found"
    assert closed == b"", "the idle keep-alive connection was closed by the server"
    assert child.process.returncode == 143
    assert out == ""
    assert err.splitlines() == [
        "POST /v1/messages: HTTP_REQUEST_MISMATCH: no cassette records POST /v1/messages",
        "course serve: terminated",
    ]


def test_a_named_pipe_among_the_cassettes_is_refused_at_once_never_waited_on(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cassettes"
    folder.mkdir()
    write_cassette(folder / "a.json", Cassette())
    pipe = folder / "b.json"
    os.mkfifo(pipe)  # no writer: reading it would wait forever
    ends = []
    for target in (folder, pipe):
        with serving(str(target)) as child:
            ends.append((*child.finish(), child.process.returncode))

    refused = (
        f"course serve: error: {pipe}: cannot be read: is not a regular file (a named pipe) "
        "(see 'course serve --help')\n"
    )
    assert ends == [("", refused, 2), ("", refused, 2)]
