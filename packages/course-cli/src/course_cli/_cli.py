"""The ``course`` command line: argument parsing and dispatch to the five subcommands.

Over 300 lines on purpose: the help texts users read (``--help`` epilogs) sit
beside the arguments they explain; each subcommand's work lives in its module.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from course_cli._cassettes import CASSETTE_WIRE
from course_cli._check import check_cassettes, check_files
from course_cli._demo import DEFAULT_MAX_TURNS, DemoStoppedError, run_demo
from course_cli._files import files_under, is_body_file, is_json_file, unreadable_reason
from course_cli._models import MODEL_NAMES, build_demo_model, fixture_demo_model
from course_cli._output import (
    format_command_problem,
    format_problem,
    one_line,
    trace_line,
    writer_for,
)
from course_cli._replay import DEFAULT_REQUEST_PREFIX, replay_file
from course_cli._serve import SERVE_EPILOG, add_serve_arguments, load_for_serving, run_serve
from course_cli._serve_record import run_record
from course_cli._wires import FIXTURE_WIRE, load_wire, registry_problem_lines, wire_names
from course_provider_fixture import FixtureProviderError

if TYPE_CHECKING:
    from course_vendor import VendorPlugin

__all__ = ["main"]

_MAIN_EPILOG = """\
examples:
  course demo                      a Tool round trip through the CourseModel port
  course replay fixtures/provider-tool-roundtrip.json
  course check fixtures/*.json     exit 0 only when every file is clean
  course replay --wire openai-chat answer.sse
                                   a recorded vendor body, through the vendor's model
  course check tests/cassettes/test_agent/*.json
                                   cassettes are checked too
  course serve tests/cassettes     answer SDKs from cassettes on 127.0.0.1
  course convert-vcr tests/cassettes --out tests/cassettes
                                   VCR.py (pytest-recording) cassettes into course ones

Run 'course COMMAND --help' for the details of one command.
"""

_REPLAY_EPILOG = """\
example:
  $ course replay fixtures/provider-tool-roundtrip.json --request-id run
  {"type":"toolCall","requestId":"run-1","toolCall":{...}}
  {"id":"response-tool-001","requestId":"run-1",...,"stopReason":"toolCall",...}
  {"type":"textDelta","requestId":"run-2","delta":"The sum is 42."}
  {"id":"response-text-002","requestId":"run-2",...,"stopReason":"stop",...}

Model call i (from 0) uses the request id PREFIX-(i+1). The output is the
same byte for byte on every run: keys in course order, compact separators,
non-ASCII characters escaped. On a typed failure the lines already printed
stay on stdout, the failure goes to stderr as
  FILE: response R, record K: CODE: MESSAGE
and the exit status is 1.

With --wire VENDOR, FILE is one recorded HTTP body (the SSE body as
received; a .jsonl file holds the data of one event per line) played as one
call (request id PREFIX-1) through that vendor's model over an in-process
recorded transport: no network, no key. A failure is reported as
  FILE: CODE: MESSAGE
A .json file (an error body, a request) is not a stream and is refused.
A vendor wire whose installed plug-in cannot be used is one line on stderr
and exit status 2:
  course replay: VENDOR_PLUGIN_BROKEN: the wire 'W' cannot be used: ...
(VENDOR_WIRE_CONFLICT when two installed packages register the name W).
"""

_CHECK_EPILOG = """\
example:
  $ course check fixtures/provider-tool-roundtrip.json fixtures/invalid/*.json
  fixtures/invalid/PROVIDER_MISSING_START.json: response 0, record 0: PROVIDER_MISSING_START: ...
  ...
  checked 11 files, 11 responses: 10 problems in 10 files

Every response of every file is played offline, in order, to the end: a bad
file does not stop the others, and a bad response does not stop the later
responses of its file. A file that cannot be loaded at all (not strict JSON,
wrong schemaVersion, malformed response list) is one problem. Exit status 0
only when every file is clean, 1 when any problem was found, 2 when a file
could not be read at all.

With --wire VENDOR, each FILE is one recorded HTTP body played as one call
through that vendor's model (see 'course replay --help'); a file whose call
fails is one problem line, FILE: CODE: MESSAGE.

A cassette (a JSON file whose top-level object holds "course_cassette", its
format version, or a file that is not JSON but still holds that key) is
checked as a cassette: strict JSON, the documented format, every call, no
secret header; its first such problem is one line,
  FILE: response C: HTTP_RECORDING_INVALID: calls[C]...: MESSAGE
(C is the call). Then every recorded stream (a 2xx text/event-stream answer
of a call an installed wire claims) is judged by that wire's grammar: the
wire the cassette records with the call, else the one its recorded host
belongs to (api.mistral.ai), else the one its path belongs to; a stream it
refuses is one line with its code,
  FILE: response C: VENDOR_MISSING_TERMINAL: calls[C].response.body: ...
With --wire VENDOR, a cassette named among the files is checked as one, its
calls that record no wire judged as VENDOR; a call recorded by another wire
is one VENDOR_WIRE_MISMATCH line (neither wire is picked).
A cassette recorded with strict=False ("strict": false in the file) is read
but not judged, as no replay judges it; it says so in one line,
  FILE: not judged: the cassette says strict: false
With --prompt-cache, each cassette's calls are also compared, each with the
last call before it to the same wire, endpoint and model: a call that moved
the request prefix the vendor cached for that earlier call (a Tool's
description, the system prompt, an earlier turn edited; a call that only
appends moves nothing) is one line naming the first moved path,
  FILE: response C: HTTP_PROMPT_CACHE_MOVED: call C+1 moved the prefix
  anthropic-messages cached for call 1 at tools[1].description: recorded ...,
  then ...
What each wire caches is its plug-in's to say: Anthropic up to the last
cache_control breakpoint (nothing without one), OpenAI and Gemini the
whole prompt.
--wire cassette says that every FILE must be one (a file that cannot be read
is then HTTP_RECORDING_INVALID too, and exit status 2). A stream whose path
two installed wires claim alike is one VENDOR_WIRE_CONFLICT line naming
both. An installed vendor plug-in that cannot be loaded is passed over (the
other wires still check their streams) and named once on stderr,
  course check: VENDOR_PLUGIN_BROKEN: the wire 'W' cannot be used: ...
which leaves the exit status to the files. With --wire VENDOR, a wire whose
plug-in cannot be used is that one line and exit status 2.
"""

_CONVERT_EPILOG = """\
example:
  $ course convert-vcr cassettes --out cassettes
  cassettes/test_agent/test_hi.yaml: interaction 0: dropped: headers not kept: ...
  cassettes/test_agent/test_hi.yaml: wrote cassettes/test_agent/test_hi.json: 1 call to ...
  converted 1 of 1 interactions into 1 of 1 cassettes: 0 refused, 0 flagged, ...

Each VCR.py cassette (SRC, or every *.yaml and *.yml file under a SRC
folder, at any depth) becomes one course cassette, DIR/<folder>/<name>.json:
the folder that holds it (pytest-recording's test module) and its name (the
test's) are kept, so course-pytest finds it where pytest-recording kept the
YAML one. An existing file is replaced only with --force.

Each call is redacted exactly as a recording would redact it (only the
allow-listed headers, no secret header, every credential the request carried
masked in the path and scrubbed from the bodies), its body kept decoded
(gzip and deflate undone), and every recorded stream judged by its wire's
grammar. One line per note, each naming the interaction (from 0):
  SRC: interaction N: dropped: what a recording leaves out
  SRC: interaction N: refused: HTTP_RECORDING_INVALID: PATH: why it cannot be held
  SRC: interaction N: flagged: CODE: the strict check's problem (the call is kept)
  SRC: interaction N: unchecked: no installed wire claims the stream of PATH
A cassette keeps paths, not hosts: the line of each cassette written names
the hosts its calls went to. A request whose body is not a JSON object (a
form, a file upload) is refused; the cassette is written with the rest.

Exit status 0 when every interaction was converted and passed the check, 1
when one was refused or flagged or a cassette was not written, 2 when a file
could not be read or is not a VCR.py cassette at all (one line,
SRC: HTTP_RECORDING_INVALID: PATH: MESSAGE, naming the path in the YAML).
"""

_DEMO_EPILOG = """\
examples:
  course demo                      replay the checked-in provider fixture
  course demo --model scripted     the same trace from a ScriptedModel script
  course demo --fixture mine.json  the same loop over your own fixture file

The loop validates the transcript before each model call, checks the Tool
arguments before running 'add' locally (bad arguments become a Tool result
with isError, not a crash) and gives up after --max-turns model calls.
Exit status 1 when the model fails or the loop has to stop early.
"""


class _ParserExit(Exception):  # noqa: N818 (control flow out of argparse, never escapes main)
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that reports a usage error in one line and never exits the process."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._print_message(message, sys.stderr)
        raise _ParserExit(status)


def _positive_int(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _request_prefix(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be blank")
    return text


def _build_parser() -> _Parser:
    parser = _Parser(
        prog="course",
        description="Replay and check provider fixtures, and run a Tool round trip "
        "through the CourseModel port. Offline; no clocks, no random ids.",
        epilog=_MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    replay = commands.add_parser(
        "replay",
        help="print every chunk and response of a fixture as JSON Lines",
        description="Play every response of FILE in order through FixtureProviderAdapter "
        "(or, with --wire VENDOR, the one recorded response body through that vendor's "
        "model) and print each chunk and each terminal response as one JSON object per "
        "line, in the course vocabulary.",
        epilog=_REPLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    replay.set_defaults(subparser=replay)
    replay.add_argument(
        "fixture", metavar="FILE", help="a schema-1 fixture file, or a recorded body with --wire"
    )
    _add_wire_option(replay, wire_names())
    replay.add_argument(
        "--request-id",
        metavar="PREFIX",
        type=_request_prefix,
        default=DEFAULT_REQUEST_PREFIX,
        help=f"prefix of the request ids (default: {DEFAULT_REQUEST_PREFIX})",
    )

    check = commands.add_parser(
        "check",
        help="validate every response of every fixture file",
        description="Validate fixture files and cassettes by playing every response offline, "
        "or, with --wire WIRE, judge recorded response bodies with that wire's grammar (the "
        "vendor's whole stream language, whatever the port carries); a FOLDER is read at any "
        "depth as course serve reads one. Print one line per problem (file, response index, "
        "record index, code, message).",
        epilog=_CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.set_defaults(subparser=check)
    check.add_argument(
        "fixtures",
        metavar="FILE",
        nargs="+",
        help="fixture files, cassettes, or recorded bodies with --wire; or folders of them",
    )
    _add_wire_option(check, (*wire_names(), CASSETTE_WIRE))
    check.add_argument(
        "--prompt-cache",
        action="store_true",
        help="also report each cassette call that moved the request prefix its wire cached "
        "for an earlier call (HTTP_PROMPT_CACHE_MOVED)",
    )

    serve = commands.add_parser(
        "serve",
        help="answer HTTP clients and SDKs from cassettes on 127.0.0.1",
        description="Run an HTTP server on 127.0.0.1 that answers each request from the "
        "cassettes, byte for byte, with request matching, until Ctrl-C or SIGTERM.",
        epilog=SERVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.set_defaults(subparser=serve)
    add_serve_arguments(serve)

    convert = commands.add_parser(
        "convert-vcr",
        help="convert VCR.py (pytest-recording) YAML cassettes into course cassettes",
        description="Convert each VCR.py cassette into one course cassette, redacted as a "
        "recording would be and strict-checked, and report what was dropped, refused or "
        "flagged, one line each.",
        epilog=_CONVERT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    convert.set_defaults(subparser=convert)
    convert.add_argument(
        "sources", metavar="SRC", nargs="+", help="VCR.py cassette files, or folders of them"
    )
    convert.add_argument(
        "--out", metavar="DIR", required=True, help="the folder the course cassettes go under"
    )
    convert.add_argument(
        "--force", action="store_true", help="replace course cassettes that exist already"
    )

    demo = commands.add_parser(
        "demo",
        help="run a Tool round trip through the CourseModel port and print its trace",
        description="A minimal agent loop over the CourseModel port: the user asks for "
        "20 + 22, the model calls the Tool 'add', the loop runs it locally and sends the "
        "linked Tool result back, and the model answers. Each step is printed.",
        epilog=_DEMO_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    demo.set_defaults(subparser=demo)
    demo.add_argument(
        "--model",
        choices=MODEL_NAMES,
        default=MODEL_NAMES[0],
        help="the adapter behind the port (default: %(default)s, the checked-in fixture)",
    )
    demo.add_argument(
        "--fixture",
        metavar="FILE",
        help="replay your own schema-1 fixture file instead (with --model fixture only)",
    )
    demo.add_argument(
        "--max-turns",
        metavar="N",
        type=_positive_int,
        default=DEFAULT_MAX_TURNS,
        help="stop after N model calls (default: %(default)s)",
    )
    return parser


def _add_wire_option(command: argparse.ArgumentParser, choices: Sequence[str]) -> None:
    command.add_argument(
        "--wire",
        choices=choices,
        default=FIXTURE_WIRE,
        help="what the files record: course fixtures (default: %(default)s) or a vendor "
        "API's response bodies",
    )


def _vendor_wire(command: str, wire: str) -> VendorPlugin | None:
    """The plug-in of ``--wire`` when it names a vendor wire; ``None`` for the course's own.

    A wire whose plug-in cannot be used (broken, or registered by two
    packages) ends the command with one line on stderr and status 2.
    """
    if wire in (FIXTURE_WIRE, CASSETTE_WIRE):
        return None
    # A vendor wire's package, and the HTTP stack under it, load only now.
    from course_http import VendorError

    try:
        return load_wire(wire)
    except VendorError as error:
        line = format_command_problem(command, error.code.value, error.message)
        writer_for(sys.stderr)(line + "\n")
        raise _ParserExit(2) from None


def _serve_wire(arguments: argparse.Namespace) -> None:
    """Check ``course serve --wire``: a vendor wire an installed package registers, or none."""
    wire = arguments.wire
    if wire is None:
        return
    if wire in (FIXTURE_WIRE, CASSETTE_WIRE):
        arguments.subparser.error(f"--wire {wire}: course serve answers with vendor wires only")
    _vendor_wire("serve", wire)


def _require_playable(
    parser: argparse.ArgumentParser, wire: VendorPlugin | None, paths: Sequence[str]
) -> None:
    if wire is None:
        return
    from course_cli._recordings import unplayable_reason

    for path in paths:
        reason = unplayable_reason(path, wire)
        if reason is not None:
            parser.error(f"{path}: {reason}")


def _require_readable(parser: argparse.ArgumentParser, paths: Sequence[str]) -> None:
    for path in paths:
        reason = unreadable_reason(path)
        if reason is not None:
            parser.error(f"{path}: {reason}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``course`` command with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    0: success. 1: a typed failure was reported (a bad fixture, a failed
    model call, a demo loop that had to stop), or stdout was closed by its
    reader. 2: bad arguments, reported in one line on stderr (a ``--wire``
    whose plug-in cannot be used is one), or (``check``, ``convert-vcr``) a
    file that could not be read at all, after every file was checked.
    130: interrupted (Ctrl-C). 143: ``serve`` stopped by SIGTERM. Expected failures never
    raise; an unexpected internal error does.
    """
    parser = _build_parser()
    try:
        arguments = parser.parse_args(argv)
        if arguments.command is None:
            parser.error("choose a command: replay, check, convert-vcr, demo or serve")
        if arguments.command == "replay":
            _require_readable(arguments.subparser, [arguments.fixture])
            arguments.plugin = _vendor_wire("replay", arguments.wire)
            _require_playable(arguments.subparser, arguments.plugin, [arguments.fixture])
        elif arguments.command == "check":
            arguments.plugin = _vendor_wire("check", arguments.wire)
            if arguments.prompt_cache and arguments.plugin is not None:
                arguments.subparser.error(
                    "--prompt-cache compares the requests of cassettes: a recorded body "
                    f"(--wire {arguments.wire}) holds none"
                )
        elif arguments.command == "demo" and arguments.fixture is not None:
            if arguments.model != MODEL_NAMES[0]:
                arguments.subparser.error(
                    "--fixture replays a fixture: it goes with --model fixture"
                )
            _require_readable(arguments.subparser, [arguments.fixture])
        elif arguments.command == "convert-vcr" and Path(arguments.out).exists():
            if not Path(arguments.out).is_dir():
                arguments.subparser.error(f"--out {arguments.out}: is not a folder")
        elif arguments.command == "serve" and (arguments.record or arguments.upstream):
            if not (arguments.record and arguments.upstream):
                arguments.subparser.error("--record and --upstream URL go together")
            if not arguments.upstream.startswith(("http://", "https://")):
                arguments.subparser.error(
                    f"--upstream must be an http:// or https:// URL, not {arguments.upstream!r}"
                )
            _serve_wire(arguments)
        elif arguments.command == "serve":
            serving = load_for_serving(arguments.target)
            if isinstance(serving, str):
                arguments.subparser.error(serving)
            arguments.cassettes = serving
            _serve_wire(arguments)
    except _ParserExit as exit_:
        return exit_.status
    try:
        if arguments.command == "replay":
            status = _replay(arguments.fixture, arguments.request_id, arguments.plugin)
        elif arguments.command == "check":
            status = _check(
                arguments.fixtures,
                arguments.wire,
                arguments.plugin,
                prompt_cache=arguments.prompt_cache,
            )
        elif arguments.command == "convert-vcr":
            status = _convert_vcr(arguments.sources, Path(arguments.out), force=arguments.force)
        elif arguments.command == "serve" and arguments.record:
            status = run_record(
                arguments.target,
                arguments.upstream,
                arguments.port,
                strict=arguments.strict,
                wire=arguments.wire,
            )
        elif arguments.command == "serve":
            status = run_serve(
                arguments.cassettes,
                arguments.port,
                arguments.chunk,
                arguments.delay,
                arguments.wire,
            )
        else:
            status = _demo(arguments.model, arguments.fixture, arguments.max_turns)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader left early (``course replay x | head -1``): say nothing
        # more to it, and keep the interpreter's final flush from failing too.
        _detach_stdout()
        return 1
    except KeyboardInterrupt:
        # asyncio.run has already cancelled the work (the demo aborts its model).
        print(f"course {arguments.command}: interrupted", file=sys.stderr)
        return 130
    return status


def _detach_stdout() -> None:
    try:
        target = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, target)
    finally:
        os.close(devnull)


def _replay(path: str, request_prefix: str, wire: VendorPlugin | None) -> int:
    write = writer_for(sys.stdout)
    if wire is None:
        problem = asyncio.run(replay_file(path, request_prefix, write))
    else:
        from course_cli._recordings import replay_recording

        problem = asyncio.run(replay_recording(path, wire, request_prefix, write))
    if problem is None:
        return 0
    sys.stdout.flush()
    writer_for(sys.stderr)(format_problem(problem) + "\n")
    return 1


def _check(
    named: Sequence[str], wire: str, plugin: VendorPlugin | None, *, prompt_cache: bool
) -> int:
    paths = files_under(named, is_body_file if plugin is not None else is_json_file)
    if plugin is not None:
        from course_cli._recordings import check_recordings

        report = check_recordings(paths, plugin)
    elif wire == CASSETTE_WIRE:
        report = asyncio.run(check_cassettes(paths, prompt_cache=prompt_cache))
    else:
        report = asyncio.run(check_files(paths, prompt_cache=prompt_cache))
    write = writer_for(sys.stdout)
    for problem in report.problems:
        write(format_problem(problem) + "\n")
    for path in report.unjudged:
        write(f"{one_line(path)}: not judged: the cassette says strict: false\n")
    write(report.summary() + "\n")
    if report.cassettes:
        # A plug-in passed over while the streams were checked is named once, apart.
        sys.stdout.flush()
        writer_for(sys.stderr)("".join(registry_problem_lines("check")))
    return report.status


def _convert_vcr(named: Sequence[str], out: Path, *, force: bool) -> int:
    # The cassettes, the YAML reader and the vendor registry load only for this command.
    from course_cli._convert_vcr import convert_vcr_files

    write = writer_for(sys.stdout)
    report = convert_vcr_files(named, out, force=force, write=write)
    write(report.summary() + "\n")
    return report.status


def _demo(model_name: str, fixture: str | None, max_turns: int) -> int:
    if fixture is None:
        model, description = build_demo_model(model_name)
    else:
        try:
            model = fixture_demo_model(fixture)
        except FixtureProviderError as error:
            writer_for(sys.stderr)(f"course demo: {one_line(fixture)}: {one_line(str(error))}\n")
            return 1
        description = f"fixture (FixtureProviderAdapter replaying {fixture})"
    write = writer_for(sys.stdout)
    write(trace_line("model", description))
    try:
        asyncio.run(run_demo(model, write, max_turns=max_turns))
        model.assert_consumed()
    except (DemoStoppedError, AssertionError) as error:
        shown = error.message if isinstance(error, DemoStoppedError) else str(error)
        sys.stdout.flush()
        writer_for(sys.stderr)(f"course demo: {one_line(shown)}\n")
        return 1
    return 0
