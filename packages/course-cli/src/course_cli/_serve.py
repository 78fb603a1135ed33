"""``course serve``: cassettes answered over real HTTP on 127.0.0.1, for any client or SDK.

The server is ``course_http.loopback``'s, answering through a
``CassetteResponder``: the recorded bytes, with request matching, so an SDK
pointed at the base URL printed for it replays recorded traffic with no code
change.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from course_cli._cassettes import cassettes_under
from course_cli._listening import flush, listen_until_stopped
from course_cli._output import format_command_problem, one_line, writer_for
from course_cli._sdks import SdkBaseUrl, sdk_banner_lines, sdk_base_urls
from course_cli._wires import registry_problem_lines

if TYPE_CHECKING:
    from course_cassettes import Cassette
    from course_cassettes.responder import ServedCall
    from course_http import Chunking

__all__ = ["SERVE_EPILOG", "add_serve_arguments", "run_serve"]

SERVE_EPILOG = """\
example:
  $ course serve tests/cassettes --port 8787
  course serve: http://127.0.0.1:8787 answers 3 calls from 2 cassettes (Ctrl-C or SIGTERM stops it)
    anthropic: http://127.0.0.1:8787 (ANTHROPIC_BASE_URL)
    openai: http://127.0.0.1:8787/v1 (OPENAI_BASE_URL)
  POST /v1/messages: test_agent/answers.json calls[0]: 200
  POST /v1/messages: HTTP_REQUEST_MISMATCH: test_agent/answers.json calls[1]: ...

