"""What a double records of one call: its request and the options in effect, `ModelCall`.

Re-exported by the public module ``course_protocol.calls``.
"""

from __future__ import annotations

import keyword
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias, cast

from frozendict import frozendict
from returns.result import Failure

from course_protocol._json import freeze_json_keeping
from course_protocol._messages import CourseModelRequest
from course_protocol.slots import slot_setter
from course_protocol.untrusted import type_name

__all__ = ["NO_OPTIONS", "CallOptions", "ModelCall", "call_options"]

CallOptions: TypeAlias = "frozendict[str, object]"
"""The options a double records for a call: name to immutable value (see `call_options`)."""

NO_OPTIONS: CallOptions = frozendict()
"""The options of a call made with none: what a double records unless told otherwise."""


def call_options(changes: Mapping[str, object], base: CallOptions = NO_OPTIONS) -> CallOptions:
    """``base`` with ``changes`` applied (each replaces the value of its name), each value checked.

    What a double records in place of a vendor model's configuration: it
    knows no vendor, so it checks no name against a configuration's fields
    and no value against an option's range, only that the record can never
    change afterwards. A name must be a ``str`` that is an identifier and
    not a Python keyword (it stands for a configuration field). A value
    must be immutable: a JSON value (``None``, ``bool``, ``int``, a finite
    ``float``, ``str``, and lists, tuples and dicts of those with ``str``
    keys, within ``JSON_MAX_DEPTH``) is snapshotted as ``freeze_json``
    snapshots it (a ``dict`` becomes a ``frozendict``, a ``list`` a
    ``tuple``); any other value, at the top or inside a list, tuple or dict,
    must be hashable (an enum member, a frozen dataclass such as a Tool
    spec, a ``frozenset``) and is kept as given: Python's hash contract is
    that such a value never changes.

    Raises ``TypeError`` naming the option (``options.temperature``) for a
    name that is not an identifier, and for a value that is mutable
    (unhashable), not finite, cyclic or nested too deep; ``base`` and the
    caller's objects are then left as they were. An exception a value's own
    ``__hash__`` raises, other than ``TypeError``, propagates.
    """
    # A dict subclass is read through dict's own method: what is checked is what is kept.
    items = (
        dict.items(cast("dict[str, object]", changes))
        if issubclass(type(changes), dict)
        else changes.items()
    )
    merged = dict(base)
    for name, value in items:
        if type(name) is not str or not name.isidentifier() or keyword.iskeyword(name):
            shown = repr(name) if type(name) is str else type_name(name)
            raise TypeError(
                f"options: the name {shown} is not an identifier (an option stands for "
                "a configuration field)"
            )
        frozen = freeze_json_keeping(value, f"options.{name}", _is_hashable)
        if isinstance(frozen, Failure):
            error = frozen.failure()
            raise TypeError(
                f"{error.path} {error.message} (an option's value is JSON, which is "
                "copied, or an immutable value such as an enum member or a frozen "
                "dataclass, kept as given: anything unhashable is mutable)"
            )
        merged[name] = frozen.unwrap()
    return frozendict(merged)


def _is_hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class ModelCall:
    """One call a double accepted: the request, and the options in effect for it.

    ``options`` is empty for a double made by its constructor; a double
    derived with ``with_config(...)`` records its own (``call.options
    ["temperature"]``). Immutable: the constructor checks ``request``
    (exactly a ``CourseModelRequest``, ``TypeError`` otherwise) and
    snapshots ``options`` through `call_options`, with its errors.
    """

    request: CourseModelRequest
    options: CallOptions = NO_OPTIONS

    def __post_init__(self) -> None:
        if type(self.request) is not CourseModelRequest:
            raise TypeError(
                f"request: expected a CourseModelRequest, got {type_name(self.request)}"
            )
        options: object = self.options
        if not isinstance(options, Mapping):
            raise TypeError(f"options: expected a mapping, got {type_name(options)}")
        if options is not NO_OPTIONS:
            _set_options(self, call_options(options))


_set_options = slot_setter(ModelCall, "options")
