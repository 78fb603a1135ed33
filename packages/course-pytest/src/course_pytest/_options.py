"""What ``@pytest.mark.course_cassette(...)`` says, checked, and where the cassette lives."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import final

from course_cassettes import Redaction, ReplayFault, RequestMatching
from course_http import Chunking
from course_protocol.untrusted import is_blank

__all__ = [
    "CASSETTES_FOLDER",
    "CassetteOptions",
    "cassette_path",
    "cassettes_folder",
    "derived_name",
    "options_from_marker",
]

CASSETTES_FOLDER = "cassettes"
"""The folder, next to each test module, that holds its cassettes (one subfolder per module)."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_KNOWN = frozenset(
    {
        "name",
        "match",
        "ignore",
        "redact_fields",
        "redact_paths",
        "keep_headers",
        "faults",
        "chunking",
        "strict",
        "wire",
        "prompt_cache",
        "prompt_cache_exempt",
    }
)
_OWN = frozenset({"name", "prompt_cache_exempt"})
"""The marker's keywords a suite's defaults cannot hold: they belong to one test."""


@final
@dataclass(frozen=True, slots=True)
class CassetteOptions:
    """The options of one test's cassette, as its marker gives them.

    ``matching`` is ``None`` when the marker says nothing about matching (the
    cassette's own rule then applies on replay). ``prompt_cache`` says whether
    the test fails when a call of its cassette moved the request prefix its
    wire cached for an earlier call; ``prompt_cache_exempt`` is why a test is
    left out of a suite's prompt-cache check (``None``: it is not).
    ``wire`` is the wire the test's calls speak when their sender names none
    (an official SDK's): kept with each call recorded, and on replay it
    judges the calls that record no wire (``None``: the cassette's readers
    tell it from each call's host and path).
    """

    name: str
    matching: RequestMatching | None
    redaction: Redaction
    keep_headers: tuple[str, ...]
    faults: Mapping[int, ReplayFault]
    chunking: Chunking
    strict: bool = True
    wire: str | None = None
    prompt_cache: bool = False
    prompt_cache_exempt: str | None = None


def options_from_marker(
    args: tuple[object, ...],
    kwargs: Mapping[str, object],
    test_name: str,
    suite: Mapping[str, object] | None = None,
) -> CassetteOptions:
    """The `CassetteOptions` of a ``course_cassette`` marker on the test ``test_name``.

    ``test_name`` is the test's node id after its file (``TestChat::test_x[a]``).
    The name is the marker's one positional argument (or ``name=``), or
    `derived_name`. ``suite`` holds the suite's own defaults (the
    ``course_cassette_config`` fixture): the marker's options, the same
    keywords but ``name`` and ``prompt_cache_exempt``, win over them one by
    one. A test leaves a suite's ``prompt_cache=True`` only with
    ``prompt_cache_exempt="<why>"`` (a reason that is not blank), never with
    ``prompt_cache=False``. Raises ``TypeError`` or ``ValueError`` (saying
    which option) for anything else.
    """
    own = kwargs
    if suite:
        if not isinstance(suite, Mapping):
            raise TypeError(
                "the course_cassette_config fixture must return a dict of course_cassette "
                f"options, not {type(suite).__name__}"
            )
        unknown_defaults = sorted(str(key) for key in set(suite) - (_KNOWN - _OWN))
        if unknown_defaults:
            raise TypeError(
                f"the course_cassette_config fixture has unknown options {unknown_defaults}; "
                f"it takes {sorted(_KNOWN - _OWN)} (a name and an exemption are a test's own)"
            )
        if suite.get("prompt_cache") is True and kwargs.get("prompt_cache") is False:
            raise ValueError(
                "course_cassette(prompt_cache=False) cannot leave the suite's prompt-cache "
                "check: say why with prompt_cache_exempt='...'"
            )
        kwargs = {**suite, **kwargs}
    unknown = sorted(set(kwargs) - _KNOWN)
    if unknown:
        raise TypeError(
            f"course_cassette() got unknown options {unknown}; it takes {sorted(_KNOWN)}"
        )
    if len(args) > 1:
        raise TypeError("course_cassette() takes at most one positional argument, the name")
    if args and "name" in kwargs:
        raise TypeError("course_cassette() got its name given twice (by position and name=)")
    given = args[0] if args else kwargs.get("name")
    name = derived_name(test_name) if given is None else given
    if type(name) is not str or not _NAME.fullmatch(name):
        raise ValueError(
            f"course_cassette name {name!r} must be letters, digits, '.', '_' or '-' "
            "(it is a file name)"
        )
    matching = None
    if "match" in kwargs or "ignore" in kwargs:
        on = kwargs.get("match", "request")
        ignore = kwargs.get("ignore", ())
        matching = RequestMatching(on, ignore=ignore)  # type: ignore[arg-type]
    redaction = Redaction(
        fields=kwargs.get("redact_fields", ()),  # type: ignore[arg-type]
        paths=kwargs.get("redact_paths", ()),  # type: ignore[arg-type]
    )
    keep = kwargs.get("keep_headers", ())
    if not isinstance(keep, (list, tuple)) or not all(type(item) is str for item in keep):
        raise TypeError("course_cassette(keep_headers=...) must be a list of header names")
    faults = kwargs.get("faults", {})
    if not isinstance(faults, Mapping):
        raise TypeError("course_cassette(faults=...) must map call indexes to ReplayFault")
    chunking = kwargs.get("chunking", "whole")
    if chunking not in ("whole", "bytes", "random"):
        raise ValueError("course_cassette(chunking=...) must be 'whole', 'bytes' or 'random'")
    strict = kwargs.get("strict", True)
    if type(strict) is not bool:
        raise TypeError("course_cassette(strict=...) must be True or False")
    wire = kwargs.get("wire")
    if wire is not None and type(wire) is not str:
        raise TypeError(
            f"course_cassette(wire=...) must be a wire name (a str), not {type(wire).__name__}"
        )
    prompt_cache, exempt = _prompt_cache(kwargs, own)
    return CassetteOptions(
        name=name,
        matching=matching,
        redaction=redaction,
        keep_headers=tuple(keep),
        faults=dict(faults),
        chunking=chunking,
        strict=strict,
        wire=wire,
        prompt_cache=prompt_cache,
        prompt_cache_exempt=exempt,
    )


