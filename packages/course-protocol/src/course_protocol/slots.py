"""How a frozen, slotted value class stores its fields in its own constructor: `slot_setter`.

Every course value class is a frozen dataclass with ``slots=True`` whose
constructor checks its arguments and then stores them. A frozen dataclass
refuses ``setattr``; the slot's own descriptor still stores a value, and
calling it directly skips the generic attribute lookup on a path some
classes take once per streamed chunk. One idiom in every package: a
module-level setter per field, made right after the class.

A public module: the other course packages import it as ``course_protocol.slots``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

__all__ = ["slot_setter"]


def slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """How a frozen, slotted class's own constructor stores field ``name``.

    The result is called as ``set_name(instance, value)``. It works for
    instances of ``cls``'s subclasses too (the slot is inherited). Raises
    ``KeyError`` when ``cls`` itself declares no slot ``name``.
    """
    return cast(Callable[[Any, Any], None], cls.__dict__[name].__set__)
