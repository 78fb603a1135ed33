"""first_json_difference: the first differing path and both values, for request matching."""

from __future__ import annotations

import pytest
from frozendict import frozendict

from course_protocol import JsonDifference, first_json_difference
from course_protocol.untrusted import SHOWN_LENGTH, shown
from tests.nesting import nested_dicts


def test_equal_values_have_no_difference_whatever_their_containers() -> None:
    plain = {"a": [1, {"b": None}], "c": "x"}
    frozen = frozendict({"a": (1, frozendict({"b": None})), "c": "x"})
    assert first_json_difference(plain, frozen) is None
    assert first_json_difference(frozen, plain) is None


@pytest.mark.parametrize(
    ("recorded", "sent", "expected"),
    [
        (
            {"messages": [{}, {}, {"content": [{"tool_use_id": "toolu_01A"}]}]},
            {"messages": [{}, {}, {"content": [{"tool_use_id": "toolu_01B"}]}]},
            'messages[2].content[0].tool_use_id: recorded "toolu_01A", sent "toolu_01B"',
        ),
        ({"a": 1, "b": 2}, {"a": 1}, "b: recorded 2, sent <missing>"),
        ({"a": 1}, {"a": 1, "z": [1]}, "z: recorded <missing>, sent [1]"),
        ([1, 2], [1, 2, 3], "[2]: recorded <missing>, sent 3"),
        ([1, 2, 3], [1, 2], "[2]: recorded 3, sent <missing>"),
        (1, 1.0, "$: recorded 1, sent 1.0"),
        (True, 1, "$: recorded true, sent 1"),
        ({"a": {"b": 1}}, {"a": [1]}, 'a: recorded {"b":1}, sent [1]'),
        ({"odd key": 1}, {"odd key": 2}, '["odd key"]: recorded 1, sent 2'),
        ({"a": 1, "b": 1}, {"a": 2, "b": 2}, "a: recorded 1, sent 2"),
    ],
)
def test_the_first_difference_names_its_path_and_both_values(
    recorded: object, sent: object, expected: str
) -> None:
    difference = first_json_difference(recorded, sent)

    assert difference is not None
    assert str(difference) == expected


def test_long_values_are_cut_and_deep_values_do_not_recurse() -> None:
    difference = first_json_difference({"text": "x" * 500}, {"text": "y"})
    assert difference == JsonDifference("text", shown('"' + "x" * 500 + '"'), '"y"')
    assert len(difference.recorded) == SHOWN_LENGTH
    deep_left, deep_right = nested_dicts(5_000), nested_dicts(5_000)
    assert first_json_difference(deep_left, deep_right) is None


def test_a_deep_value_at_the_difference_is_shown_by_its_type_and_never_raises() -> None:
    difference = first_json_difference({"a": 1}, {"a": nested_dicts(5_000)})

    assert difference == JsonDifference("a", "1", "<dict>")
    assert first_json_difference({"a": nested_dicts(5_000)}, {"a": 1}) == JsonDifference(
        "a", "<dict>", "1"
    )
