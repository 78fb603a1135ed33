"""How a fixture's teardown check fails its test: once, in the check's own words, no traceback."""

from __future__ import annotations

from collections.abc import Callable

import pytest

__all__ = ["fail_unless_consumed"]


def fail_unless_consumed(assert_consumed: Callable[[], None], source: str | None = None) -> None:
    """Run ``assert_consumed``; when it raises ``AssertionError``, fail the test with its message.

    The one way every fixture of the plugin (the cassette and each double)
    reports what its test left unplayed. The failure is
    ``pytest.fail(..., pytrace=False)``, raised outside the handler of the
    ``AssertionError``: pytest then prints the message once, with neither
    the plugin's frames nor the assertion a second time, chained by "During
    handling of the above exception". ``source`` (a cassette's path, a
    fixture file) starts the message when given.
    """
    try:
        assert_consumed()
    except AssertionError as error:
        message = str(error) if source is None else f"{source}: {error}"
    else:
        return
    pytest.fail(message, pytrace=False)
