"""claim_iterator_once: a process-wide registry of iterator objects already handed out."""

from __future__ import annotations

import weakref
from collections.abc import Callable

__all__ = ["claim_iterator_once"]

# Keyed by id() so an object's own __eq__/__hash__ is never called. A weakly
# referenceable object is held by a weak reference whose callback drops the entry
# when the object dies (so a later object reusing the id starts unclaimed); any
# other object is held strongly, because otherwise its id could be reused by a
# new object that would then look claimed. dict.setdefault is the atomic
# check-and-claim, so no lock is needed (and none can deadlock with a weakref
# callback run by the garbage collector in the middle of a claim).
_claimed: dict[int, object] = {}


def claim_iterator_once(obj: object) -> bool:
    """Claim ``obj`` for one consumer: True the first time, False ever after.

    Identity based and process-wide, so one physical iterator can never feed two
    consumers, whoever asks. Objects that support weak references (async
    generators, most class instances) are remembered until they are
    garbage-collected. Objects that do not (an ``int``, a class with ``__slots__``
    and no ``__weakref__``) are kept alive by the registry for the rest of the
    process: that is the price of never mistaking a new object for a claimed one.
    Never calls a method of ``obj`` and never raises.
    """
    key = id(obj)
    if key in _claimed:
        return False
    entry: object
    try:
        entry = weakref.ref(obj, _forget(key))
    except TypeError:
        entry = _Strong(obj)
    return _claimed.setdefault(key, entry) is entry


class _Strong:
    """Keeps an object that cannot be weakly referenced alive while it is claimed."""

    __slots__ = ("obj",)

    def __init__(self, obj: object) -> None:
        self.obj = obj


def _forget(key: int) -> Callable[[weakref.ref[object]], None]:
    def forget(ref: weakref.ref[object]) -> None:
        if _claimed.get(key) is ref:
            del _claimed[key]

    return forget
