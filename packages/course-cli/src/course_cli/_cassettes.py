"""Cassettes on the command line: ``course check`` validates them, ``course serve`` finds them.

A file is a cassette when its top-level JSON object holds the cassette
version key (``course_cassette``); ``course check`` checks such a file as a
cassette whatever ``--wire`` says by default, and ``--wire cassette`` insists.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from course_cassettes import CASSETTE_VERSION_KEY, Cassette, loads_cassette, parse_cassette
from course_cli._problems import Problem
from course_http import VendorError

CASSETTE_WIRE = "cassette"
"""The ``--wire`` of ``course check`` for files that must all be cassettes."""

_CALL_PATH = re.compile(r"calls\[(\d+)\]")


def is_cassette_document(document: object) -> bool:
    """Whether a parsed JSON document claims to be a cassette (holds the version key)."""
    return type(document) is dict and CASSETTE_VERSION_KEY in document


def cassette_problem(path: str, error: VendorError) -> Problem:
    """The problem line of a cassette that cannot be used; its call is read from the path."""
    found = _CALL_PATH.match(error.message)
    call = int(found.group(1)) if found else None
    return Problem(path, call, None, error.code.value, error.message)


def check_cassette_document(path: str, document: object) -> tuple[int, Problem | None]:
    """How many calls the cassette ``document`` of ``path`` holds, and its first problem."""
    parsed = parse_cassette(document)
    cassette = parsed.value_or(None)
    if isinstance(cassette, Cassette):
        return len(cassette.calls), None
    return 0, cassette_problem(path, parsed.failure())


def check_cassette_file(path: str) -> tuple[int, Problem | None]:
    """How many calls the cassette file at ``path`` holds, and its first problem (strict JSON)."""
    loaded = loads_cassette(Path(path).read_bytes())
    cassette = loaded.value_or(None)
    if isinstance(cassette, Cassette):
        return len(cassette.calls), None
    return 0, cassette_problem(path, loaded.failure())


def claims_to_be_a_cassette_file(path: str) -> bool:
    """Whether the file at ``path`` parses (leniently) into a document with the version key.

    For a file strict JSON refuses (duplicate keys, ``NaN``): it is still
    a cassette to report on, not a fixture.
    """
    try:
        return _claims_to_be_a_cassette(Path(path).read_bytes())
    except OSError:
        return False


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
