"""The cassette file: readable, diffable, exact, versioned, and read strictly."""

from __future__ import annotations

import base64
import copy
import errno
import gzip
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from frozendict import frozendict
from hypothesis import given
from hypothesis import strategies as st

from course_cassettes import (
    CASSETTE_VERSION,
    CASSETTE_VERSION_KEY,
    Cassette,
    CassetteCall,
    Redaction,
    RequestMatching,
    cassette_to_json,
    dumps_cassette,
    load_cassette,
    loads_cassette,
    parse_cassette,
    write_cassette,
)
from course_cassettes._cassette_json import body_lines
from course_http import RecordedRequest, RecordedResponse, VendorErrorCode
from tests.course_cassettes.cassettes import call, cassette

SSE = {"content-type": "text/event-stream"}
TRANSCRIPTS = Path(__file__).resolve().parents[2] / ".." / "shared" / "provider-transcripts"
SHARED_BODIES = sorted(TRANSCRIPTS.glob("*/*.sse")) + sorted(TRANSCRIPTS.glob("*/error-*.json"))

ANSWER = (
    b'event: message_start\ndata: {"type":"message_start"}\n\n'
    b'event: content_block_delta\ndata: {"type":"content_block_delta","text":"h\xc3\xa9"}\n\n'
)


def sample() -> Cassette:
    return cassette(
        call(
            {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": True},
            RecordedResponse(200, SSE, ANSWER),
            headers={"anthropic-version": "2023-06-01"},
        ),
        call({"model": "m"}, RecordedResponse(429, {"retry-after": "2"}, b'{"error":{}}')),
        matching=RequestMatching(ignore=["metadata.user_id"]),
        redaction=Redaction(fields=["user_id"], paths=["messages[*].id"]),
    )


def test_the_file_holds_requests_as_json_and_sse_bodies_as_lines_in_the_documented_order() -> None:
    document = json.loads(dumps_cassette(sample()))

    assert list(document) == [CASSETTE_VERSION_KEY, "matching", "redaction", "calls"]
    assert document[CASSETTE_VERSION_KEY] == CASSETTE_VERSION == 2
    assert document["matching"] == {"on": "request", "ignore": ["metadata.user_id"]}
    assert document["redaction"] == {"fields": ["user_id"], "paths": ["messages[*].id"]}
    first = document["calls"][0]
    assert list(first) == ["request", "response"]
    assert list(first["request"]) == ["method", "path", "headers", "body"]
    assert first["request"]["body"]["messages"] == [{"role": "user", "content": "hi"}]
    assert list(first["response"]) == ["status", "headers", "end", "body"]
    assert first["response"]["body"] == [
        "event: message_start\n",
        'data: {"type":"message_start"}\n',
        "\n",
        "event: content_block_delta\n",
        'data: {"type":"content_block_delta","text":"hé"}\n',
        "\n",
    ]
    assert first["response"]["end"] == "complete"


def test_the_text_is_stable_indented_utf8_ending_in_one_newline() -> None:
    text = dumps_cassette(sample())

    assert text.endswith("}\n")
    assert not text.endswith("\n\n")
    assert '\n  "calls": [\n' in text
    assert "hé" in text, "non-ASCII text stays readable"
    assert dumps_cassette(loads_cassette(text).unwrap()) == text


def test_header_names_are_written_sorted_however_the_cassette_was_built() -> None:
    built = sample()
    shuffled = Cassette(
        [
            CassetteCall(
                RecordedRequest(
                    method=recorded.request.method,
                    path=recorded.request.path,
                    body=recorded.request.body,
                    headers=frozendict({"x-b": "2", "accept": "*/*", "x-a": "1"}),
                ),
                RecordedResponse(200, {"retry-after": "1", "content-type": "text/plain"}),
            )
            for recorded in built.calls
        ]
    )
    first = json.loads(dumps_cassette(shuffled))["calls"][0]

    assert list(first["request"]["headers"]) == ["accept", "x-a", "x-b"]
    assert list(first["response"]["headers"]) == ["content-type", "retry-after"]


def test_a_changed_prompt_is_a_one_line_diff_of_json() -> None:
    before = dumps_cassette(sample()).splitlines()
    changed = cassette_to_json(sample())
    changed["calls"][0]["request"]["body"]["messages"][0]["content"] = "hello"  # type: ignore[index]
    after = dumps_cassette(parse_cassette(changed).unwrap()).splitlines()

    differing = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert differing == [('              "content": "hi"', '              "content": "hello"')]


@given(st.binary(max_size=300))
def test_any_body_comes_back_byte_for_byte(body: bytes) -> None:
    written = dumps_cassette(cassette(call({}, RecordedResponse(200, SSE, body))))

    assert loads_cassette(written).unwrap().calls[0].response.body == body


@given(st.text(alphabet=st.sampled_from("ab\n\r\t é\u2028\x00"), max_size=60))
def test_text_bodies_are_lines_that_join_back_into_the_text(text: str) -> None:
    lines = body_lines(text)

    assert "".join(lines) == text
    assert all(line.count("\n") == (1 if line.endswith("\n") else 0) for line in lines)
    assert all(line.endswith("\n") for line in lines[:-1])
    assert "" not in lines


def test_a_body_that_is_not_utf8_is_written_as_base64() -> None:
    compressed = gzip.compress(ANSWER, mtime=0)
    torn = ANSWER[:-3] + b"\xc3"
    written = cassette_to_json(
        cassette(
            call({}, RecordedResponse(200, {**SSE, "content-encoding": "gzip"}, compressed)),
            call({}, RecordedResponse(200, SSE, torn, "interrupted")),
        )
    )

    calls: list[dict[str, dict[str, str]]] = written["calls"]  # type: ignore[assignment]
    responses = [entry["response"] for entry in calls]
    assert [sorted(response) for response in responses] == [
        ["body_base64", "end", "headers", "status"]
    ] * 2
    assert base64.b64decode(responses[0]["body_base64"]) == compressed
    assert responses[1]["end"] == "interrupted"


@pytest.mark.skipif(not SHARED_BODIES, reason=f"no shared recordings at {TRANSCRIPTS}")
def test_every_shared_recording_survives_a_cassette_byte_for_byte() -> None:
    for path in SHARED_BODIES:
        body = path.read_bytes()
        written = dumps_cassette(cassette(call({}, RecordedResponse(200, SSE, body))))
        assert loads_cassette(written).unwrap().calls[0].response.body == body, path.name


def test_write_cassette_creates_folders_replaces_atomically_and_leaves_no_temporary(
    tmp_path: Path,
) -> None:
    target = tmp_path / "cassettes" / "test_module" / "answer.json"
    write_cassette(target, cassette())
    write_cassette(target, sample())

    assert load_cassette(target).unwrap() == sample()
    assert sorted(path.name for path in target.parent.iterdir()) == ["answer.json"]


@pytest.fixture
def umask() -> Iterator[Callable[[int], int]]:
    """Set the process's umask for one test; the one before is restored after it."""
    before = os.umask(0o022)
    os.umask(before)
    yield os.umask
    os.umask(before)


@pytest.mark.skipif(os.name != "posix", reason="permission bits and the umask are POSIX")
@pytest.mark.parametrize(
    ("mask", "mode"),
    [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)],
    ids=["umask 022", "umask 077", "umask 002"],
)
def test_a_new_cassette_gets_the_permissions_the_umask_gives_any_new_file(
    tmp_path: Path, umask: Callable[[int], int], mask: int, mode: int
) -> None:
    umask(mask)
    target = tmp_path / "answer.json"

    write_cassette(target, cassette())

    assert stat.S_IMODE(target.stat().st_mode) == mode


