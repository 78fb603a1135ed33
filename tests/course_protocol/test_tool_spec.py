"""CourseToolSpec: a validated, deeply immutable description of one Tool."""

from __future__ import annotations

import pickle

import pytest
from frozendict import frozendict

from course_protocol import CourseError, CourseProtocolError, CourseToolSpec


def test_schema_is_deep_snapshotted_into_a_frozendict() -> None:
    schema: dict[str, object] = {"type": "object", "properties": {"left": {"type": "number"}}}
    spec = CourseToolSpec("add", "Adds two numbers.", schema)
    schema["properties"] = {}
    assert type(spec.input_schema) is frozendict
    assert spec.input_schema == {"type": "object", "properties": {"left": {"type": "number"}}}
    assert type(spec.input_schema["properties"]) is frozendict
    with pytest.raises(AttributeError):
        spec.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "description", "schema", "path"),
    [
        ("", "d", {}, "name"),
        ("\u3000", "d", {}, "name"),
        (1, "d", {}, "name"),
        ("add", None, {}, "description"),
        ("add", "d", [], "input_schema"),
        ("add", "d", {"x": float("nan")}, "input_schema.x"),
    ],
)
def test_bad_fields_raise_with_the_path(
    name: object, description: object, schema: object, path: str
) -> None:
    with pytest.raises(CourseProtocolError) as caught:
        CourseToolSpec(name, description, schema)  # type: ignore[arg-type]
    assert caught.value.path == path


def test_specs_compare_hash_and_pickle_by_value() -> None:
    spec = CourseToolSpec("add", "Adds.", {"type": "object"})
    same = CourseToolSpec("add", "Adds.", {"type": "object"})
    assert spec == same
    assert hash(spec) == hash(same)
    assert pickle.loads(pickle.dumps(spec)) == spec


def test_course_error_carries_code_and_message() -> None:
    from enum import StrEnum

    class Code(StrEnum):
        BROKEN = "BROKEN"

    error = CourseError(Code.BROKEN, "it broke")
    assert error.code is Code.BROKEN
    assert error.message == "it broke"
    assert str(error) == "BROKEN: it broke"
