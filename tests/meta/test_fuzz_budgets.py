"""The Hypothesis profiles are what the Makefile says they are."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from hypothesis import settings

from tests.children import child_env
from tests.conftest import DEFAULT_EXAMPLES, FUZZ_EXAMPLES

MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"


def test_the_default_profile_is_bounded_and_derandomized_so_ci_never_flakes() -> None:
    default = settings.get_profile("default")
    assert default.max_examples == DEFAULT_EXAMPLES <= 100
    assert default.derandomize is True
    assert default.deadline is None


def test_the_fuzz_profile_is_random_with_thousands_of_examples() -> None:
    fuzz = settings.get_profile("fuzz")
    assert fuzz.max_examples == FUZZ_EXAMPLES >= 1_000
    assert fuzz.derandomize is False
    assert fuzz.deadline is None


def test_the_loaded_profile_is_the_one_hypothesis_profile_names() -> None:
    wanted = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
    loaded = settings.default
    assert loaded is not None
    assert loaded.max_examples == wanted.max_examples
    assert loaded.derandomize == wanted.derandomize


def test_make_help_states_both_budgets_and_make_fuzz_selects_the_fuzz_profile() -> None:
    text = MAKEFILE.read_text()
    shown = subprocess.run(
        ["make", "-s", "help"],
        cwd=MAKEFILE.parent,
        env=child_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "make fuzz" in shown
    assert f"{FUZZ_EXAMPLES:,} random examples" in shown
    assert f"{DEFAULT_EXAMPLES} fixed examples" in shown
    assert re.search(
        r"^fuzz:.*\n\tHYPOTHESIS_PROFILE=fuzz .*pytest .*tests/properties$", text, re.M
    )
