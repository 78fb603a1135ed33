"""The plugin's decisions, in-process: what each record mode does, and what a marker may say."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from course_cassettes import Redaction, ReplayFault, RequestMatching
from course_pytest import CASSETTES_FOLDER, RecordMode
from course_pytest._modes import how_to_record, plan_for
from course_pytest._options import cassette_path, cassettes_folder, options_from_marker


@pytest.mark.parametrize(
    ("mode", "exists", "replay_only", "plan"),
    [
        (RecordMode.NONE, True, False, "replay"),
        (RecordMode.NONE, False, False, "missing"),
        (RecordMode.ONCE, True, False, "replay"),
        (RecordMode.ONCE, False, False, "record"),
        (RecordMode.NEW_EPISODES, True, False, "extend"),
        (RecordMode.NEW_EPISODES, False, False, "record"),
        (RecordMode.ALL, True, False, "record"),
        (RecordMode.ALL, False, False, "record"),
        (RecordMode.ALL, True, True, "replay"),
        (RecordMode.ONCE, False, True, "missing"),
    ],
)
def test_each_record_mode_replays_records_or_fails_as_documented(
    mode: RecordMode, exists: bool, replay_only: bool, plan: str
) -> None:
    assert plan_for(mode, exists, replay_only=replay_only) == plan


def test_the_mode_names_are_the_ones_vcr_users_know() -> None:
    assert [mode.value for mode in RecordMode] == ["none", "once", "new_episodes", "all"]


def test_a_marker_gives_the_name_matching_redaction_and_faults() -> None:
    fault = ReplayFault.drop_after(1)
    options = options_from_marker(
        ("answer",),
        {
            "ignore": ["metadata.user_id"],
            "redact_fields": ["user_id"],
            "keep_headers": ["x-thing"],
            "faults": {0: fault},
            "chunking": "bytes",
        },
        "test_x",
    )

    assert options.name == "answer"
    assert options.matching == RequestMatching(ignore=["metadata.user_id"])
    assert options.redaction == Redaction(fields=["user_id"])
    assert (options.keep_headers, options.faults, options.chunking) == (
        ("x-thing",),
        {0: fault},
        "bytes",
    )


def test_the_name_may_be_given_by_keyword_as_the_marker_documents_it() -> None:
    assert options_from_marker((), {"name": "answer"}, "test_x").name == "answer"
    assert options_from_marker((), {"name": None}, "test_x").name == "test_x", "the default"
    with pytest.raises(TypeError, match="name given twice"):
        options_from_marker(("answer",), {"name": "answer"}, "test_x")


def test_without_a_marker_the_cassette_is_named_after_the_test_and_keeps_its_own_matching() -> None:
    options = options_from_marker((), {}, "test_sum[20-22]")

    assert options.name == "test_sum-20-22"
    assert options.matching is None
    assert cassette_path(cassettes_folder(Path("/p/tests/test_agent.py")), options.name) == Path(
        f"/p/tests/{CASSETTES_FOLDER}/test_agent/test_sum-20-22.json"
    )


def test_tests_of_one_module_never_share_a_cassette_they_did_not_name() -> None:
    tests = [
        "test_sum",
        "test_sum[20 + 22]",
        "test_sum[20 - 22]",
        "test_sum[20-22]",
        "test_sum[]",
        "TestAnthropic::test_sum",
        "TestOpenAI::test_sum",
        "TestOpenAI::TestChat::test_sum[1]",
        "test_é",
        "test_ü",
        "test_e",
        "test_",
        "test_é[1]",
        "test_ü[1]",
        "TestÉ::test_sum",
        "TestÜ::test_sum",
    ]
    names = [options_from_marker((), {}, test).name for test in tests]

    assert len(set(names)) == len(names), names
    assert names[0] == "test_sum"
    assert names[5:8] == [
        "TestAnthropic.test_sum",
        "TestOpenAI.test_sum",
        "TestOpenAI.TestChat.test_sum-1",
    ]
    assert names[10:12] == ["test_e", "test_"], "plain ASCII names are as they always were"
    assert re.fullmatch(r"test_-[0-9a-f]{8}", names[8]), names[8]
    assert re.fullmatch(r"test_-[0-9a-f]{8}-1", names[12]), names[12]
    assert names[1].startswith("test_sum-20-22-")
    assert options_from_marker((), {}, "test_sum[20 + 22]").name == names[1], "stable"


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        ((), {"mtach": "order"}, TypeError, "unknown options \\['mtach'\\]"),
        (("a", "b"), {}, TypeError, "at most one positional"),
        (("../up",), {}, ValueError, "must be letters, digits"),
        ((3,), {}, ValueError, "must be letters, digits"),
        ((), {"match": "fuzzy"}, ValueError, "RequestMatching.on"),
        ((), {"match": "order", "ignore": ["x"]}, ValueError, "compares nothing"),
        ((), {"faults": [ReplayFault.cut_after(1)]}, TypeError, "must map call indexes"),
        ((), {"chunking": "lines"}, ValueError, "chunking"),
        ((), {"keep_headers": "x"}, TypeError, "keep_headers"),
        ((), {"redact_paths": ["a..b"]}, ValueError, "JSON path"),
    ],
)
def test_a_marker_that_says_something_wrong_is_refused_naming_the_option(
    args: tuple[object, ...], kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        options_from_marker(args, kwargs, "test_x")


def test_a_long_parameter_id_gives_a_name_a_file_system_takes() -> None:
    prompts = ["Summarise this report. " * 20, "Summarise this report. " * 20 + "Briefly."]
    names = [options_from_marker((), {}, f"test_summary[{prompt}]").name for prompt in prompts]

    assert all(len(f"{name}.json".encode()) <= 128 for name in names), names
    assert names[0] != names[1]
    assert all(name.startswith("test_summary-Summarise-this-report") for name in names)


def test_the_command_that_records_a_missing_cassette_can_be_pasted_into_a_shell() -> None:
    command = how_to_record("tests/test_agent.py::test_sum[20 + 22]").splitlines()[-1].strip()

    assert shlex.split(command) == [
        "pytest",
        "--course-record-mode=once",
        "tests/test_agent.py::test_sum[20 + 22]",
    ]
    assert how_to_record("tests/t.py::test_x").endswith(
        "--course-record-mode=once tests/t.py::test_x"
    )


def test_a_marker_turns_the_prompt_cache_check_on_and_an_exemption_says_why() -> None:
    assert options_from_marker((), {}, "test_x").prompt_cache is False
    on = options_from_marker((), {"prompt_cache": True}, "test_x")
    assert (on.prompt_cache, on.prompt_cache_exempt) == (True, None)
    suite = {"prompt_cache": True}
    assert options_from_marker((), {}, "test_x", suite).prompt_cache is True
    exempt = options_from_marker((), {"prompt_cache_exempt": "swaps the model"}, "test_x", suite)
    assert (exempt.prompt_cache, exempt.prompt_cache_exempt) == (False, "swaps the model")


@pytest.mark.parametrize(
    ("kwargs", "suite", "error", "message"),
    [
        ({"prompt_cache": "yes"}, None, TypeError, r"prompt_cache=\.\.\.\) must be True or False"),
        ({"prompt_cache_exempt": 1}, None, TypeError, "must be a str saying why"),
        ({"prompt_cache_exempt": " \u3000\n"}, None, ValueError, "must say why, not be blank"),
        (
            {"prompt_cache": True, "prompt_cache_exempt": "why"},
            None,
            ValueError,
            "contradict each other",
        ),
        ({"prompt_cache": False}, {"prompt_cache": True}, ValueError, "cannot leave the suite's"),
        (
            {},
            {"prompt_cache_exempt": "why"},
            TypeError,
            "unknown options \\['prompt_cache_exempt'\\]",
        ),
        ({}, {"prompt_cache": 1}, TypeError, r"prompt_cache=\.\.\.\) must be True or False"),
    ],
)
def test_a_prompt_cache_option_that_says_something_wrong_is_refused(
    kwargs: dict[str, object],
    suite: dict[str, object] | None,
    error: type[Exception],
    message: str,
) -> None:
    with pytest.raises(error, match=message):
        options_from_marker((), kwargs, "test_x", suite)
