"""`convert_vcr_cassette` on VCR.py cassettes written here by hand: every body form, every refusal.

Each cassette is YAML as VCR.py (or pydantic-ai's serializer for it) writes
it, or a hostile variant of it. The cassettes VCR.py itself records are in
``test_vcr_recorded.py``.
"""

from __future__ import annotations

import base64
import dataclasses
import gzip
import json
import zlib
from pathlib import Path

import pytest
import yaml
from returns.result import Failure

from course_cassettes import (
    Redaction,
    VcrConversion,
    VcrNote,
    _vcr_reading,
    _vcr_yaml,
    convert_vcr_cassette,
    dumps_cassette,
    loads_cassette,
)
from course_cassettes._vcr_reading import VCR_MAX_BODY_BYTES
from course_cassettes._vcr_yaml import VCR_MAX_DEPTH, VCR_MAX_NODES
from course_http import VendorError, VendorErrorCode
from course_protocol import thaw_json
from course_vendor import recorded_stream_problem
from tests.course_cassettes.sdk_upstream import ANTHROPIC_MESSAGE, ANTHROPIC_SSE
from tests.course_cassettes.vcr_cassettes import ASKED, KEY, binary, cassette_text, interaction

INVALID = VendorErrorCode.HTTP_RECORDING_INVALID


def converted(text: str | bytes, **options: object) -> VcrConversion:
    result = convert_vcr_cassette(text, **options)  # type: ignore[arg-type]
    assert not isinstance(result, Failure), result.failure().message
    return result.unwrap()


def failure(text: str | bytes) -> VendorError:
    result = convert_vcr_cassette(text)
    assert isinstance(result, Failure), "expected the file to be refused whole"
    error: VendorError = result.failure()
    assert error.code is INVALID
    return error


def test_a_plain_cassette_keeps_method_path_query_allowed_headers_status_and_body() -> None:
    text = cassette_text(
        interaction(
            uri="https://api.anthropic.com/v1/messages?beta=true#fragment",
            request_headers=(
                f"Authorization: [Bearer {KEY}]",
                "Content-Type: [application/json]",
                "anthropic-version: ['2023-06-01']",
                "User-Agent: [Anthropic/Python]",
            ),
            status="{code: 201, message: Created}",
            response_headers=("content-type: [application/json]", "date: [today]"),
        )
    )
    conversion = converted(text)
    (call,) = conversion.cassette.calls
    assert (call.request.method, call.request.path) == ("POST", "/v1/messages?beta=true")
    assert dict(call.request.headers) == {
        "anthropic-version": "2023-06-01",
        "content-type": "application/json",
    }
    assert thaw_json(call.request.body) == json.loads(ASKED)
    assert (call.response.status, call.response.end) == (201, "complete")
    assert dict(call.response.headers) == {"content-type": "application/json"}
    assert call.response.body == b'{"type": "message"}'
    assert conversion.converted == (0,)
    assert conversion.hosts == ("https://api.anthropic.com",)
    assert conversion.refused == conversion.flagged == ()
    assert conversion.dropped == (
        VcrNote(
            0,
            "headers not kept: request authorization (a credential), user-agent; response date",
        ),
    )
    assert KEY not in dumps_cassette(conversion.cassette)


