"""The pytest plugin (entry point ``course`` in ``pytest11``): options, markers, fixtures.

Disable it with ``-p no:course``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator, Mapping
from contextlib import nullcontext
from pathlib import Path

import pytest
import pytest_asyncio

from course_pytest._cassette import CourseCassette
from course_pytest._doubles import fixture_provider, scripted_model
from course_pytest._headline import course_first, course_problem
from course_pytest._lock import CassetteLock
from course_pytest._modes import RecordMode, how_to_extend, how_to_record
from course_pytest._options import (
    CassetteOptions,
    cassette_path,
    cassettes_folder,
    options_from_marker,
)
from course_pytest._outcome import CALL_PASSED, check_consumed, passed
from course_pytest._scratch import remove_left_recordings
from course_pytest._summary import USE_KEY, RunSummary

__all__ = [
    "course_cassette",
    "course_cassette_config",
    "course_cassette_dir",
    "course_record_mode",
    "fixture_provider",
    "pytest_addoption",
    "pytest_configure",
    "pytest_pycollect_makeitem",
    "pytest_runtest_makereport",
    "scripted_model",
]

_MODES = tuple(mode.value for mode in RecordMode)
_RECORD_MODE = pytest.StashKey[RecordMode]()
_CASSETTE = pytest.StashKey[CourseCassette]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--course-record-mode`` (and the ``course_record_mode`` ini option)."""
    group = parser.getgroup("course", "course cassettes")
    group.addoption(
        "--course-record-mode",
        choices=_MODES,
        default=None,
        help="what to do with course cassettes: none (replay only, the default), once "
        "(record what is missing), new_episodes (record calls past the recorded ones), "
        "all (record everything again)",
    )
    parser.addini(
        "course_record_mode",
        "the default --course-record-mode (none when unset)",
        default="none",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers; read the record mode, a usage error when the ini option is not one."""
    config.addinivalue_line(
        "markers",
        "course_cassette(name=None, *, match=..., ignore=..., redact_fields=..., "
        "redact_paths=..., keep_headers=..., faults=..., chunking=..., strict=True, "
        "prompt_cache=False, prompt_cache_exempt=None): the test's calls are replayed from "
        "(or recorded to) cassettes/<module>/<name>.json; prompt_cache=True fails the test "
        "when a call moved the request prefix its wire cached for an earlier call, "
        "prompt_cache_exempt='<why>' leaves a suite's check, named in the run's summary",
    )
    config.addinivalue_line(
        "markers",
        "course_allow_unplayed: do not fail the test when its cassette or doubles keep "
        "calls or responses it never played",
    )
    config.stash[_RECORD_MODE] = _record_mode(config)
    config.pluginmanager.register(RunSummary(), "course-summary")


@pytest.hookimpl(wrapper=True)
def pytest_pycollect_makeitem(
    collector: pytest.Module | pytest.Class, name: str, obj: object
) -> Generator[None, object, object]:
    """Check each collected test's ``course_cassette`` marker: a bad one fails the collection."""
    made = yield
    for item in made if isinstance(made, list) else [made]:
        if isinstance(item, pytest.Function) and item.get_closest_marker("course_cassette"):
            try:
                _options(item)
            except (TypeError, ValueError) as error:
                raise collector.CollectError(f"{item.name}: {error}") from None
    return made


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Remember whether the test's own call passed (teardown checks run only then); make a
    failure that a cassette caused read course-first (`course_first`)."""
    report = yield
    if report.when == "call":
        item.stash[CALL_PASSED] = report.passed
    if report.when == "teardown" and (cassette := item.stash.get(_CASSETTE, None)) is not None:
        use = cassette.use()
        if use is not None:
            report.user_properties.append((USE_KEY, use.as_property()))
    if report.failed and call.excinfo is not None:
        used = item.stash.get(_CASSETTE, None)
        kept = () if used is None else used.problems
        problem = course_problem(call.excinfo.value, kept)
        if problem is not None:
            course_first(report, problem)
    return report


def _record_mode(config: pytest.Config) -> RecordMode:
    # Checked even when the flag wins: a bad ini value is wrong for every run.
    configured = config.getini("course_record_mode")
    if configured not in _MODES:
        raise pytest.UsageError(
            f"the course_record_mode ini option must be one of {', '.join(_MODES)}, "
            f"not {configured!r}"
        )
    return RecordMode(config.getoption("course_record_mode") or configured)


def _options(item: pytest.Item, suite: Mapping[str, object] | None = None) -> CassetteOptions:
    marker = item.get_closest_marker("course_cassette")
    args, kwargs = (marker.args, marker.kwargs) if marker is not None else ((), {})
    # The node id after the file: test classes are part of the test's name.
    _file, _separator, test_name = item.nodeid.partition("::")
    return options_from_marker(args, kwargs, test_name or item.name, suite)


@pytest.fixture
def course_cassette_config() -> dict[str, object]:
    """The suite's default ``course_cassette`` options; override it in a ``conftest.py``.

    The marker's keywords but the name and the exemption (``match``,
    ``ignore``, ``redact_fields``, ``redact_paths``, ``keep_headers``,
    ``faults``, ``chunking``, ``strict``, ``prompt_cache``); a test's marker
    overrides them one by one (``prompt_cache=True`` here checks every
    test's prompt cache, and a test leaves it only with
    ``prompt_cache_exempt="<why>"``). Default: none (``{}``).
    """
    return {}


@pytest.fixture
def course_cassette_dir(request: pytest.FixtureRequest) -> Path:
    """The folder a test's cassettes live in; override it in a ``conftest.py``.

    Default: ``cassettes/<test module>`` beside the test module.
    """
    return cassettes_folder(Path(request.node.path))


@pytest.fixture
def course_record_mode(request: pytest.FixtureRequest) -> RecordMode | str:
    """The record mode of a test's cassette; override it in a ``conftest.py`` (a `RecordMode`
    or its value, ``"none"``, ``"once"``, ``"new_episodes"``, ``"all"``).

    Default: ``--course-record-mode``, else the ``course_record_mode`` ini option, else ``none``.
    """
    return request.config.stash[_RECORD_MODE]


def _chosen_mode(mode: object) -> RecordMode:
    if isinstance(mode, RecordMode):
        return mode
    if type(mode) is str and mode in _MODES:
        return RecordMode(mode)
    pytest.fail(
        f"the course_record_mode fixture must return one of {', '.join(_MODES)}, not {mode!r}",
        pytrace=False,
    )


@pytest_asyncio.fixture
async def course_cassette(
    request: pytest.FixtureRequest,
    course_cassette_config: Mapping[str, object],
    course_cassette_dir: Path,
    course_record_mode: RecordMode | str,
) -> AsyncIterator[CourseCassette]:
    """This test's cassette: a transport and models over it, or httpx2 clients for an SDK.

    ``course_cassette.transport(base_url)``, ``.model(Model, config)``; for
    the official SDKs ``.client()``, ``.async_client()`` and ``.httpx_transport()``.

    The cassette is ``<name>.json`` in `course_cassette_dir`
    (``cassettes/<test module>`` next to the test module); name and options
    come from ``@pytest.mark.course_cassette`` (the test's, classes and
    parameters included, when unmarked) over `course_cassette_config`; the
    record mode is `course_record_mode`. Each of the three fixtures may be
    overridden for a whole suite in a ``conftest.py``. In a
    mode that may record, the test holds its cassette's lock from before
    it plans to after its recording is kept or dropped: another process
    using the same cassette waits, then sees what this test left.
    """
    try:
        options = _options(request.node, course_cassette_config)
    except (TypeError, ValueError) as error:
        pytest.fail(str(error), pytrace=False)
    if not isinstance(course_cassette_dir, Path):
        pytest.fail(
            "the course_cassette_dir fixture must return a pathlib.Path, "
            f"not {type(course_cassette_dir).__name__}",
            pytrace=False,
        )
    path = cassette_path(course_cassette_dir, options.name)
    mode = _chosen_mode(course_record_mode)
    lock = CassetteLock(path)
    # Under "none" nothing is written; a test with faults never records, and
    # with no folder there is no cassette, nor a process recording one.
    if mode is not RecordMode.NONE and not (options.faults and not path.parent.is_dir()):
        waiting = f"course: waiting for {path}: another process holds it"
        if await lock.acquire(on_wait=lambda: _tell(request.config, waiting)):
            remove_left_recordings(path)
    try:
        node_id = request.node.nodeid
        cassette = CourseCassette(
            path,
            mode,
            options,
            how_to_record(node_id),
            how_to_replace=how_to_record(node_id, replacing=True),
            how_to_extend=how_to_extend(node_id),
        )
        request.node.stash[_CASSETTE] = cassette
        try:
            yield cassette
        finally:
            await cassette.close(check_consumed=check_consumed(request), passed=passed(request))
    finally:
        lock.release()


def _tell(config: pytest.Config, line: str) -> None:
    """``line`` on the terminal now, past the output capture (a wait is otherwise silent)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None:
        return
    with capture.global_and_fixture_disabled() if capture is not None else nullcontext():
        reporter.write_line(line)
        reporter.flush()
