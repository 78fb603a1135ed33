"""JSON paths in cassettes: as mismatches print them, parsed back, rewritten where they point."""

from __future__ import annotations

import pytest

from course_cassettes._json_paths import (
    ANY_INDEX,
    REMOVE,
    REMOVED_ELEMENT,
    parse_json_path,
    rewrite_at_paths,
    rewrite_fields,
    show_json_path,
)
from course_protocol import first_json_difference


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("model", ("model",)),
        ("messages[2].content[0].tool_use_id", ("messages", 2, "content", 0, "tool_use_id")),
        ("messages[*].id", ("messages", ANY_INDEX, "id")),
        ('metadata["user id"]', ("metadata", "user id")),
        ('["a.b"][0]', ("a.b", 0)),
        ('tools[0]["input_schema"].properties', ("tools", 0, "input_schema", "properties")),
    ],
)
def test_a_path_parses_into_its_segments_and_prints_back(
    text: str, segments: tuple[object, ...]
) -> None:
    assert parse_json_path(text) == segments
    assert parse_json_path(show_json_path(parse_json_path(text))) == segments


@pytest.mark.parametrize(
    "text", ["", ".model", "a..b", "a[", "a[x]", "a[-1]", 'a["x"', "a b", "a]", "1abc"]
)
def test_a_path_that_does_not_parse_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError, match=r"JSON path|must not be empty"):
        parse_json_path(text)


def test_a_path_is_a_str() -> None:
    with pytest.raises(TypeError):
        parse_json_path(["model"])  # type: ignore[arg-type]


def test_the_path_a_difference_prints_is_one_a_cassette_can_ignore() -> None:
    recorded = {"messages": [{"content": [{"tool_use_id": "toolu_01A", "odd key": 1}]}]}
    sent = {"messages": [{"content": [{"tool_use_id": "toolu_01B", "odd key": 1}]}]}

    difference = first_json_difference(recorded, sent)
    assert difference is not None
    path = parse_json_path(difference.path)

    def ignored(value: object) -> object:
        return REMOVE

    assert rewrite_at_paths(recorded, [path], ignored) == rewrite_at_paths(sent, [path], ignored)


def test_rewriting_copies_drops_keys_replaces_elements_and_skips_what_is_absent() -> None:
    first = {"id": "a", "text": "x"}
    body = {"messages": [first, {"id": "b"}, 3], "keep": True}
    paths = [parse_json_path(text) for text in ("messages[*].id", "messages[2]", "absent.x")]

    rewritten = rewrite_at_paths(body, paths, lambda value: REMOVE)

    assert rewritten == {"messages": [{"text": "x"}, {}, REMOVED_ELEMENT], "keep": True}
    assert first == {"id": "a", "text": "x"}, "the original is untouched"


def test_fields_are_rewritten_at_any_depth_and_their_contents_are_not_walked() -> None:
    body = {"user_id": {"user_id": 1}, "list": [{"user_id": "u"}, {"other": "o"}]}

    masked = rewrite_fields(body, frozenset({"user_id"}), lambda value: "[redacted]")

    assert masked == {"user_id": "[redacted]", "list": [{"user_id": "[redacted]"}, {"other": "o"}]}