@pytest.mark.skipif(os.name != "posix", reason="permission bits and the umask are POSIX")
def test_a_rewritten_cassette_keeps_its_own_permissions(
    tmp_path: Path, umask: Callable[[int], int]
) -> None:
    umask(0o022)
    target = tmp_path / "answer.json"
    write_cassette(target, cassette())
    target.chmod(0o640)

    write_cassette(target, sample())

    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert load_cassette(target).unwrap() == sample()


def test_an_unreadable_path_is_an_invalid_recording_naming_the_file(tmp_path: Path) -> None:
    missing = load_cassette(tmp_path / "nope.json").failure()
    folder = load_cassette(tmp_path).failure()

    assert missing.code is folder.code is VendorErrorCode.HTTP_RECORDING_INVALID
    assert missing.message.startswith(f"{tmp_path / 'nope.json'}: cannot be read")
    assert missing.vendor == "cassette"
    assert os.fsdecode(tmp_path) in folder.message


def valid() -> dict[str, object]:
    return copy.deepcopy(cassette_to_json(sample()))


def edited(path: tuple[object, ...], value: object) -> dict[str, object]:
    document: dict[str, object] = valid()
    target: object = document
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    if value is KeyError:
        del target[path[-1]]  # type: ignore[attr-defined]
    else:
        target[path[-1]] = value  # type: ignore[index]
    return document


