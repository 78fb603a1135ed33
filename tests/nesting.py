"""Values nested deeper than any limit, built without recursion."""

from __future__ import annotations

__all__ = ["nested_dicts", "nested_lists"]


def nested_lists(depth: int) -> list[object]:
    """``depth`` lists, each holding the next; built without recursion."""
    root: list[object] = []
    current = root
    for _ in range(depth - 1):
        child: list[object] = []
        current.append(child)
        current = child
    return root


def nested_dicts(depth: int) -> dict[str, object]:
    """``depth`` dicts, each holding the next under key ``"a"``."""
    root: dict[str, object] = {}
    current = root
    for _ in range(depth - 1):
        child: dict[str, object] = {}
        current["a"] = child
        current = child
    return root
