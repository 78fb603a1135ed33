"""Cassettes on the command line: ``course check`` validates them, ``course serve`` finds them.

A file is a cassette when its top-level JSON object holds the cassette
version key (``course_cassette``); ``course check`` checks such a file as a
cassette whatever ``--wire`` says by default, and ``--wire cassette`` insists.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Final

__all__ = [
    "CASSETTE_VERSION_KEY",
    "CASSETTE_WIRE",
    "cassettes_under",
    "claims_to_be_a_cassette_file",
    "is_cassette_document",
]

if TYPE_CHECKING:
    from course_cassettes import Cassette

CASSETTE_WIRE = "cassette"
"""The ``--wire`` of ``course check`` for files that must all be cassettes."""

CASSETTE_VERSION_KEY: Final = "course_cassette"
"""``course_cassettes.CASSETTE_VERSION_KEY``, spelled here so that telling a fixture from a
cassette imports no cassette package (and so no HTTP stack); a test keeps the two equal."""

_VERSION_KEY = re.compile(rb'"' + re.escape(CASSETTE_VERSION_KEY.encode()) + rb'"\s*:')


def is_cassette_document(document: object) -> bool:
    """Whether a parsed JSON document claims to be a cassette (holds the version key)."""
    return type(document) is dict and CASSETTE_VERSION_KEY in document


def _claims_to_be_a_cassette(data: bytes) -> bool:
    try:
        return is_cassette_document(json.loads(data))
    except (ValueError, RecursionError):
        return False


def claims_to_be_a_cassette_file(path: str) -> bool:
    """Whether the file at ``path``, which strict JSON refused, is still a cassette to report on.

    It is when it parses (leniently: duplicate keys, ``NaN``) into an object
    with the version key, or, when it is not JSON at all (cut short, a
    stray character), when its text still holds the version key as a key:
    a cassette broken by hand is a broken cassette, not a broken fixture.
    """
    try:
        data = Path(path).read_bytes()
    except OSError:
        return False
    try:
        return is_cassette_document(json.loads(data))
    except (ValueError, RecursionError):
        return _VERSION_KEY.search(data) is not None


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
    a file that is not JSON at all (a cassette broken by hand cannot be
    told from anything else), and one that cannot be read as a cassette
    file (not a regular file, such as a named pipe that would never end;
    larger than ``course_cassettes.MAX_CASSETTE_BYTES``) is an error (the
    returned ``str``, naming the file and its problem). A folder whose name
    ends in ``.json`` is searched, not read.
    """
    from course_cassettes import Cassette, load_cassette, loads_cassette, read_cassette_file

    root = Path(target)
    if not root.is_dir():
        loaded = load_cassette(target)
        cassette = loaded.value_or(None)
        if isinstance(cassette, Cassette):
            return [(root.name, cassette)]
        return loaded.failure().message
    found: list[tuple[str, Cassette]] = []
    for path in sorted(root.rglob("*.json")):
        if path.is_dir():
            continue
        read = read_cassette_file(path)
        data = read.value_or(None)
        if data is None:
            return read.failure().message
        loaded = loads_cassette(data)
        cassette = loaded.value_or(None)
        if isinstance(cassette, Cassette):
            found.append((path.relative_to(root).as_posix(), cassette))
        elif not _is_other_json(data):
            return f"{path}: {loaded.failure().message}"
    if not found:
        return f"{target}: no cassette (a *.json file with a {CASSETTE_VERSION_KEY!r} key) found"
    return found