CALL = ("calls", 0)
REQUEST = (*CALL, "request")
RESPONSE = (*CALL, "response")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ((("course_cassette",), 3), "course_cassette: must be 1 or 2"),
        ((("course_cassette",), True), "course_cassette: must be 1 or 2"),
        ((("course_cassette",), KeyError), "course_cassette: is missing"),
        ((("calls",), {}), "calls: must be an array, not an object"),
        ((("calls",), None), "calls: must be an array, not null"),
        ((("extra",), 1), "extra: is not a key of the cassette format"),
        ((("strict",), "false"), "strict: must be true or false, not a string"),
        ((("strict",), 0), "strict: must be true or false, not 0"),
        ((("strict",), None), "strict: must be true or false, not null"),
        ((("matching", "on"), "fuzzy"), 'matching.on: must be "request" or "order"'),
        ((("matching", "ignore"), ["a..b"]), "matching: JSON path 'a..b'"),
        ((("redaction", "fields"), [1]), "redaction.fields[0]: must be a string, not 1"),
        (((*CALL, "extra"), 1), "calls[0].extra: is not a key of the cassette format"),
        (((*REQUEST, "method"), "post"), "calls[0].request.method: must be upper-case"),
        (((*REQUEST, "path"), "v1/messages"), "calls[0].request.path: must be a path"),
        (
            ((*REQUEST, "path"), "/v1/x?alt=sse&API%5FKEY=sk-live-0123"),
            "calls[0].request.path: holds a key in its query (API%5FKEY)",
        ),
        (((*REQUEST, "body"), []), "calls[0].request.body: must be a JSON object"),
        (((*REQUEST, "body"), {"x": 1.5e400}), None),
        (
            ((*REQUEST, "headers"), {"Authorization": "Bearer x"}),
            "calls[0].request.headers.Authorization: holds credentials",
        ),
        (((*REQUEST, "headers"), {"a": "b\r\nc"}), "calls[0].request.headers.a: must be a string"),
        (((*RESPONSE, "status"), "200"), "calls[0].response.status: must be an int"),
        (((*RESPONSE, "status"), 99), "calls[0].response.status: must be an int"),
        (((*RESPONSE, "end"), "done"), "calls[0].response.end: must be one of"),
        (((*RESPONSE, "body"), KeyError), "calls[0].response: must hold exactly one of"),
        (((*RESPONSE, "body_base64"), "AA=="), "calls[0].response: must hold exactly one of"),
        (((*RESPONSE, "body"), ["a\nb\n"]), "calls[0].response.body[0]: must be one line"),
        (((*RESPONSE, "body"), ["a", "b"]), "calls[0].response.body[0]: must be one line"),
        (((*RESPONSE, "body"), [""]), "calls[0].response.body[0]: must be one line"),
        (
            ((*RESPONSE, "headers"), {"set-cookie": "a=b"}),
            'calls[0].response.headers["set-cookie"]: holds credentials',
        ),
        (
            ((*RESPONSE, "headers"), {"A": "1", "a": "2"}),
            "calls[0].response.headers.a: is given twice",
        ),
    ],
)
def test_a_document_that_is_not_a_cassette_names_the_path_of_its_first_problem(
    change: tuple[tuple[object, ...], object], where: str | None
) -> None:
    failure = parse_cassette(edited(*change)).failure()

    assert failure.code is VendorErrorCode.HTTP_RECORDING_INVALID
    if where is not None:
        assert failure.message.startswith(where), failure.message


def test_bad_base64_and_not_an_object_are_refused() -> None:
    bad = edited((*RESPONSE, "body"), KeyError)
    bad["calls"][0]["response"]["body_base64"] = "not base64!"  # type: ignore[index]

    assert parse_cassette(bad).failure().message == (
        "calls[0].response.body_base64: is not valid base64"
    )
    assert parse_cassette([]).failure().message == "$: must be a JSON object, not an array"


