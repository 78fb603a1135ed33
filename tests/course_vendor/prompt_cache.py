"""Cassette calls for the prompt-cache tests: request bodies in order, and the moves they make."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from frozendict import frozendict

from course_http import RecordedRequest
from course_protocol import JsonObject, freeze_json_object
from course_vendor import prompt_cache_moves

__all__ = ["moves_of", "recorded"]


def recorded(path: str, body: Mapping[str, object], *, frozen: bool = True) -> RecordedRequest:
    """A POST to ``path`` with ``body`` as a cassette holds it (frozen JSON, or as given)."""
    held = freeze_json_object(body).unwrap() if frozen else cast("JsonObject", body)
    return RecordedRequest("POST", path, held, frozendict())


def moves_of(path: str, *bodies: Mapping[str, object]) -> list[str]:
    """The message of each move `prompt_cache_moves` finds in calls to ``path`` of ``bodies``."""
    return [move.message for move in prompt_cache_moves([recorded(path, b) for b in bodies])]
