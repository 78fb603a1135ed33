"""``python -m benchmarks.run``'s command line: groups and vendor wires, checked before any run."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks._vendor_bodies import APIS
from benchmarks.run import GROUPS, parse_options
from course_vendor import vendor_names


def test_by_default_every_group_and_every_wire_with_bodies_is_measured() -> None:
    options = parse_options([])
    assert options.groups == GROUPS
    assert options.wires == APIS
    assert set(options.wires) <= set(vendor_names())
    assert "gemini" in options.wires
    assert (options.smoke, options.profile, options.wall_clock) == (False, False, False)


def test_wall_clock_times_the_streaming_rows_on_the_wall_clock() -> None:
    assert parse_options(["--wall-clock"]).wall_clock is True


def test_wires_keeps_the_named_registry_wires_in_registry_order() -> None:
    assert parse_options(["--wires", "gemini"]).wires == ("gemini",)
    chosen = parse_options(["--wires", f" {APIS[-1]},{APIS[0]} ,, {APIS[0]}"]).wires
    assert chosen == (APIS[0], APIS[-1])


def test_only_and_wires_combine_with_the_other_options(tmp_path: Path) -> None:
    options = parse_options(
        ["--only", "vendors", "--wires", "gemini", "--smoke", "--profile", "--out", str(tmp_path)]
    )
    assert options.groups == ("vendors",)
    assert options.wires == ("gemini",)
    assert (options.smoke, options.profile, options.out) == (True, True, tmp_path)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--wires", "gemini,nope"], "unknown wire(s): nope (known: "),
        (["--wires", "Gemini"], "unknown wire(s): Gemini"),
        (["--wires", ","], "--wires names no wire"),
        (["--only", "vendors,speed"], "unknown group(s): speed"),
    ],
)
def test_an_unknown_or_empty_name_is_a_usage_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_options(argv)
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("usage: python -m benchmarks.run")
    assert f"error: {message}" in error