@pytest.mark.parametrize(
    ("text", "start"),
    [
        (b'{"course_cassette": 1, "course_cassette": 1, "calls": []}', "not strict JSON: dup"),
        (b'{"course_cassette": NaN, "calls": []}', "not strict JSON: NaN"),
        (b'{"course_cassette": 1e400, "calls": []}', "not strict JSON: the number"),
        (b"\xff{}", "not valid UTF-8"),
        (b"{", "not JSON: "),
        (b"[" * 200_000 + b"]" * 200_000, "not usable JSON: nesting is too deep"),
    ],
    ids=["duplicate-key", "nan", "overflow", "utf8", "truncated", "deep"],
)
def test_text_that_is_not_strict_json_is_refused(text: bytes, start: str) -> None:
    failure = loads_cassette(text).failure()

    assert failure.code is VendorErrorCode.HTTP_RECORDING_INVALID
    assert failure.message.startswith(start), failure.message


def test_a_deep_request_body_is_refused_by_its_path_not_a_recursion_error() -> None:
    deep: object = {}
    for _ in range(100):
        deep = {"x": deep}

    failure = parse_cassette(edited((*REQUEST, "body"), deep)).failure()

    assert failure.message.startswith("calls[0].request.body.x.x")
    assert "JSON_MAX_DEPTH" in failure.message


def test_a_hand_written_cassette_may_leave_out_matching_and_redaction() -> None:
    document = valid()
    del document["matching"], document["redaction"]

    parsed = parse_cassette(document).unwrap()

    assert (parsed.matching, parsed.redaction) == (RequestMatching(), Redaction())


def test_strict_false_is_written_after_the_version_and_read_back_true_is_left_out() -> None:
    strict = sample()
    loose = Cassette(
        strict.calls, matching=strict.matching, redaction=strict.redaction, strict=False
    )

    assert "strict" not in cassette_to_json(strict)
    assert list(cassette_to_json(loose))[:2] == [CASSETTE_VERSION_KEY, "strict"]
    assert cassette_to_json(loose)["strict"] is False
    assert loads_cassette(dumps_cassette(loose)).unwrap() == loose
    assert loads_cassette(dumps_cassette(strict)).unwrap().strict is True
    assert parse_cassette({**valid(), "strict": True}).unwrap().strict is True
    with pytest.raises(TypeError, match="strict must be a bool"):
        Cassette(strict=1)  # type: ignore[arg-type]


def test_a_query_key_masked_or_empty_is_no_credential() -> None:
    for target in ("/v1/x?key=[redacted]&alt=sse", "/v1/x?key=&api_key", "/v1/x?monkey=1"):
        parsed = parse_cassette(edited((*REQUEST, "path"), target)).unwrap()

        assert parsed.calls[0].request.path == target


def test_cassette_values_check_their_fields() -> None:
    with pytest.raises(TypeError):
        Cassette([object()])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="compares nothing"):
        RequestMatching("order", ignore=["x"])
    with pytest.raises(ValueError, match="must be one of"):
        RequestMatching("fuzzy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="the same thing twice"):
        Redaction(fields=["a", "a"])
    with pytest.raises(TypeError):
        Redaction(fields="user_id")
    with pytest.raises(ValueError, match="bad bracket"):
        Redaction(paths=["messages[x]"])


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("nul\0.json", "the path holds a NUL character"),
        ("lone-\ud800.json", "the path cannot be encoded for the file system"),
    ],
    ids=["NUL", "lone surrogate"],
)
def test_a_path_no_file_can_have_is_an_invalid_recording_or_an_os_error(
    tmp_path: Path, name: str, why: str
) -> None:
    path = os.path.join(tmp_path, name)

    failure = load_cassette(path).failure()
    with pytest.raises(OSError, match="cannot be written") as caught:
        write_cassette(path, cassette())

    assert failure.code is VendorErrorCode.HTTP_RECORDING_INVALID
    assert failure.message == f"{path!a}: cannot be read: {why}"
    assert (caught.value.errno, caught.value.strerror) == (
        errno.EINVAL,
        f"cannot be written: {why}",
    )
    assert list(tmp_path.iterdir()) == [], "nothing was written"


def test_something_that_is_not_a_path_is_an_invalid_recording_or_an_os_error() -> None:
    failure = load_cassette(42).failure()  # type: ignore[arg-type]
    with pytest.raises(OSError, match="cannot be written") as caught:
        write_cassette(42, cassette())  # type: ignore[arg-type]

    assert (
        failure.message == "<not a path>: cannot be read: a path is a str or os.PathLike, not int"
    )
    assert caught.value.errno == errno.EINVAL
