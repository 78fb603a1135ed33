"""freeze_json / thaw_json: deep immutable snapshots of untrusted Python data."""

from __future__ import annotations

import copy
import json
import math
import pickle
from enum import IntEnum
from typing import cast

import pytest
from frozendict import frozendict
from hypothesis import given, settings
from returns.result import Failure, Success

from course_protocol import (
    JSON_MAX_DEPTH,
    JSON_MAX_SHARED_VISITS,
    CourseProtocolError,
    JsonError,
    JsonErrorCode,
    JsonObject,
    JsonValue,
    freeze_json,
    freeze_json_object,
    snapshot_json,
    thaw_json,
)
from tests.course_protocol import strategies
from tests.course_protocol.hostile import (
    DictThatCountsReads,
    FrozendictThatCountsReads,
    ListThatCountsReads,
    ObjectThatPretendsToBeADict,
    ObjectThatRaisesOnEverything,
    ObjectWithBrokenTypeName,
    StrKeyThatLiesInEquality,
    StrThatHashesDifferently,
    TupleThatCountsReads,
)
from tests.nesting import nested_dicts, nested_lists


def frozen(value: object) -> JsonValue:
    result = freeze_json(value)
    assert isinstance(result, Success), result
    frozen_value: JsonValue = result.unwrap()
    return frozen_value


def as_object(value: JsonValue) -> JsonObject:
    assert type(value) is frozendict
    return value


def failure(value: object, path: str = "$") -> JsonError:
    result = freeze_json(value, path)
    assert isinstance(result, Failure), result
    error = result.failure()
    assert type(error) is JsonError
    return error


class Color(IntEnum):
    RED = 1


def test_scalars_are_returned_as_they_are() -> None:
    for value in ("text", "", 0, -(2**80), 1.5, -0.0, True, False, None):
        assert frozen(value) is value


def test_objects_become_frozendicts_and_arrays_become_tuples_all_the_way_down() -> None:
    value = frozen({"a": [1, {"b": (2, [3])}], "c": {}})
    assert value == frozendict({"a": (1, frozendict({"b": (2, (3,))})), "c": frozendict()})
    inner = as_object(value)["a"]
    assert type(inner) is tuple
    assert type(as_object(inner[1])["b"]) is tuple


def test_key_order_is_kept() -> None:
    value = as_object(frozen({"z": 1, "a": 2, "m": 3}))
    assert list(value) == ["z", "a", "m"]


def test_mutating_the_input_afterwards_changes_nothing() -> None:
    inner = [1, 2]
    source: dict[str, object] = {"list": inner, "obj": {"k": "v"}}
    value = frozen(source)
    inner.append(3)
    cast(dict[str, object], source["obj"])["k"] = "changed"
    source["new"] = True
    assert thaw_json(value) == {"list": [1, 2], "obj": {"k": "v"}}


@pytest.mark.parametrize("key", ["__proto__", "__class__", "__dict__", "constructor", "", "a.b"])
def test_dangerous_looking_keys_are_ordinary_keys(key: str) -> None:
    value = as_object(frozen({key: {"polluted": True}}))
    assert list(value) == [key]
    assert value[key] == frozendict({"polluted": True})
    assert type(value) is frozendict


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_are_rejected_with_their_path(bad: float) -> None:
    error = failure({"items": [0, 0, 0, {"x": bad}]}, "arguments")
    assert error.path == "arguments.items[3].x"
    assert "finite" in error.message


