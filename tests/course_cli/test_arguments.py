"""Usage: every subcommand explains itself with an example; bad arguments are one line, status 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.course_cli.helpers import ROUNDTRIP, CourseRunner, Run

COMMANDS = ("replay", "check", "convert-vcr", "demo")


def test_top_level_help_lists_every_command_with_examples(course: CourseRunner) -> None:
    run = course("--help")
    assert run.status == 0
    assert run.err == ""
    for command in COMMANDS:
        # argparse puts a long command's help on the next line.
        assert f"\n    {command} " in run.out or f"\n    {command}\n" in run.out
    assert "examples:\n  course demo" in run.out


@pytest.mark.parametrize(
    ("command", "example"),
    [
        ("replay", "$ course replay fixtures/provider-tool-roundtrip.json --request-id run"),
        ("check", "$ course check fixtures/provider-tool-roundtrip.json fixtures/invalid/*.json"),
        ("demo", "course demo --model scripted"),
        ("convert-vcr", "$ course convert-vcr cassettes --out cassettes"),
    ],
)
def test_each_subcommand_help_says_what_it_does_with_an_example(
    course: CourseRunner, command: str, example: str
) -> None:
    run = course(command, "--help")
    assert run.status == 0
    assert run.err == ""
    assert run.out.startswith(f"usage: course {command} ")
    assert example in run.out


def _assert_usage_error(run: Run, prefix: str, *fragments: str) -> None:
    assert run.status == 2
    assert run.out == ""
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith(f"{prefix}: error: ")
    assert "Traceback" not in run.err
    for fragment in fragments:
        assert fragment in lines[0]


def test_no_arguments_asks_for_a_command(course: CourseRunner) -> None:
    _assert_usage_error(
        course(), "course", "choose a command: replay, check, convert-vcr, demo or serve"
    )


def test_an_unknown_command_is_a_usage_error(course: CourseRunner) -> None:
    _assert_usage_error(course("play"), "course", "invalid choice: 'play'")


def test_check_without_files_is_a_usage_error(course: CourseRunner) -> None:
    _assert_usage_error(course("check"), "course check", "required: FILE")


def test_convert_vcr_without_a_source_or_a_folder_out_is_a_usage_error(
    course: CourseRunner,
) -> None:
    _assert_usage_error(course("convert-vcr", "--out", "x"), "course convert-vcr", "SRC")
    _assert_usage_error(course("convert-vcr", "x"), "course convert-vcr", "--out")


def test_replay_without_a_file_is_a_usage_error(course: CourseRunner) -> None:
    _assert_usage_error(course("replay"), "course replay", "required: FILE")


def _assert_unreadable_in_check(run: Run, path: Path, reason: str) -> None:
    """``check`` reports an unreadable path as one problem line, checks the rest, exits 2."""
    assert run.status == 2
    assert run.err == ""
    assert f"{path}: FILE_UNREADABLE: {reason}\n" in run.out
    assert "Traceback" not in run.out


def test_a_missing_file_is_a_usage_error_for_replay(course: CourseRunner, tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    _assert_usage_error(course("replay", missing), "course replay", f"{missing}: no such file")


def test_a_directory_is_a_usage_error_for_replay(course: CourseRunner, tmp_path: Path) -> None:
    _assert_usage_error(course("replay", tmp_path), "course replay", "is a directory")


def test_check_reports_a_missing_file_and_a_directory_and_still_checks_the_others(
    course: CourseRunner, tmp_path: Path
) -> None:
    gone = tmp_path / "gone.json"
    run = course("check", ROUNDTRIP, gone, tmp_path, ROUNDTRIP)

    _assert_unreadable_in_check(run, gone, "no such file")
    _assert_unreadable_in_check(run, tmp_path, "is a directory, not a fixture file")
    assert run.out.splitlines()[-1] == (
        "checked 4 files, 4 responses: 2 problems in 2 files (2 files could not be read)"
    )


class OpenThatDeniesOnePath:
    """Stands in for ``os.open``: refuses one path as an unreadable file would, delegates the rest.

    The suite may run as root, for whom a mode-000 file is still readable.
    """

    def __init__(self, denied: Path) -> None:
        self.denied = str(denied)
        self.real = os.open
        self.denials = 0

    def __call__(self, path: str, flags: int, *args: int) -> int:
        if str(path) == self.denied:
            self.denials += 1
            raise PermissionError(13, "Permission denied", path)
        return self.real(path, flags, *args)


@pytest.mark.parametrize("command", ["replay", "check"])
def test_an_unreadable_file_is_reported_with_the_os_reason(
    course: CourseRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    locked = tmp_path / "locked.json"
    locked.write_bytes(ROUNDTRIP.read_bytes())
    locked.chmod(0)
    opener = OpenThatDeniesOnePath(locked)
    monkeypatch.setattr(os, "open", opener)
    run = course(command, locked)
    if command == "replay":
        _assert_usage_error(run, "course replay", f"{locked}: cannot be read (Permission denied)")
    else:
        _assert_unreadable_in_check(run, locked, "cannot be read (Permission denied)")
    assert opener.denials == 1


def test_a_fifo_is_not_a_fixture_file(course: CourseRunner, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    _assert_unreadable_in_check(course("check", fifo), fifo, "is not a regular file")


def test_check_exits_1_for_problems_and_0_when_clean(course: CourseRunner) -> None:
    broken = ROUNDTRIP.parent / "invalid" / "PROVIDER_MISSING_TERMINAL.json"
    assert course("check", ROUNDTRIP).status == 0
    assert course("check", ROUNDTRIP, broken).status == 1


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("demo", "--max-turns", "0"), "argument --max-turns: must be at least 1, got 0"),
        (("demo", "--max-turns", "two"), "argument --max-turns: expected a whole number"),
        (("demo", "--model", "openai"), "argument --model: invalid choice: 'openai'"),
        (("demo", "extra"), "unrecognized arguments: extra"),
    ],
)
def test_bad_demo_options_are_usage_errors(
    course: CourseRunner, argv: tuple[str, ...], fragment: str
) -> None:
    _assert_usage_error(course(*argv), "course" if "extra" in argv else "course demo", fragment)


@pytest.mark.parametrize("prefix", ["", "   ", "\t"])
def test_a_blank_request_id_prefix_is_a_usage_error(course: CourseRunner, prefix: str) -> None:
    run = course("replay", ROUNDTRIP, "--request-id", prefix)
    _assert_usage_error(run, "course replay", "argument --request-id: must not be blank")


class StdoutWithNoReader:
    """A stdout whose reader has gone away, as behind ``| head -1``."""

    def __init__(self) -> None:
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("argv", [("replay", str(ROUNDTRIP)), ("check", str(ROUNDTRIP)), ("demo",)])
def test_a_closed_stdout_ends_the_command_quietly_with_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    from course_cli import main

    stdout = StdoutWithNoReader()
    monkeypatch.setattr("sys.stdout", stdout)
    assert main(list(argv)) == 1
    assert stdout.writes == 1
    assert capsys.readouterr().err == ""


def test_an_interrupt_ends_the_command_with_status_130_and_one_line(
    course: CourseRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import course_cli._cli as cli

    async def interrupted(paths: object, **options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "check_files", interrupted)
    run = course("check", ROUNDTRIP)
    assert (run.status, run.out, run.err) == (130, "", "course check: interrupted\n")
