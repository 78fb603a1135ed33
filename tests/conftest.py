"""Suite-wide guards: every test runs with asyncio debug on, and fails if it
leaves a task pending, an exception never retrieved, or an unraisable error;
a test id that names an object's address stops the run at collection.

New tests get these checks for free; nothing needs to opt in. This file also
registers the Hypothesis profiles (``HYPOTHESIS_PROFILE`` picks one):

- ``default``: 100 examples per property, derandomized so CI never flakes;
- ``fuzz``: 5,000 random examples per property (``make fuzz``).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
import signal
import sys
import threading
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import HealthCheck, settings

# asyncio reads this when each event loop is created, so loops made by
# pytest-asyncio and by asyncio.run() inside tests both run in debug mode.
os.environ.setdefault("PYTHONASYNCIODEBUG", "1")

# The AWS credential chain a Bedrock call without a key signs with finds
# nothing of the machine's: no credentials or profile from the environment,
# no shared files, no instance metadata (a request to a link-local address).
# A test that signs sets its own credentials.
for _variable in (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
):
    os.environ.pop(_variable, None)
os.environ["AWS_EC2_METADATA_DISABLED"] = "true"
os.environ["AWS_CONFIG_FILE"] = os.devnull
os.environ["AWS_SHARED_CREDENTIALS_FILE"] = os.devnull

# A run started in the background by a non-interactive shell (`make test &`,
# a CI runner's job) begins with SIGINT ignored, and every child process
# inherits that: a child a test stops the way Ctrl-C would (course serve)
# would never stop. The suite's processes take Python's own default back.
if (
    threading.current_thread() is threading.main_thread()
    and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
):
    signal.signal(signal.SIGINT, signal.default_int_handler)

DEFAULT_EXAMPLES = 100
FUZZ_EXAMPLES = 5_000

# Hostile inputs and per-example event loops make single examples slow
# (deep nesting, 1,000-record responses); a deadline would only add flakes.
settings.register_profile(
    "default",
    max_examples=DEFAULT_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz",
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# `repr` of a function or of most objects: "<function main at 0x7f2ced8d4400>".
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Stop the run when a test id holds an object's address.

    pytest-xdist workers each collect the suite and must agree on every id;
    an address differs from one process to the next. Raises
    ``pytest.UsageError`` naming the first such ids.
    """
    unstable = [item.nodeid for item in items if _ADDRESS.search(item.nodeid)]
    if unstable:
        shown = "\n  ".join(unstable[:5])
        raise pytest.UsageError(
            f"{len(unstable)} test id(s) hold an object's address, which differs between"
            f" processes; give parametrize ids= names:\n  {shown}"
        )


# Settling a stream may take a few loop turns (a producer task finishing
# after it resolved the result); a task still pending after this many turns
# is a leak.
_SETTLE_TURNS = 20


@pytest.fixture(autouse=True)
def _no_unraisable_exceptions() -> Iterator[None]:
    """Fail the test when anything reaches `sys.unraisablehook` while it runs.

    Errors raised in ``__del__``, in an async generator's finalizer or in a
    weakref callback cannot propagate; Python hands them to the hook. pytest's
    own plugin would turn them into warnings (errors here) too, but this guard
    does not depend on that plugin or on the warning filters. It is set up
    before any other fixture of the test, so it also sees what the event
    loop's teardown and the final garbage collection report.
    """
    reports: list[str] = []
    previous = sys.unraisablehook

    def record(unraisable: sys.UnraisableHookArgs) -> None:
        reports.append(_describe_unraisable(unraisable))

    sys.unraisablehook = record
    # Only what this test made is collected: everything older (the session's
    # modules, strategies and caches) is frozen out of the guards' collections,
    # which keeps their cost per test flat however large the session grows.
    gc.freeze()
    try:
        yield
        gc.collect()
    finally:
        gc.unfreeze()
        sys.unraisablehook = previous
    assert not reports, "unraisable exception(s) reported:\n" + "\n".join(reports)


def _describe_unraisable(unraisable: sys.UnraisableHookArgs) -> str:
    # The object's own __repr__ may be the thing that is broken.
    try:
        shown = repr(unraisable.object)
    except Exception:
        shown = f"<{type(unraisable.object).__qualname__} with a failing __repr__>"
    message = unraisable.err_msg or "Exception ignored in"
    return f"{message}: {shown}: {unraisable.exc_type.__qualname__}: {unraisable.exc_value!r}"


class _AsyncioErrorRecords(logging.Handler):
    """Collects what asyncio's default exception handler logs.

    "Task was destroyed but it is pending!" and "exception was never
    retrieved" are reported through the ``asyncio`` logger, not as warnings,
    so ``filterwarnings = error`` alone would never see them.
    """

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture(autouse=True)
def _no_asyncio_error_logs(_no_unraisable_exceptions: None) -> Iterator[None]:
    # Depends on the unraisable guard so that one is set up first and torn
    # down last: its freeze then covers this guard's collection too.
    handler = _AsyncioErrorRecords()
    logger = logging.getLogger("asyncio")
    logger.addHandler(handler)
    try:
        yield
        gc.collect()
    finally:
        logger.removeHandler(handler)
    assert not handler.messages, f"asyncio reported errors: {handler.messages}"


@pytest.fixture(autouse=True)
async def _no_pending_tasks() -> AsyncIterator[None]:
    loop = asyncio.get_running_loop()
    assert loop.get_debug(), "asyncio debug mode must be on in tests"
    yield
    current = asyncio.current_task()
    leftover: set[asyncio.Task[object]] = set()
    for _ in range(_SETTLE_TURNS):
        leftover = {task for task in asyncio.all_tasks() if task is not current}
        if not leftover:
            return
        await asyncio.sleep(0)
    for task in leftover:
        task.cancel()
    await asyncio.gather(*leftover, return_exceptions=True)
    pytest.fail(f"test left {len(leftover)} task(s) pending: {sorted(map(repr, leftover))}")
