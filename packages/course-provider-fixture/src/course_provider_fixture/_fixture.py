"""The snapshot of a fixture taken at construction: a finite queue of frozen responses.

The fixture is untrusted. Containers are read only through the base types'
own methods (``dict.items``, ``list.__iter__``, ``tuple.__iter__``), so an
overridden ``__getitem__``, ``get``, ``items``, ``keys``, ``__iter__`` or a
``__missing__`` hook never runs; array records are frozen with
``freeze_json`` so later changes to the caller's objects change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from returns.result import Failure, Result, Success

from course_protocol import JSON_MAX_DEPTH, JsonError, freeze_json, snapshot_json
from course_protocol.untrusted import (
    ABSENT,
    described,
    integral_number,
    sequence_snapshot,
    special_method,
    type_name,
)
from course_provider_fixture import _wire
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode

__all__ = [
    "FixtureSnapshot",
    "QueuedResponse",
    "is_flat_record",
    "parse_fixture",
    "snapshot_record",
]


@dataclass(frozen=True, slots=True)
class QueuedResponse:
    """One response of the fixture, ready to play.

    ``index`` is its position in the fixture's ``responses``. Exactly one of
    ``records`` (a deep snapshot of an array of records, see
    :func:`snapshot_record`) and ``source`` (an async iterable of records,
    iterated when the response is played) is not None. ``request`` is the
    frozen snapshot of the response's recorded request (its course JSON),
    when the fixture holds one and it was asked for.
    """

    index: int
    records: tuple[object, ...] | None
    source: object | None
    request: object | None = None


@dataclass(frozen=True, slots=True)
class FixtureSnapshot:
    """A validated schema-1 fixture: its responses in play order."""

    responses: tuple[QueuedResponse, ...]


class _InvalidFixtureError(Exception):
    """Carries one construction failure out of the walk; becomes a ``Failure``."""

    def __init__(self, path: str, reason: str, record_index: int | None = None) -> None:
        super().__init__(path, reason)
        self.error = FixtureProviderError(
            FixtureProviderErrorCode.PROVIDER_INVALID_FIXTURE,
            f"{path} {reason}",
            record_index=record_index,
            path=path,
        )


def _own_fields(value: object, path: str) -> dict[str, object]:
    """A plain copy of a ``dict`` (or subclass) read through ``dict.items`` only."""
    if not issubclass(type(value), dict):
        raise _InvalidFixtureError(path, f"must be an object, got {described(value)}")
    fields: dict[str, object] = {}
    for key, item in dict.items(cast(dict[object, object], value)):
        if type(key) is not str:
            raise _InvalidFixtureError(
                path, f"has a key of type {type_name(key)}; keys must be str"
            )
        fields[key] = item
    return fields


def is_flat_record(record: object) -> bool:
    """Whether ``record`` is an exact ``dict`` of exact ``str`` keys to flat values.

    A flat value is an exact ``str``, ``int`` or ``bool``, or ``None``: most
    records look like that. Types are compared by identity only (a set
    lookup would hash the type, and a hostile metaclass could answer), so no
    code of the record, its keys, its values or their types runs.
    """
    if type(record) is not dict:
        return False
    for key, value in record.items():
        kind = type(value)
        if type(key) is not str or (
            kind is not str and kind is not int and kind is not bool and value is not None
        ):
            return False
    return True


def snapshot_record(record: object, records_path: str, index: int) -> object | JsonError:
    """Deep-snapshot one untrusted record, returning the ``JsonError`` instead of raising.

    A flat record (see :func:`is_flat_record`) is copied into a new private
    ``dict`` (nothing else ever holds it, so it is as immutable as a
    ``frozendict`` and far cheaper to build). Everything else goes through
    ``snapshot_json``, which applies ``freeze_json``'s rules to any shape
    and returns ``frozendict`` objects and tuples; error paths start with
    ``records_path[index]``. A float is kept whatever its value, NaN and the
    infinities too, as the reference keeps the numbers ``JSON.parse`` gives
    it: the field that reads one judges it when the record plays.
    """
    if is_flat_record(record):
        return dict(cast(dict[str, object], record))
    # The record is one container around its values: Tool-call arguments may
    # nest JSON_MAX_DEPTH deep themselves, as the protocol allows them to.
    result = snapshot_json(record, f"{records_path}[{index}]", max_depth=JSON_MAX_DEPTH + 1)
    if isinstance(result, Failure):
        return cast(JsonError, result.failure())
    return result.unwrap()


# A course request wraps Tool-call arguments in 5 containers of its own.
_REQUEST_MAX_DEPTH = JSON_MAX_DEPTH + 5


def _recorded_request(fields: dict[str, object], path: str) -> object:
    request = fields.get(_wire.REQUEST_KEY, ABSENT)
    if request is ABSENT:
        raise _InvalidFixtureError(
            path,
            f"has no recorded {_wire.REQUEST_KEY} to match (record the fixture with "
            "FixtureRecorder, or construct the adapter without match_requests)",
        )
    frozen = freeze_json(request, f"{path}.{_wire.REQUEST_KEY}", max_depth=_REQUEST_MAX_DEPTH)
    if isinstance(frozen, Failure):
        error = cast(JsonError, frozen.failure())
        raise _InvalidFixtureError(error.path, error.message)
    return frozen.unwrap()


def _response(value: object, index: int, *, with_request: bool) -> QueuedResponse:
    path = f"{_wire.RESPONSES_KEY}[{index}]"
    fields = _own_fields(value, path)
    request = _recorded_request(fields, path) if with_request else None
    records = fields.get(_wire.RECORDS_KEY, ABSENT)
    records_path = f"{path}.{_wire.RECORDS_KEY}"
    if records is ABSENT:
        raise _InvalidFixtureError(path, f"has no {_wire.RECORDS_KEY}")
    items = sequence_snapshot(records)
    if items is None:
        if special_method(records, "__aiter__") is not None:
            return QueuedResponse(index, None, records, request)
        raise _InvalidFixtureError(
            records_path,
            f"must be an array or an async iterable of records, got {described(records)}",
        )
    frozen: list[object] = []
    for record_index, record in enumerate(items):
        value = snapshot_record(record, records_path, record_index)
        if isinstance(value, JsonError):
            raise _InvalidFixtureError(value.path, value.message, record_index)
        frozen.append(value)
    return QueuedResponse(index, tuple(frozen), None, request)


def parse_fixture(
    fixture: object, *, with_requests: bool = False
) -> Result[FixtureSnapshot, FixtureProviderError]:
    """Validate and snapshot an untrusted schema-1 fixture.

    ``fixture`` must be an object whose ``schemaVersion`` is the number
    ``1`` (the int, or a float equal to it such as ``1.0``; not ``True``),
    as the reference reads it, and whose ``responses`` is an array of objects, each with
    ``records``: an array (snapshotted deeply, now) or an async iterable
    (its ``__aiter__`` is looked up now and called when the response is
    played). Unknown keys are ignored; so is a response's recorded
    ``request``, unless ``with_requests`` asks for it (then every response
    must hold one, as JSON).

    Returns ``Failure`` with ``PROVIDER_INVALID_FIXTURE`` and the path of the
    first bad value (``record_index`` set when one array record is at
    fault). Never raises.
    """
    try:
        fields = _own_fields(fixture, "fixture")
        version = fields.get(_wire.SCHEMA_VERSION_KEY, ABSENT)
        if integral_number(version) != _wire.SUPPORTED_SCHEMA_VERSION:
            raise _InvalidFixtureError(
                _wire.SCHEMA_VERSION_KEY,
                f"must be {_wire.SUPPORTED_SCHEMA_VERSION}, got {described(version)}",
            )
        responses = fields.get(_wire.RESPONSES_KEY, ABSENT)
        items = sequence_snapshot(responses)
        if items is None:
            raise _InvalidFixtureError(
                _wire.RESPONSES_KEY, f"must be an array, got {described(responses)}"
            )
        return Success(
            FixtureSnapshot(
                tuple(
                    _response(item, index, with_request=with_requests)
                    for index, item in enumerate(items)
                )
            )
        )
    except _InvalidFixtureError as invalid:
        return Failure(invalid.error)
