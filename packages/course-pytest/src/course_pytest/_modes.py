"""Record modes, with the names pytest-recording and VCR.py users know, and what each one does."""

from __future__ import annotations

import shlex
from enum import StrEnum, unique
from typing import Literal

__all__ = ["Plan", "RecordMode", "how_to_extend", "how_to_record", "plan_for"]


@unique
class RecordMode(StrEnum):
    """What a test run does with cassettes (``--course-record-mode``); values never change."""

    NONE = "none"
    """Replay only: nothing reaches the network, and a missing cassette fails the test (CI)."""

    ONCE = "once"
    """Replay a cassette that exists; record one that does not."""

    NEW_EPISODES = "new_episodes"
    """Replay the recorded calls while they match; record the calls after them."""

    ALL = "all"
    """Record every cassette again, replacing what was there."""


Plan = Literal["replay", "record", "extend", "missing"]
"""What one test does: replay its cassette, record it, replay then record new
calls, or fail because the cassette it must replay does not exist."""


def plan_for(mode: RecordMode, exists: bool, *, replay_only: bool) -> Plan:
    """What a test does under ``mode`` when its cassette ``exists`` (or not).

    ``replay_only`` (a test that injects faults: a live call cannot be
    faulted) never records: it replays, or its cassette is missing.
    """
    if replay_only or mode is RecordMode.NONE:
        return "replay" if exists else "missing"
    if mode is RecordMode.ALL:
        return "record"
    if not exists:
        return "record"
    return "extend" if mode is RecordMode.NEW_EPISODES else "replay"


def how_to_record(node_id: str, *, replacing: bool = False) -> str:
    """The command that records the test ``node_id``'s cassette, shell-quoted, with why.

    ``replacing``: the cassette exists and cannot be used, so the command is
    ``all`` (``once`` keeps a cassette that exists). A parametrized test's
    id (``test_x[20 + 22]``) holds spaces and brackets a shell would split or
    expand: the command is quoted to be pasted as it is.
    """
    mode, what = (
        (RecordMode.ALL, "Record it again, replacing it,")
        if replacing
        else (RecordMode.ONCE, "Record it once")
    )
    return (
        f"{what} against the real API (its key in the environment):\n"
        f"    pytest --course-record-mode={mode.value} {shlex.quote(node_id)}"
    )


def how_to_extend(node_id: str) -> str:
    """One line: the command that records the calls of ``node_id`` past the recorded ones.

    For a replay asked for more calls than its cassette holds
    (``HTTP_RECORDING_EXHAUSTED``): ``new_episodes`` is the mode that adds
    calls to a cassette that exists (``once`` keeps it as it is).
    """
    return (
        "To record the calls past the recorded ones against the real API (its key in the "
        f"environment): pytest --course-record-mode={RecordMode.NEW_EPISODES.value} "
        f"{shlex.quote(node_id)}"
    )
