"""``course check``: play every response of every fixture file and collect every problem."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from returns.result import Failure, Success

from course_cli._cassettes import claims_to_be_a_cassette_file, is_cassette_document
from course_cli._files import UNREADABLE_CODE, unreadable_reason
from course_cli._problems import Problem, problem_from_error
from course_protocol import CourseModelRequest
from course_provider_fixture import FixtureProviderAdapter, FixtureProviderError, load_fixture
from course_stream import AbortController

__all__ = ["CheckReport", "check_cassettes", "check_files", "unreadable_problem"]


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What ``check`` found: how much it played and every problem, in file and response order.

    ``unreadable`` counts the files that could not be read at all (each is
    one of the problems too); ``cassettes`` the files checked as cassettes,
    whose recorded streams were judged by the vendor wires installed;
    ``unjudged`` names the cassettes whose streams were not judged because
    they say ``strict: false``.
    """

    files: int
    responses: int
    problems: tuple[Problem, ...]
    unreadable: int = 0
    cassettes: int = 0
    unjudged: tuple[str, ...] = ()

    @property
    def status(self) -> int:
        """The exit status, grep's way: 0 clean, 1 problems found, 2 a file could not be read."""
        if self.unreadable:
            return 2
        return 1 if self.problems else 0

    def summary(self) -> str:
        """The closing line: counts of files and responses, then problems or ``clean``.

        Cassettes left unjudged (``strict: false``) are counted after the
        responses: ``checked 2 files, 5 responses (1 file not judged:
        strict: false): clean``.
        """
        checked = f"checked {_count(self.files, 'file')}, {_count(self.responses, 'response')}"
        if self.unjudged:
            checked += f" ({_count(len(self.unjudged), 'file')} not judged: strict: false)"
        if not self.problems:
            return f"{checked}: clean"
        bad_files = len({problem.file for problem in self.problems})
        found = f"{checked}: {_count(len(self.problems), 'problem')} in {_count(bad_files, 'file')}"
        if self.unreadable:
            found += f" ({_count(self.unreadable, 'file')} could not be read)"
        return found


def unreadable_problem(path: str, reason: str) -> Problem:
    """The one problem line of a path ``check`` could not read at all."""
    return Problem(
        file=path, response_index=None, record_index=None, code=UNREADABLE_CODE, message=reason
    )


async def check_files(paths: Sequence[str], *, prompt_cache: bool = False) -> CheckReport:
    """Validate every response of every file in ``paths``, offline, without stopping early.

    A path that cannot be read at all (missing, a directory, unreadable)
    gives one ``FILE_UNREADABLE`` problem and counts as unreadable. A file
    that cannot be loaded or constructed (not strict JSON, not a schema-1
    fixture) gives one problem and no responses. A file whose top-level object
    holds the cassette version key (or, when it is not JSON at all, whose
    text still holds it as a key) is checked as a cassette, with
    ``check_cassette_file``: its calls count as responses. Otherwise each of
    its responses is played to its terminal result with a fresh request id
    ``check-<i+1>``; a failed response gives one problem and the next
    response is still played, since the adapter takes each response from
    its queue whatever happened to the one before. ``prompt_cache`` adds
    the prompt-cache check to each cassette (``check_cassette_file``).
    """
    signal = AbortController().signal
    problems: list[Problem] = []
    responses = 0
    unreadable = 0
    cassettes = 0
    unjudged: list[str] = []
    for path in paths:
        reason = unreadable_reason(path)
        if reason is not None:
            problems.append(unreadable_problem(path, reason))
            unreadable += 1
            continue
        document = load_fixture(path)
        if is_cassette_document(document.value_or(None)) or (
            isinstance(document, Failure) and claims_to_be_a_cassette_file(path)
        ):
            # Only a cassette needs the cassette and HTTP stack: a fixture check imports neither.
            from course_cli._cassette_check import check_cassette_file

            checked = await check_cassette_file(path, prompt_cache=prompt_cache)
            responses += checked.calls
            cassettes += 1
            problems.extend(checked.problems)
            if not checked.judged and not checked.problems:
                unjudged.append(path)
            continue
        match document.bind(FixtureProviderAdapter.from_fixture):
            case Failure(error):
                problems.append(problem_from_error(path, None, error))
                continue
            case Success(adapter):
                pass
        for index in range(adapter.pending_response_count):
            responses += 1
            stream = adapter.stream(
                CourseModelRequest(id=f"check-{index + 1}", messages=()), signal
            )
            try:
                await stream.result
            except FixtureProviderError as error:
                problems.append(problem_from_error(path, index, error))
    return CheckReport(
        files=len(paths),
        responses=responses,
        problems=tuple(problems),
        unreadable=unreadable,
        cassettes=cassettes,
        unjudged=tuple(unjudged),
    )


async def check_cassettes(paths: Sequence[str], *, prompt_cache: bool = False) -> CheckReport:
    """``course check --wire cassette``: every file must be a valid cassette.

    Each file is checked with ``check_cassette_file`` (the format, then
    every recorded stream judged, unless the cassette says ``strict:
    false``). A path that cannot be read at all is
    one ``HTTP_RECORDING_INVALID`` problem (``cannot be read: ...``) and
    counts as unreadable. Calls count as responses. ``prompt_cache`` adds
    the prompt-cache check to each cassette.
    """
    from course_cli._cassette_check import check_cassette_file, unreadable_cassette_problem

    problems: list[Problem] = []
    calls = 0
    unreadable = 0
    unjudged: list[str] = []
    for path in paths:
        if unreadable_reason(path) is not None:
            problems.append(unreadable_cassette_problem(path))
            unreadable += 1
            continue
        checked = await check_cassette_file(path, prompt_cache=prompt_cache)
        calls += checked.calls
        problems.extend(checked.problems)
        if not checked.judged and not checked.problems:
            unjudged.append(path)
    return CheckReport(
        files=len(paths),
        responses=calls,
        problems=tuple(problems),
        unreadable=unreadable,
        cassettes=len(paths) - unreadable,
        unjudged=tuple(unjudged),
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
