"""``course convert-vcr``: VCR.py cassettes into course cassettes, one each, with a report.

Each VCR.py cassette (pytest-recording keeps ``cassettes/<module>/<test>.yaml``)
becomes ``OUT/<module>/<test>.json``, where ``course-pytest`` looks for the
test's cassette: the folder that holds it and its name are kept. The strict
check is the vendor registry's, as a recording's is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from course_cassettes import (
    VcrConversion,
    convert_vcr_cassette,
    read_cassette_file,
    write_cassette,
)
from course_cli._files import UNREADABLE_CODE, files_under, is_yaml_file, unreadable_reason
from course_cli._output import one_line
from course_vendor import recorded_stream_problem, streamed_wire

__all__ = ["ConvertReport", "convert_vcr_files", "target_of"]

# What a stream's content type starts with; said only to name a stream no wire judged.
_EVENT_STREAM = "text/event-stream"


@dataclass
class ConvertReport:
    """What ``convert-vcr`` did: counts for the summary line, and how it exits."""

    cassettes: int = 0
    written: int = 0
    interactions: int = 0
    calls: int = 0
    dropped: int = 0
    refused: int = 0
    flagged: int = 0
    not_written: int = 0
    unreadable: int = 0

    @property
    def status(self) -> int:
        """0 all converted, 1 something refused, flagged or not written, 2 a file unreadable."""
        if self.unreadable:
            return 2
        return 1 if self.refused or self.flagged or self.not_written else 0

    def summary(self) -> str:
        """The closing line: what was written, then what was refused, flagged and dropped."""
        return (
            f"converted {self.calls} of {self.interactions} interactions into "
            f"{self.written} of {self.cassettes} cassettes: {self.refused} refused, "
            f"{self.flagged} flagged, {self.dropped} dropped, "
            f"{self.not_written + self.unreadable} cassettes not written"
        )


def target_of(source: str, out: Path) -> Path:
    """Where the course cassette of the VCR.py cassette ``source`` goes.

    ``out/<folder>/<name>.json``: ``<folder>`` is the name of the folder
    holding ``source`` (pytest-recording's test module), ``<name>`` its name
    without ``.yaml`` (the test's).
    """
    path = Path(source).resolve()
    return out / path.parent.name / f"{path.stem}.json"


def convert_vcr_files(
    named: Sequence[str], out: Path, *, force: bool, write: Callable[[str], None]
) -> ConvertReport:
    """Convert every VCR.py cassette ``named`` (files, or folders read at any depth for
    ``*.yaml`` and ``*.yml``) into ``out``, writing one line per note and per file.

    A file that cannot be read, or is not a VCR.py cassette at all, is one
    problem line and no cassette. An existing file is replaced only with
    ``force``; two cassettes bound for one file: the second is not written.
    Never raises for what a file holds.
    """
    report = ConvertReport()
    written: dict[Path, str] = {}
    for source in files_under(named, is_yaml_file):
        report.cassettes += 1
        conversion = _converted(source, write)
        if conversion is None:
            report.unreadable += 1
            continue
        _report_notes(source, conversion, report, write)
        target = target_of(source, out)
        why_not = _why_not_written(source, target, written, force)
        if why_not is None:
            try:
                write_cassette(target, conversion.cassette)
            except OSError as error:
                why_not = f"{target} cannot be written ({error.strerror or error})"
        if why_not is not None:
            write(f"{one_line(source)}: not written: {one_line(why_not)}\n")
            report.not_written += 1
            continue
        written[target] = source
        report.written += 1
        hosts = ", ".join(conversion.hosts) or "no host"
        calls = len(conversion.cassette.calls)
        counted = f"{calls} call{'' if calls == 1 else 's'}"
        write(f"{one_line(source)}: wrote {one_line(str(target))}: {counted} to {hosts}\n")
    return report


def _converted(source: str, write: Callable[[str], None]) -> VcrConversion | None:
    reason = unreadable_reason(source)
    if reason is None:
        # Read as a course cassette is: a regular file of at most MAX_CASSETTE_BYTES.
        read = read_cassette_file(source)
        text = read.value_or(None)
        if isinstance(text, bytes):
            return _conversion(source, text, write)
        reason = read.failure().message.removeprefix(f"{source}: ")
    write(f"{one_line(source)}: {UNREADABLE_CODE}: {one_line(reason)}\n")
    return None


def _conversion(source: str, text: bytes, write: Callable[[str], None]) -> VcrConversion | None:
    converted = convert_vcr_cassette(text, check=recorded_stream_problem)
    conversion = converted.value_or(None)
    if isinstance(conversion, VcrConversion):
        return conversion
    problem = converted.failure()
    write(f"{one_line(source)}: {problem.code.value}: {one_line(problem.message)}\n")
    return None


def _report_notes(
    source: str, conversion: VcrConversion, report: ConvertReport, write: Callable[[str], None]
) -> None:
    shown = one_line(source)
    report.interactions += len(conversion.converted) + len(conversion.refused)
    report.calls += len(conversion.converted)
    report.dropped += len(conversion.dropped)
    report.refused += len(conversion.refused)
    report.flagged += len(conversion.flagged)
    lines = [(note.index, f"dropped: {note.reason}") for note in conversion.dropped]
    lines += [(note.index, f"refused: {note.code}: {note.reason}") for note in conversion.refused]
    lines += [(note.index, f"flagged: {note.code}: {note.reason}") for note in conversion.flagged]
    for index, call in zip(conversion.converted, conversion.cassette.calls, strict=True):
        response = call.response
        streamed = response.headers.get("content-type", "").startswith(_EVENT_STREAM)
        if streamed and 200 <= response.status < 300 and not streamed_wire(call.request, response):
            path = call.request.path.partition("?")[0]
            lines.append((index, f"unchecked: no installed wire claims the stream of {path}"))
    for index, line in sorted(lines, key=lambda pair: pair[0]):
        write(f"{shown}: interaction {index}: {one_line(line)}\n")


def _why_not_written(
    source: str, target: Path, written: dict[Path, str], force: bool
) -> str | None:
    if target.resolve() == Path(source).resolve():
        return f"{target} is the VCR.py cassette itself"
    if target in written:
        return f"{target} holds the conversion of {written[target]} already"
    if target.exists() and not force:
        return f"{target} exists (--force replaces it)"
    return None
