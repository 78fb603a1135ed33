"""Cassettes on the command line: ``course check`` validates them, ``course serve`` finds them.

A file is a cassette when its top-level JSON object holds the cassette
version key (``course_cassette``); ``course check`` checks such a file as a
cassette whatever ``--wire`` says by default, and ``--wire cassette`` insists.
"""

from __future__ import annotations

import json
from pathlib import Path

from course_cassettes import CASSETTE_VERSION_KEY, Cassette, loads_cassette

CASSETTE_WIRE = "cassette"
"""The ``--wire`` of ``course check`` for files that must all be cassettes."""


def is_cassette_document(document: object) -> bool:
    """Whether a parsed JSON document claims to be a cassette (holds the version key)."""
    return type(document) is dict and CASSETTE_VERSION_KEY in document


def _claims_to_be_a_cassette(data: bytes) -> bool:
    try:
        return is_cassette_document(json.loads(data))
    except (ValueError, RecursionError):
        return False


def _is_other_json(data: bytes) -> bool:
    try:
        return not is_cassette_document(json.loads(data))
    except (ValueError, RecursionError):
        return False


def cassettes_under(target: str) -> list[tuple[str, Cassette]] | str:
    """The cassettes ``course serve`` answers from, named for its reports; or why there are none.

    ``target`` is a cassette file, or a folder whose ``*.json`` files (at any
    depth, in name order) are read: JSON documents without the version key
    are not cassettes and are passed over; a cassette that cannot be used,
    and a file that is not JSON at all (a cassette broken by hand cannot be
    told from anything else), is an error (the returned ``str``, naming the
    file and its problem).
    """
    root = Path(target)
    if not root.is_dir():
        loaded = loads_cassette(root.read_bytes())
        cassette = loaded.value_or(None)
        if isinstance(cassette, Cassette):
            return [(root.name, cassette)]
        return f"{target}: {loaded.failure().message}"
    found: list[tuple[str, Cassette]] = []
    for path in sorted(root.rglob("*.json")):
        data = path.read_bytes()
        loaded = loads_cassette(data)
        cassette = loaded.value_or(None)
        if isinstance(cassette, Cassette):
            found.append((path.relative_to(root).as_posix(), cassette))
        elif not _is_other_json(data):
            return f"{path}: {loaded.failure().message}"
    if not found:
        return f"{target}: no cassette (a *.json file with a {CASSETTE_VERSION_KEY!r} key) found"
    return found