Point each SDK at the base URL printed for it, as is (base_url=..., or the
variable named). There is one line per SDK whose endpoints the cassettes
record, spelled as that SDK spells a base URL: the OpenAI SDK's ends with
the /v1 of the recorded /v1/chat/completions (with /openai/v1 for a call
recorded under such a compatible vendor's base URL). Any other client takes
the first URL and the recorded paths.

Each request goes to the next unplayed call of a cassette that recorded the
same method and path, and is compared with it as a replay compares it: when
it matches, the recorded status, headers and body are sent byte for byte;
when it differs, it is refused and the call counts as played, as in a test's
replay. Each served stream is judged by its wire's grammar as it is sent
(unless its cassette says strict: false): an event the grammar refuses is
not sent, the connection is closed there, and a line on stderr names the
grammar's code ('POST /v1/messages: VENDOR_EVENT_ORDER: test_agent/answers.json
calls[0].response.body: ...'). Any other request is refused with a JSON
error naming a course code and the problem, with x-should-retry: false (so
the SDKs do not retry it):
  HTTP_REQUEST_MISMATCH     400: it differs from the next recorded call of
                            its method and path (the first difference); 404:
                            no cassette records its method and path
  HTTP_RECORDING_EXHAUSTED  400: every recorded call of its method and path
                            has been served
  HTTP_SERVER_ERROR         500: course serve itself failed to answer it
Each recorded call is served once: restart the server to replay again. One
line per request on stdout (refusals on stderr, with their code). An
installed vendor plug-in that cannot be loaded, and a recorded path two
installed wires claim alike, are each one line on stderr before the banner
('course serve: VENDOR_PLUGIN_BROKEN: ...', 'VENDOR_WIRE_CONFLICT'); the
server answers all the same.

Each call is judged by the wire its cassette records with it (format 2),
else by the wire its recorded host belongs to, else by its path. --wire W
judges the calls that record no wire as W; a call recorded by another wire
is cut at once with VENDOR_WIRE_MISMATCH (neither wire is picked). With
--record, every call keeps the upstream's host, and --wire W is kept as
the wire of each call: say it when the host and the path leave the wire
open (an OpenAI-compatible server on a host of its own, a local one).

Ctrl-C (SIGINT) or SIGTERM (kill PID: what stops a server started in the
background of a script, where SIGINT is ignored) stops the server: every
connection is closed, one line goes to stderr, 'course serve: interrupted'
or 'course serve: terminated'. Exit status: 130 after Ctrl-C, 143 after
SIGTERM, 2 for bad arguments, a cassette that cannot be used (a file in a
folder that is not JSON at all counts, as does one that is not a regular
file, such as a named pipe, or is larger than 64 MiB) or a port already in
use.

Recording (a recording proxy, for a client in any language):
  $ course serve tests/cassettes/answer.json --record --upstream https://api.anthropic.com
  course serve: http://127.0.0.1:8787 records to tests/cassettes/answer.json from ...
    anthropic: http://127.0.0.1:8787 (ANTHROPIC_BASE_URL)
Each request is forwarded to URL + its path with the caller's own key, the
answer streams back as it arrives, and the exchange is written to the
cassette, redacted as the pytest plugin records (no secret header, no key
anywhere). As for a replay, one line per SDK says the base URL to point it
at: the SDKs whose API is the upstream's host, or every installed one for
another host. Each recorded stream is judged by its wire's grammar as it
passes (--no-strict: not, and the cassette says strict: false): a refused
one is cut short for the client, and its code goes to stderr. A plug-in
that cannot be loaded is named once on stderr when the server starts, and
judges nothing; the other wires judge theirs. A client that leaves early
still gets its whole stream recorded (read on, within a bound of time and
size). An upstream that cannot be reached is answered 502
HTTP_CONNECT_FAILED. Stop the server (Ctrl-C, SIGTERM), then replay with
course serve CASSETTE.
"""

_CHUNKINGS: dict[str, Chunking] = {"whole": "whole", "bytes": "bytes", "random": "random"}


def _port(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be from 0 to 65535, got {value}")
    return value


def _milliseconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected milliseconds, got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def add_serve_arguments(serve: argparse.ArgumentParser) -> None:
    """The arguments of ``course serve``."""
    serve.add_argument(
        "target", metavar="CASSETTE_OR_DIR", help="a cassette file, or a folder of them"
    )
    serve.add_argument(
        "--port",
        type=_port,
        default=0,
        help="the port on 127.0.0.1 (default: 0, any free port; the base URL is printed)",
    )
    serve.add_argument(
        "--chunk",
        choices=list(_CHUNKINGS),
        default="whole",
        help="how each body is cut into writes: whole (default), one byte each, or random cuts",
    )
    serve.add_argument(
        "--delay",
        metavar="MS",
        type=_milliseconds,
        default=0.0,
        help="a pause of MS milliseconds between the writes of a body (default: 0)",
    )
    serve.add_argument(
        "--record",
        action="store_true",
        help="record instead: forward each request to --upstream with the caller's own key, "
        "stream the answer back, and write the redacted exchange to the cassette "
        "CASSETTE_OR_DIR (a file, written anew)",
    )
    serve.add_argument(
        "--upstream",
        metavar="URL",
        help="with --record: the API's base URL (https://api.anthropic.com)",
    )
    serve.add_argument(
        "--wire",
        metavar="WIRE",
        help="the wire the calls speak (mistral, azure-openai-chat): with --record, kept with "
        "every call, for an upstream whose host and paths leave it open; else, the wire that "
        "judges each served call recording none (one recording another is refused, "
        "VENDOR_WIRE_MISMATCH)",
    )
    serve.add_argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="with --record: do not judge each recorded stream by its wire's grammar "
        "(the cassette says strict: false)",
    )


def load_for_serving(target: str) -> list[tuple[str, Cassette]] | str:
    """The cassettes under ``target``, or the one-line reason ``course serve`` cannot start."""
    try:
        return cassettes_under(target)
    except OSError as error:
        return f"{target}: cannot be read ({error.strerror or error})"


def run_serve(
    cassettes: list[tuple[str, Cassette]],
    port: int,
    chunking: str,
    delay_ms: float,
    wire: str | None = None,
) -> int:
    """Serve ``cassettes`` until stopped; 143 after SIGTERM, 2 when the port cannot be bound.

    Ctrl-C reaches the caller as ``KeyboardInterrupt`` once the server has
    stopped (every connection closed); SIGTERM stops it the same way, and
    ``course serve: terminated`` goes to stderr. ``wire`` (``--wire``)
    judges the served calls that record no wire of their own.
    """
    # The server stack (uvicorn) loads here, not with the CLI: every other
    # command starts without it. And before the event loop runs, where an
    # import would hold up the loop (a slow callback in asyncio debug mode).
    from course_cassettes.responder import CassetteResponder
    from course_http.loopback import LoopbackServer
    from course_vendor import stream_judge_for

    out = writer_for(sys.stdout)
    err = writer_for(sys.stderr)
    responder = CassetteResponder(
        cassettes,
        chunking=_CHUNKINGS[chunking],
        delay=delay_ms / 1000,
        check=stream_judge_for if wire is None else partial(stream_judge_for, wire=wire),
        report=_reporter(out, err),
    )
    server = LoopbackServer(responder, port=port)
    calls = responder.pending_call_count
    # Which SDKs the cassettes serve is known before the port is: finding
    # them loads the vendors' plug-ins, which happens here, not in the loop.
    recorded = [call.request.path for _, cassette in cassettes for call in cassette.calls]
    said: list[str] = []
    sdks = sdk_base_urls(
        "",
        recorded,
        lambda error: said.append(
            format_command_problem("serve", error.code.value, error.message) + "\n"
        ),
    )
    if recorded:
        # A plug-in passed over, and a path two wires claim, each one line before the banner.
        err("".join([*registry_problem_lines("serve"), *said]))

    def announce(base_url: str) -> None:
        out(_banner(base_url, cassettes, calls, sdks))
        flush()

    return listen_until_stopped(server, port, announce, err)


def _banner(
    base_url: str, cassettes: list[tuple[str, Cassette]], calls: int, sdks: list[SdkBaseUrl]
) -> str:
    """What ``course serve`` says once it listens: where, how much, and each SDK's base URL.

    ``sdks`` holds each SDK's base URL under the server's root (its path alone).
    """
    count = len(cassettes)
    return (
        f"course serve: {base_url} answers {calls} call{'s' * (calls != 1)} "
        f"from {count} cassette{'s' * (count != 1)} (Ctrl-C or SIGTERM stops it)\n"
        + sdk_banner_lines(base_url, sdks)
    )


def _reporter(
    out: Callable[[str], None], err: Callable[[str], None]
) -> Callable[[ServedCall], None]:
    def report(served: ServedCall) -> None:
        where = f"{served.method} {one_line(served.path)}"
        if served.code is None:
            answer = f"{one_line(served.cassette or '')} calls[{served.index}]"
            out(f"{where}: {answer}: {served.status}\n")
        else:
            err(f"{where}: {served.code.value}: {one_line(served.problem or '')}\n")
        flush()

    return report