def test_snapshot_json_keeps_every_float_and_applies_every_other_rule_of_freeze_json() -> None:
    source = {"items": [math.nan, {"x": math.inf}], "low": -math.inf, "ok": 1.5}

    kept = snapshot_json(source, "record")
    refused = snapshot_json({"items": [math.inf, {1, 2}]}, "record")
    deep = snapshot_json(nested_lists(JSON_MAX_DEPTH + 1))

    assert isinstance(kept, Success)
    snapshot = as_object(cast(JsonValue, kept.unwrap()))
    items = snapshot["items"]
    assert type(items) is tuple
    assert math.isnan(cast(float, items[0]))
    assert as_object(items[1]) == {"x": math.inf}
    assert (snapshot["low"], snapshot["ok"]) == (-math.inf, 1.5)
    source["low"] = 0.0
    assert snapshot["low"] == -math.inf, "a snapshot: the caller's objects change nothing"
    assert isinstance(refused, Failure)
    assert refused.failure().path == "record.items[1]"
    assert isinstance(deep, Failure)
    assert "JSON_MAX_DEPTH" in deep.failure().message
    assert isinstance(freeze_json(source), Failure), "freeze_json itself still refuses them"


def test_the_default_path_prefix_is_the_dollar_root() -> None:
    assert failure([math.nan]).path == "$[0]"
    assert failure(math.nan).path == "$"


def test_keys_that_are_not_identifiers_are_quoted_in_the_path() -> None:
    assert failure({"a b": [math.nan]}).path == '$["a b"][0]'
    assert failure({"": math.nan}).path == '$[""]'
    assert failure({"1x": math.nan}).path == '$["1x"]'


@pytest.mark.parametrize("key", [1, 1.5, None, True, ("t",), frozenset()])
def test_keys_other_than_str_are_rejected_at_the_objects_path(key: object) -> None:
    error = failure({"outer": {"ok": 1, key: 2}})
    assert error.path == "$.outer"
    assert error.message.endswith("object keys must be str")


def test_a_str_subclass_key_that_lies_in_equality_is_rejected_without_being_compared() -> None:
    key = StrKeyThatLiesInEquality("k")
    error = failure({"outer": {key: 1}})
    assert error.path == "$.outer"
    assert error.message == ("has a key of type StrKeyThatLiesInEquality; object keys must be str")


@pytest.mark.parametrize(
    "value",
    [
        b"bytes",
        bytearray(b"x"),
        {1, 2},
        frozenset(),
        object(),
        Color.RED,
        StrThatHashesDifferently("value"),
        complex(1, 2),
        iter([1]),
        (x for x in [1]),
        range(3),
        ObjectThatPretendsToBeADict(),
        ObjectThatRaisesOnEverything(),
    ],
    ids=lambda value: type(value).__name__,
)
def test_unsupported_types_are_rejected_without_running_their_code(value: object) -> None:
    error = failure({"arguments": [value]})
    assert error.path == "$.arguments[0]"
    assert "unsupported type" in error.message


def test_a_float_subclass_or_int_subclass_is_not_a_json_scalar() -> None:
    class Money(float):
        pass

    assert failure(Money(1.0)).message == "has unsupported type Money"
    assert failure(Color.RED).message == "has unsupported type Color"


def test_a_type_whose_name_raises_is_still_reported() -> None:
    error = failure([ObjectWithBrokenTypeName()])
    assert error.path == "$[0]"
    assert error.message == "has unsupported type ObjectWithBrokenTypeName"


def test_an_object_pretending_to_be_a_dict_is_not_read_as_one() -> None:
    assert isinstance(ObjectThatPretendsToBeADict(), dict)  # what isinstance believes
    assert (
        "unsupported type ObjectThatPretendsToBeADict"
        in failure(ObjectThatPretendsToBeADict()).message
    )


def test_dict_subclasses_are_read_only_through_dicts_own_methods() -> None:
    source = DictThatCountsReads({"a": 1, "b": [2]})
    value = frozen({"outer": source})
    assert source.calls == []
    assert value == frozendict({"outer": frozendict({"a": 1, "b": (2,)})})
    assert type(as_object(value)["outer"]) is frozendict


def test_a_dict_subclass_missing_hook_is_never_invoked() -> None:
    source = DictThatCountsReads()
    assert frozen(source) == frozendict()
    assert source.calls == []