def _prompt_cache(
    kwargs: Mapping[str, object], own: Mapping[str, object]
) -> tuple[bool, str | None]:
    """Whether the prompt-cache check runs, and the exemption's reason (``own``: the marker's)."""
    prompt_cache = kwargs.get("prompt_cache", False)
    if type(prompt_cache) is not bool:
        raise TypeError("course_cassette(prompt_cache=...) must be True or False")
    if "prompt_cache_exempt" not in kwargs:
        return prompt_cache, None
    exempt = kwargs["prompt_cache_exempt"]
    if type(exempt) is not str:
        raise TypeError(
            "course_cassette(prompt_cache_exempt=...) must be a str saying why the test "
            f"moves its prompt cache, not {type(exempt).__name__}"
        )
    if is_blank(exempt):
        raise ValueError("course_cassette(prompt_cache_exempt=...) must say why, not be blank")
    if own.get("prompt_cache") is True:
        raise ValueError(
            "course_cassette(prompt_cache=True, prompt_cache_exempt=...) contradict each other"
        )
    return False, exempt


def derived_name(test_name: str) -> str:
    """The cassette name of a test no marker names: never the same for two tests of a module.

    Classes and the test are joined with ``.`` (``TestChat.test_x``); a
    name with characters unsafe in a file name (letters outside ASCII:
    ``test_é``) has them made safe and is followed by eight hex digits of
    its hash (``test_-`` and the digits), so ``test_é`` and ``test_ü``
    differ; a parameter id is added after ``-`` as it is when it is safe for a file
    name (``test_x-1``), or made safe and followed by eight hex digits of its
    hash (``test_x[a b]`` is ``test_x-a-b-`` and the digits), since ``a b``
    and ``a-b`` would read the same. A name longer than 100 characters (a
    long prompt as the id) is cut, and ends with the hash of the whole test name.
    """
    scope, bracket, rest = test_name.partition("[")
    dotted = scope.replace("::", ".")
    base = _UNSAFE.sub("-", dotted).strip("-.")
    if base != dotted:
        # Letters outside ASCII (test_é, test_ü) all read "-": the hash keeps
        # such names apart; a plain ASCII name, untouched, stays as it was.
        base = f"{base}-{_digest(dotted)}" if base else _digest(dotted)
    if not bracket:
        return _shortened(base, test_name)
    parameters = rest[:-1] if rest.endswith("]") else rest
    safe = _UNSAFE.sub("-", parameters).strip("-.")
    if safe and safe == parameters:
        return _shortened(f"{base}-{safe}", test_name)
    digest = _digest(parameters)
    return _shortened(f"{base}-{safe}-{digest}" if safe else f"{base}-{digest}", test_name)


# File systems take 255 bytes per name; a name this long is unreadable anyway.
_LONGEST_NAME = 100


def _shortened(name: str, test_name: str) -> str:
    if len(name) <= _LONGEST_NAME:
        return name
    return f"{name[: _LONGEST_NAME - 9].rstrip('-.')}-{_digest(test_name)}"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def cassettes_folder(test_file: Path) -> Path:
    """Where a test module's cassettes live by default: ``<test folder>/cassettes/<module>``."""
    return test_file.parent / CASSETTES_FOLDER / test_file.stem


def cassette_path(folder: Path, name: str) -> Path:
    """``<folder>/<name>.json``: the cassette ``name`` in the test's cassettes folder."""
    return folder / f"{name}.json"
