"""The fields every Chat chunk repeats: ``id``, ``object``, ``created``, ``model``, and two more.

OpenAI gives every chunk of one response the same ``id`` and ``created``
(its reference says so), and the same ``object``, ``model``,
``system_fingerprint`` and ``service_tier``. `ChunkEnvelope` takes them from
the first chunk, checking each one's type, and holds every later chunk to
them; a field a chunk leaves out is the same as ``null``. A server whose
dialect declares ``created_varies`` (xAI, Ollama) stamps each chunk's
``created`` anew: there it must be a non-negative integer no earlier than
the chunk before's, and the first chunk's is kept.
"""

from __future__ import annotations

from typing import Any, Final, final

from course_protocol import is_blank
from course_provider_openai._failures import OpenAIFailures

__all__ = ["ChunkEnvelope"]

_CHUNK_OBJECT: Final = "chat.completion.chunk"
_FIRST_CHUNK: Final = object()
"""Equal to no chunk ``id``, so the first chunk always takes the checking path."""


def _text_or_null(
    failures: OpenAIFailures, chunk: dict[str, Any], key: str, index: int
) -> str | None:
    value = chunk.get(key)
    if value is not None and type(value) is not str:
        failures.invalid(index, key, "a string or null", value)
    return value


@final
class ChunkEnvelope:
    """The shared fields of one response's chunks, as its first chunk gave them.

    Each attribute is ``None`` until the first chunk (and when it left the
    field out); `check` reads each chunk's and raises through ``failures``.
    """

    __slots__ = (
        "_created_varies",
        "_expected_id",
        "_failures",
        "_latest",
        "created",
        "fingerprint",
        "id",
        "model",
        "object",
        "tier",
    )

    def __init__(self, failures: OpenAIFailures, *, created_varies: bool = False) -> None:
        self._failures = failures
        self._created_varies = created_varies
        self._latest: int | None = None
        """The latest ``created`` read: the first chunk's unless each chunk may carry its own."""
        self._expected_id: object = _FIRST_CHUNK
        self.id: str | None = None
        """The ``id``: the response's."""
        self.object: str | None = None
        self.created: int | None = None
        self.model: str | None = None
        self.fingerprint: str | None = None
        """The ``system_fingerprint``."""
        self.tier: str | None = None
        """The ``service_tier``."""

    def check(self, chunk: dict[str, Any], index: int) -> None:
        """Take the first chunk's fields, or hold chunk ``index`` to them.

        Raises ``VENDOR_INVALID_EVENT`` naming the field: in the first chunk,
        an ``id`` that is not non-blank text, an ``object`` other than
        ``chat.completion.chunk``, a ``created`` that is not a non-negative
        integer, another field that is not text or null; in a later one, a
        field that differs from the first chunk's (where ``created`` varies,
        a ``created`` that is not a non-negative integer or is earlier than
        the chunk before's).
        """
        if (
            chunk.get("id") != self._expected_id
            or chunk.get("model") != self.model
            or chunk.get("created") != self._latest
            or chunk.get("object") != self.object
            or chunk.get("system_fingerprint") != self.fingerprint
            or chunk.get("service_tier") != self.tier
        ):
            if self.id is None:
                self._first(chunk, index)
            else:
                self._differs(chunk, index)

    def _first(self, chunk: dict[str, Any], index: int) -> None:
        chunk_id = chunk.get("id")
        if type(chunk_id) is not str or is_blank(chunk_id):
            self._failures.invalid(index, "id", "a non-blank string", chunk_id)
        kind = chunk.get("object")
        if kind is not None and kind != _CHUNK_OBJECT:
            self._failures.invalid(index, "object", repr(_CHUNK_OBJECT), kind)
        created = chunk.get("created")
        if created is not None and (type(created) is not int or created < 0):
            self._failures.invalid(index, "created", "a non-negative integer", created)
        self.id = self._expected_id = chunk_id
        self.object = kind
        self.created = self._latest = created
        self.model = _text_or_null(self._failures, chunk, "model", index)
        self.fingerprint = _text_or_null(self._failures, chunk, "system_fingerprint", index)
        self.tier = _text_or_null(self._failures, chunk, "service_tier", index)

    def _differs(self, chunk: dict[str, Any], index: int) -> None:
        if self._created_varies:
            self._moved_on(chunk.get("created"), index)
        firsts = (
            ("id", self.id),
            ("model", self.model),
            ("created", self.created),
            ("object", self.object),
            ("system_fingerprint", self.fingerprint),
            ("service_tier", self.tier),
        )
        for key, first in firsts:
            if chunk.get(key) != first and not (key == "created" and self._created_varies):
                shown_first = "none" if first is None else repr(first)
                self._failures.fail_invalid(
                    f"{key} differs from the first chunk's ({shown_first})", index
                )

    def _moved_on(self, created: object, index: int) -> None:
        if type(created) is not int or created < 0:
            self._failures.invalid(index, "created", "a non-negative integer", created)
        latest = self._latest
        if latest is not None and created < latest:
            self._failures.fail_invalid(
                f"created {created} is earlier than the chunk before's ({latest})", index
            )
        self._latest = created