def test_list_and_tuple_subclasses_are_read_only_through_their_base_methods() -> None:
    listed = ListThatCountsReads([1, [2]])
    tupled = TupleThatCountsReads((3, 4))
    value = frozen({"l": listed, "t": tupled})
    assert listed.calls == []
    assert TupleThatCountsReads.calls == []
    assert value == frozendict({"l": (1, (2,)), "t": (3, 4)})
    obj = as_object(value)
    assert type(obj["l"]) is tuple
    assert type(obj["t"]) is tuple


def test_a_frozendict_input_is_read_safely_and_rebuilt() -> None:
    source = FrozendictThatCountsReads({"a": [1]})
    value = frozen(source)
    assert FrozendictThatCountsReads.calls == []
    assert type(value) is frozendict
    assert value == frozendict({"a": (1,)})


def test_an_already_frozen_value_is_rebuilt_not_trusted() -> None:
    original = frozendict({"a": (1, frozendict({"b": 2}))})
    tampered = frozendict({"a": 1})
    dict.__setitem__(cast(dict[str, object], tampered), "a", [1, 2])  # a mutable list inside
    assert frozen(original) == original
    assert frozen(original) is not original
    rebuilt = as_object(frozen(tampered))
    assert rebuilt["a"] == (1, 2)
    assert type(rebuilt["a"]) is tuple


def test_cycles_are_rejected_with_the_path_of_the_repeated_container() -> None:
    looping_list: list[object] = [1]
    looping_list.append(looping_list)
    assert failure(looping_list).path == "$[1]"
    assert "cycle" in failure(looping_list).message

    looping_dict: dict[str, object] = {}
    looping_dict["self"] = {"again": looping_dict}
    assert failure(looping_dict, "arguments").path == "arguments.self.again"

    through_tuple: tuple[list[object]] = ([],)
    through_tuple[0].append(through_tuple)
    assert failure(through_tuple).path == "$[0][0]"


def test_a_container_shared_twice_without_a_cycle_is_accepted() -> None:
    shared = [1, {"x": 2}]
    value = frozen({"a": shared, "b": shared, "c": [shared, shared]})
    assert thaw_json(value) == {"a": shared, "b": shared, "c": [shared, shared]}


def test_containers_shared_at_every_level_fail_fast_instead_of_expanding_exponentially() -> None:
    # 60 levels that each hold the next one twice: 2**60 copies as a tree.
    value: list[object] = []
    for _ in range(60):
        value = [value, value]

    result = freeze_json(value, "arguments")

    assert isinstance(result, Failure)
    error = result.failure()
    assert "JSON_MAX_SHARED_VISITS" in error.message
    assert error.path.startswith("arguments[")


def test_sharing_up_to_the_limit_is_accepted_and_expands_as_a_tree() -> None:
    leaf = {"x": 1}
    value = [leaf] * (JSON_MAX_SHARED_VISITS + 1)

    frozen_value = freeze_json(value).unwrap()

    assert frozen_value == tuple(frozendict({"x": 1}) for _ in value)
    assert isinstance(freeze_json([*value, leaf]), Failure)


def test_nesting_up_to_json_max_depth_is_accepted_and_one_more_is_rejected() -> None:
    assert JSON_MAX_DEPTH == 64
    assert isinstance(freeze_json(nested_lists(JSON_MAX_DEPTH)), Success)
    assert isinstance(freeze_json(nested_dicts(JSON_MAX_DEPTH)), Success)
    error = failure(nested_lists(JSON_MAX_DEPTH + 1))
    assert error.path == "$" + "[0]" * JSON_MAX_DEPTH
    assert "JSON_MAX_DEPTH" in error.message
    assert failure(nested_dicts(JSON_MAX_DEPTH + 1)).path == "$" + ".a" * JSON_MAX_DEPTH


def test_absurd_nesting_fails_cleanly_instead_of_raising_recursion_error() -> None:
    for deep in (nested_lists(200_000), nested_dicts(200_000)):
        assert "JSON_MAX_DEPTH" in failure(deep).message