def test_the_conversion_and_its_notes_are_immutable() -> None:
    conversion = converted(cassette_text(interaction()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        conversion.refused = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        conversion.dropped[0].index = 3  # type: ignore[misc]


def test_a_binary_body_is_kept_byte_for_byte_and_written_as_base64() -> None:
    picture = bytes(range(256))
    request = binary(ASKED.encode())
    text = cassette_text(
        interaction(
            body=request,
            response_headers=("content-type: [image/png]",),
            response_body=f"{{string: {binary(picture)}}}",
        )
    )
    (call,) = converted(text).cassette.calls
    assert thaw_json(call.request.body) == json.loads(ASKED)
    assert call.response.body == picture
    written = json.loads(dumps_cassette(converted(text).cassette))
    assert base64.b64decode(written["calls"][0]["response"]["body_base64"]) == picture


@pytest.mark.parametrize(
    ("coding", "encoded"),
    [
        ("gzip", gzip.compress(ANTHROPIC_MESSAGE)),
        ("x-gzip", gzip.compress(ANTHROPIC_MESSAGE)),
        ("deflate", zlib.compress(ANTHROPIC_MESSAGE)),
        ("deflate", zlib.compress(ANTHROPIC_MESSAGE, wbits=-15)),
        ("identity, gzip", gzip.compress(ANTHROPIC_MESSAGE)),
        ("deflate, gzip", gzip.compress(zlib.compress(ANTHROPIC_MESSAGE))),
    ],
    ids=["gzip", "x-gzip", "deflate-zlib", "deflate-raw", "identity-gzip", "deflate-then-gzip"],
)
def test_a_compressed_body_is_kept_decoded_without_its_encoding_headers(
    coding: str, encoded: bytes
) -> None:
    text = cassette_text(
        interaction(
            response_headers=(
                f"content-encoding: ['{coding}']",
                f"content-length: ['{len(encoded)}']",
                "content-type: [application/json]",
            ),
            response_body=f"{{string: {binary(encoded)}}}",
        )
    )
    conversion = converted(text)
    (call,) = conversion.cassette.calls
    assert call.response.body == ANTHROPIC_MESSAGE
    assert dict(call.response.headers) == {"content-type": "application/json"}
    assert conversion.dropped[0].reason.endswith(
        "; response content-encoding (the body is kept decoded), "
        "content-length (the body is kept decoded)"
    )


def test_bodies_stored_parsed_are_read_as_vcr_replays_them() -> None:
    answer = {"type": "message", "content": [{"type": "text", "text": "Héllo"}], "n": 1.5}
    text = f"""\
interactions:
- request:
    headers:
      content-type: [application/json]
    method: POST
    parsed_body:
      model: claude-own
      messages: [{{role: user, content: hi}}]
    uri: https://api.anthropic.com/v1/messages
  response:
    headers:
      content-type: [application/json]
    parsed_body: {json.dumps(answer)}
    status: {{code: 200, message: OK}}
version: 1
"""
    (call,) = converted(text).cassette.calls
    assert thaw_json(call.request.body) == {
        "model": "claude-own",
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert call.response.body == json.dumps(answer).encode()


def test_no_body_a_null_one_and_pieces_of_one_are_read() -> None:
    pieces = f"[{binary(ASKED[:5].encode())}, '{ASKED[5:]}']"
    text = cassette_text(
        interaction(body="''", method="GET", uri="https://api.openai.com/v1/models"),
        interaction(body="null", method="GET", uri="https://api.openai.com/v1/models"),
        interaction(body=pieces),
    )
    calls = converted(text).cassette.calls
    assert [(call.request.method, thaw_json(call.request.body)) for call in calls] == [
        ("GET", {}),
        ("GET", {}),
        ("POST", json.loads(ASKED)),
    ]


def test_values_of_one_header_are_joined_and_names_read_in_any_case() -> None:
    text = cassette_text(
        interaction(
            request_headers=(
                "Accept: [application/json, text/event-stream]",
                "ACCEPT: ['*/*']",
                "anthropic-beta: one",
            )
        )
    )
    (call,) = converted(text).cassette.calls
    assert dict(call.request.headers) == {
        "accept": "application/json, text/event-stream, */*",
        "anthropic-beta": "one",
    }


def test_a_key_in_the_query_is_masked_and_scrubbed_wherever_it_is_echoed() -> None:
    key = "AIzaSyB-Zq8vN2xR5tLm1Pw7Yc4Hd9Kf3Bj6Gs0U"
    echoed = json.dumps({"error": {"message": f"API key {key} not valid"}})
    text = cassette_text(
        interaction(
            uri=f"https://generativelanguage.example/v1beta/models/m:generateContent?key={key}",
            request_headers=("content-type: [application/json]",),
            body=json.dumps(json.dumps({"note": f"sent with {key}"})),
            status="{code: 400, message: Bad Request}",
            response_body=f"{{string: {json.dumps(echoed)}}}",
        )
    )
    conversion = converted(text)
    (call,) = conversion.cassette.calls
    assert call.request.path == "/v1beta/models/m:generateContent?key=[redacted]"
    assert thaw_json(call.request.body) == {"note": "sent with [redacted]"}
    assert call.response.body == echoed.replace(key, "[redacted]").encode()
    assert key not in dumps_cassette(conversion.cassette)
    assert conversion.dropped == (
        VcrNote(
            0,
            "credentials masked in the query (key), the request body, the response body",
        ),
    )


def test_a_key_of_a_secret_header_is_scrubbed_from_bodies_and_kept_headers() -> None:
    text = cassette_text(
        interaction(
            request_headers=(
                f"x-api-key: [{KEY}]",
                "content-type: [application/json]",
                f"anthropic-version: ['v-{KEY}']",
            ),
            body=json.dumps(json.dumps({"system": KEY})),
            response_body=f"{{string: 'echo {KEY[:30]} and {KEY}'}}",
        )
    )
    conversion = converted(text)
    (call,) = conversion.cassette.calls
    written = dumps_cassette(conversion.cassette)
    assert KEY not in written
    assert call.request.headers["anthropic-version"] == "v-[redacted]"
    assert thaw_json(call.request.body) == {"system": "[redacted]"}
    assert call.response.body == f"echo {KEY[:30]} and [redacted]".encode()
    assert [note.reason for note in conversion.dropped] == [
        "headers not kept: request x-api-key (a credential)",
        "credentials masked in the request body, the response body",
    ]


def test_redaction_and_kept_headers_are_applied_as_a_recording_applies_them() -> None:
    text = cassette_text(
        interaction(
            body=json.dumps(json.dumps({"metadata": {"user_id": "u-1"}, "user_id": "u-2"})),
            request_headers=("content-type: [application/json]", "x-trace: [t-1]"),
        )
    )
    redaction = Redaction(fields=["user_id"])
    conversion = converted(text, redaction=redaction, keep_headers=["X-Trace"])
    (call,) = conversion.cassette.calls
    assert thaw_json(call.request.body) == {
        "metadata": {"user_id": "[redacted]"},
        "user_id": "[redacted]",
    }
    assert call.request.headers["x-trace"] == "t-1"
    assert conversion.cassette.redaction == redaction


def test_bad_arguments_raise_before_anything_is_read() -> None:
    with pytest.raises(ValueError, match="holds credentials"):
        convert_vcr_cassette("", keep_headers=["Authorization"])
    with pytest.raises(TypeError, match="redaction"):
        convert_vcr_cassette("", redaction={"fields": []})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="check"):
        convert_vcr_cassette("", check="strict")  # type: ignore[arg-type]


def test_hosts_are_reported_once_each_in_order_without_user_info() -> None:
    text = cassette_text(
        interaction(uri="https://api.anthropic.com/v1/messages"),
        interaction(uri="http://user:pass@127.0.0.1:8080/v1/messages"),
        interaction(uri="https://api.anthropic.com/v1/messages"),
        interaction(uri="HTTPS://api.example?x=1"),
    )
    conversion = converted(text)
    assert conversion.hosts == (
        "https://api.anthropic.com",
        "http://127.0.0.1:8080",
        "https://api.example",
    )
    assert conversion.cassette.calls[3].request.path == "/?x=1"


def test_a_stream_the_strict_check_fails_is_flagged_and_kept_as_recorded() -> None:
    cut = ANTHROPIC_SSE[: ANTHROPIC_SSE.index(b"event: message_stop")]
    stream = interaction(
        response_headers=("content-type: [text/event-stream]",),
        response_body=f"{{string: {json.dumps(cut.decode())}}}",
    )
    text = cassette_text(interaction(), stream)
    conversion = converted(text, check=recorded_stream_problem)
    assert conversion.converted == (0, 1)
    assert conversion.cassette.calls[1].response.body == cut
    (flag,) = conversion.flagged
    assert (flag.index, flag.code) == (1, VendorErrorCode.VENDOR_MISSING_TERMINAL)
    assert flag.reason.startswith("calls[1].response.body: ")
    assert "message_stop" in flag.reason
    assert converted(text).flagged == (), "no check given: nothing judged"


REFUSALS = {
    "form-body": (
        interaction(body="'a=1&b=2'"),
        "interactions[1].request.body: not JSON: Expecting value at line 1 column 1 "
        "(no cassette can hold this request body)",
    ),
    "array-body": (
        interaction(body="'[1, 2]'"),
        "interactions[1].request.body: must be a JSON object, not list",
    ),
    "nan-body": (
        interaction(body="'{\"t\": NaN}'"),
        "interactions[1].request.body: not strict JSON: NaN is not a JSON number",
    ),
    "number-body": (interaction(body="7"), "interactions[1].request.body: must be text"),
    "lowercase-method": (interaction(method="post"), "interactions[1].request.method:"),
    "relative-uri": (interaction(uri="/v1/messages"), "interactions[1].request.uri:"),
    "no-host": (interaction(uri="https:///v1"), "interactions[1].request.uri: names no host"),
    "header-number": (
        interaction(request_headers=("content-length: [12]",)),
        'interactions[1].request.headers["content-length"][0]: must be text, not 12',
    ),
    "header-control": (
        interaction(request_headers=('content-type: ["a\\x01b"]',)),
        "interactions[1]: a course cassette cannot hold it: request.headers",
    ),
    "no-status": (interaction(status="null"), "interactions[1].response.status: must be"),
    "bool-status": (
        interaction(status="{code: true}"),
        "interactions[1].response.status.code: must be an int",
    ),
    "status-out-of-range": (
        interaction(status="{code: 42}"),
        "interactions[1].response.status.code: must be an int from 100 to 999, not 42",
    ),
    "not-gzip": (
        interaction(
            response_headers=("content-encoding: [gzip]",),
            response_body="{string: 'plain text'}",
        ),
        "interactions[1].response.body: says content-encoding gzip but does not decode",
    ),
    "cut-gzip": (
        interaction(
            response_headers=("content-encoding: [gzip]",),
            response_body=f"{{string: {binary(gzip.compress(ANTHROPIC_MESSAGE)[:-9])}}}",
        ),
        "interactions[1].response.body: is not one whole gzip stream",
    ),
    "brotli": (
        interaction(response_headers=("content-encoding: [br]",)),
        "interactions[1].response.body: is encoded br: only gzip and deflate are decoded",
    ),
    "no-body-string": (
        interaction(response_body="{}"),
        "interactions[1].response.body.string: is missing",
    ),
    "old-httpx-form": (
        "- request: {body: '{}', headers: {}, method: GET, uri: 'https://x.example/'}\n"
        "  response: {status_code: 200, content: '', headers: {}}\n",
        "interactions[1].response: is in the form older VCR.py releases wrote for httpx",
    ),
    "both-bodies": (
        interaction(body="'{}'").replace("    method:", "    parsed_body: {}\n    method:"),
        "interactions[1].request: holds both body and parsed_body",
    ),
    "parsed-date": (
        interaction().replace(
            "    body: {string:", "    parsed_body: {created: 2024-01-01}\n    xbody: {string:"
        ),
        "interactions[1].response.parsed_body.created: ",
    ),
    "not-a-mapping": ("- just text\n", "interactions[1]: must be a mapping, not a string"),
    "no-response": (
        "- request: {body: '{}', headers: {}, method: GET, uri: 'https://x.example/'}\n",
        "interactions[1].response: is missing",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_an_interaction_a_course_cassette_cannot_hold_is_refused_and_the_rest_converted(
    name: str,
) -> None:
    refused, reason = REFUSALS[name]
    conversion = converted(cassette_text(interaction(), refused, interaction()))
    assert conversion.converted == (0, 2)
    assert len(conversion.cassette.calls) == 2
    (note,) = conversion.refused
    assert (note.index, note.code) == (1, INVALID)
    assert note.reason.startswith(reason), note.reason
    assert all(dropped.index != 1 for dropped in conversion.dropped)
    written = dumps_cassette(conversion.cassette)
    assert loads_cassette(written).unwrap() == conversion.cassette


def test_a_python_object_tag_is_refused_without_running_anything(tmp_path: Path) -> None:
    planted = tmp_path / "planted"
    text = cassette_text(
        interaction(
            body=(
                "!!python/object/apply:pathlib.Path.touch "
                f"[!!python/object/apply:pathlib.Path ['{planted}']]"
            )
        )
    )
    error = failure(text)
    assert error.message == (
        "interactions[0].request.body: the tag "
        "!!python/object/apply:pathlib.Path.touch is not data VCR.py writes"
    )
    assert not planted.exists()


FILE_FAILURES = {
    "python-name": ("a: !!python/name:os.system\n", "a: the tag !!python/name:os.system"),
    "bytesio": (
        "interactions:\n- request:\n    body: !!python/object/new:_io.BytesIO {state: [x]}\n",
        "interactions[0].request.body: the tag !!python/object/new:_io.BytesIO",
    ),
    "local-tag": ("interactions: !mine []\n", "interactions: the tag !mine is not data"),
    "set": ("interactions: !!set {a: null}\n", "interactions: the tag !!set is not data"),
    "not-yaml": ("interactions: [1, 2\n", "line 2, column 1: is not YAML"),
    "two-documents": ("interactions: []\n---\ninteractions: []\n", "$: holds more than one"),
    "duplicate-key": (
        "interactions:\n- {request: {method: GET}, request: {}}\n",
        "interactions[0].request: is given twice",
    ),
    "complex-key": ("? [a, b]\n: 1\n", "$: holds a key that is not text"),
    "undefined-alias": ("interactions: *nowhere\n", "interactions: the alias *nowhere names no"),
    "old-list-format": ("- request: {}\n  response: {}\n", "$: a list, VCR.py's format before"),
    "scalar": ("just text\n", "$: must be a mapping, not a string"),
    "empty": ("", "$: must be a mapping, not null"),
    "version-2": ("interactions: []\nversion: 2\n", "version: must be 1, VCR.py's format, not 2"),
    "version-true": ("interactions: []\nversion: true\n", "version: must be 1"),
    "no-interactions": ("version: 1\n", "interactions: is missing"),
    "ruby-vcr": (
        "http_interactions: []\nrecorded_with: VCR 6\n",
        "interactions: is missing (http_interactions is Ruby VCR's format)",
    ),
    "interactions-mapping": (
        "interactions: {a: 1}\n",
        "interactions: must be a list, not an object",
    ),
}


@pytest.mark.parametrize("name", sorted(FILE_FAILURES))
def test_a_file_that_is_not_a_vcr_cassette_is_refused_whole_naming_where(name: str) -> None:
    text, start = FILE_FAILURES[name]
    assert failure(text).message.startswith(start), failure(text).message


def test_text_that_is_not_utf8_is_refused_naming_the_byte() -> None:
    text = cassette_text(interaction()).encode().replace(b"claude-own", b"claude-\xff")
    at = text.index(b"\xff")
    assert failure(text).message == f"is not UTF-8 text (byte {at})"
    assert converted(b"\xef\xbb\xbf" + cassette_text(interaction()).encode()).converted == (0,)


@pytest.fixture(params=["libyaml", "python"])
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each bound holds with PyYAML's C parser and with its pure-Python one (no libyaml)."""
    if request.param == "python":
        monkeypatch.setattr(_vcr_yaml, "_Loader", yaml.SafeLoader)
    else:
        assert _vcr_yaml._Loader.__name__ == "CSafeLoader", "this PyYAML has no libyaml"


@pytest.mark.usefixtures("loader")
def test_nesting_past_the_limit_is_refused_at_its_path_without_recursing() -> None:
    # The mapping at the top is the first level: the 73rd is refused where it opens.
    deep = "interactions: " + "[" * 200 + "]" * 200 + "\n"
    assert failure(deep).message == (
        "interactions"
        + "[0]" * (VCR_MAX_DEPTH - 1)
        + f": nests more than {VCR_MAX_DEPTH} lists and mappings"
    )
    block = "interactions:\n" + "".join(f"{'  ' * level}- \n" for level in range(500))
    assert "nests more than" in failure(block).message
    # libyaml's scanner stops a flow this deep itself, before any event reaches the check.
    deeper = "interactions: " + "[" * 50_000 + "]" * 50_000 + "\n"
    assert "nest" in failure(deeper).message


@pytest.mark.usefixtures("loader")
def test_an_alias_deep_inside_counts_the_levels_of_what_it_names() -> None:
    anchored = "[" * (VCR_MAX_DEPTH - 5) + "]" * (VCR_MAX_DEPTH - 5)
    shallow = f"a: &deep {anchored}\ninteractions: []\n"
    assert not isinstance(convert_vcr_cassette(shallow), Failure)
    nested = f"a: &deep {anchored}\ninteractions: [[[[[[[*deep]]]]]]]\n"
    assert "nests more than" in failure(nested).message


@pytest.mark.usefixtures("loader")
def test_a_billion_laughs_is_refused_before_it_expands() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 10)}]" for n in range(1, 10)]
    lines.append("interactions: [*a9]")
    message = failure("\n".join(lines) + "\n").message
    assert message.endswith(f"makes the cassette hold over {VCR_MAX_NODES} nodes")


def test_aliases_within_the_bounds_are_read_as_what_they_name() -> None:
    text = "headers: &headers\n  content-type: [application/json]\n" + cassette_text(
        interaction()
    ).replace("    headers:\n      content-type: [application/json]\n", "    headers: *headers\n")
    (call,) = converted(text).cassette.calls
    assert dict(call.response.headers) == {"content-type": "application/json"}


def test_a_body_that_decodes_past_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # The limit is 256 MiB; a smaller one is the same code without a 256 MiB body.
    limit = 4096
    monkeypatch.setattr(_vcr_reading, "VCR_MAX_BODY_BYTES", limit)
    bomb = gzip.compress(b"\0" * (limit + 1))
    assert (
        converted(
            cassette_text(
                interaction(
                    response_headers=("content-encoding: [gzip]",),
                    response_body=f"{{string: {binary(gzip.compress(bytes(limit)))}}}",
                )
            )
        ).refused
        == ()
    )
    text = cassette_text(
        interaction(
            response_headers=("content-encoding: [gzip]",),
            response_body=f"{{string: {binary(bomb)}}}",
        )
    )
    (note,) = converted(text).refused
    assert note.reason == f"interactions[0].response.body: decodes to more than {limit} bytes"
    assert VCR_MAX_BODY_BYTES == 256 * 1024 * 1024


def test_a_refusal_never_quotes_a_credential_of_the_request() -> None:
    keyed_date = interaction(body="null").replace(
        "    method:", f"    parsed_body: {{'{KEY}': 2024-01-01}}\n    method:"
    )
    query_key = "AIzaSyB-Zq8vN2xR5tLm1Pw7Yc4Hd9Kf3Bj6Gs0U"
    relative = interaction(uri=f"v1beta/models/m:generateContent?key={query_key}")
    conversion = converted(cassette_text(keyed_date, relative))
    assert [note.reason for note in conversion.refused] == [
        'interactions[0].request.parsed_body["[redacted]"]: has unsupported type date',
        "interactions[1].request.uri: must be an absolute URL, not "
        "'v1beta/models/m:generateContent?key=[redacted]'",
    ]