def test_huge_flat_inputs_are_frozen() -> None:
    value = frozen({"numbers": list(range(200_000)), "keys": {str(i): i for i in range(50_000)}})
    obj = as_object(value)
    assert len(cast(tuple[int, ...], obj["numbers"])) == 200_000
    assert as_object(obj["keys"])["49999"] == 49_999


def test_a_value_at_the_depth_limit_survives_the_recursive_standard_library() -> None:
    value = frozen(nested_dicts(JSON_MAX_DEPTH))
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value
    assert hash(value) == hash(frozen(nested_dicts(JSON_MAX_DEPTH)))
    assert repr(value).count("frozendict(") == JSON_MAX_DEPTH
    assert json.loads(json.dumps(thaw_json(value))) == thaw_json(value)


def test_freeze_json_object_requires_an_object() -> None:
    values: tuple[object, ...] = ([], "text", None, 1, ObjectThatRaisesOnEverything())
    for value in values:
        result = freeze_json_object(value, "arguments")
        assert isinstance(result, Failure)
        assert result.failure().path == "arguments"
        assert "JSON object" in result.failure().message
    assert freeze_json_object({"a": [1]}) == Success(frozendict({"a": (1,)}))


def test_freeze_json_object_reports_nested_problems_with_their_path() -> None:
    result = freeze_json_object({"a": [math.nan]}, "arguments")
    assert result == Failure(
        JsonError(JsonErrorCode.NOT_JSON, "arguments.a[0]", "is not a finite number")
    )


def test_thaw_json_gives_plain_dicts_and_lists() -> None:
    thawed = thaw_json(frozen({"a": [1, {"b": (2,)}]}))
    assert thawed == {"a": [1, {"b": [2]}]}
    assert type(thawed) is dict
    outer = cast(dict[str, list[object]], thawed)
    assert type(outer["a"]) is list
    assert type(outer["a"][1]) is dict


def test_thaw_json_returns_fresh_containers_each_time() -> None:
    value = frozen({"a": [1]})
    first = cast(dict[str, list[int]], thaw_json(value))
    first["a"].append(2)
    assert thaw_json(value) == {"a": [1]}


def test_thaw_json_raises_a_protocol_error_with_a_path_for_non_json() -> None:
    with pytest.raises(CourseProtocolError) as raised:
        thaw_json(cast(JsonValue, {"a": [object()]}))
    assert raised.value.path == "$.a[0]"
    assert isinstance(raised.value, ValueError)


def test_freeze_json_never_raises_on_hostile_objects() -> None:
    for value in (
        ObjectThatRaisesOnEverything(),
        [ObjectThatRaisesOnEverything()],
        {"k": ObjectThatRaisesOnEverything()},
        DictThatCountsReads(k=ObjectThatRaisesOnEverything()),
    ):
        assert isinstance(freeze_json(value), Failure)


@settings(max_examples=100, deadline=None)
@given(strategies.plain_json)
def test_thawing_a_frozen_value_gives_back_an_equal_plain_value(value: object) -> None:
    result = frozen(value)
    assert thaw_json(result) == value
    assert frozen(thaw_json(result)) == result
    assert hash(result) == hash(frozen(value))


def test_frozen_json_error_names_the_first_part_that_is_not_frozen() -> None:
    from course_protocol import frozen_json_error

    frozen = freeze_json({"a": [1, {"b": 2.5}]}).unwrap()
    assert frozen_json_error(frozen) is None
    assert frozen_json_error({"a": 1}) == JsonError(
        JsonErrorCode.NOT_JSON, "$", "is a dict, not a frozendict"
    )
    thawed_inside = frozendict({"a": (1, [2])})
    error = frozen_json_error(thawed_inside, "arguments")
    assert error is not None
    assert error.path == "arguments.a[1]"
    assert "not a frozendict or tuple" in error.message
    cyclic: dict[str, object] = {}
    holder = frozendict({"again": (cyclic,)})
    dict.__setitem__(cyclic, "x", holder)
    error = frozen_json_error(frozendict({"h": holder}))
    assert error is not None
