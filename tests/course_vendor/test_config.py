"""One configuration shape for every vendor: the same fields, names, checks and error.

Every table runs over the configuration class of every registered wire
(`every_config`): a field every vendor has is spelled, accepted and refused
the same way, with `VendorConfigError` ``VENDOR_INVALID_CONFIG`` and a message
that starts with the field's path (``AnthropicConfig.max_output_tokens must be
...``). Where a vendor may differ (whether its API needs an output limit), the
kit's rule is tested here and each vendor's choice in its own folder.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator
from typing import Any

import pytest

from course_http import Timeouts
from course_protocol import CourseError, CourseToolSpec
from course_provider_openai import OpenAIConfig
from course_vendor import COMMON_OPTIONS, VendorConfig, VendorConfigError, VendorConfigErrorCode
from tests.course_vendor.wires import every_config

ADD = CourseToolSpec("add", "Adds.", {"type": "object"})
MUL = CourseToolSpec("mul", "Multiplies.", {"type": "object"})
INVALID = VendorConfigErrorCode.VENDOR_INVALID_CONFIG


class ListThatLiesWhenIterated(list[object]):
    """A list whose own ``__iter__`` yields something other than what it holds."""

    def __iter__(self) -> Iterator[object]:
        return iter(["not a tool"])


class TupleThatLiesWhenIterated(tuple[object, ...]):
    """A tuple whose own ``__iter__`` yields something other than what it holds."""

    def __iter__(self) -> Iterator[object]:
        return iter(["not a tool"])


class DictOfTools(dict[str, CourseToolSpec]):
    """A mapping of Tools: not a sequence of them, whatever it iterates as."""

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values())


def refusal(config_class: type[VendorConfig], fields: dict[str, Any]) -> VendorConfigError:
    """The error ``config_class(**fields)`` raises; fails the test when it raises none."""
    with pytest.raises(VendorConfigError) as caught:
        config_class(**fields)
    return caught.value


@every_config
def test_every_vendor_spells_the_shared_fields_the_same_way(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    names = [field.name for field in dataclasses.fields(config_class)]

    assert names[:16] == [
        "model",
        "max_output_tokens",
        "system_prompt",
        "tools",
        "base_url",
        "timeouts",
        "temperature",
        "top_p",
        "stop_sequences",
        "tool_choice",
        "parallel_tool_calls",
        "user_id",
        "reasoning",
        "response_format",
        "extra_body",
        "extra_headers",
    ]
    assert tuple(names[6:14]) == COMMON_OPTIONS
    assert issubclass(config_class, VendorConfig)


@every_config
@pytest.mark.parametrize(
    ("field", "given", "kept"),
    [
        ("model", "m", "m"),
        ("max_output_tokens", 1, 1),
        ("max_output_tokens", 2**53 - 1, 2**53 - 1),
        ("system_prompt", None, None),
        ("system_prompt", "Be brief.", "Be brief."),
        ("system_prompt", " leading space", " leading space"),
        ("tools", (), ()),
        ("tools", (ADD, MUL), (ADD, MUL)),
        ("tools", [ADD, MUL], (ADD, MUL)),
        ("timeouts", None, None),
        ("timeouts", Timeouts(read=5.0), Timeouts(read=5.0)),
    ],
)
def test_a_good_value_is_kept_the_same_way_by_every_vendor(
    config_class: type[VendorConfig], minimal: dict[str, Any], field: str, given: Any, kept: Any
) -> None:
    config = config_class(**{**minimal, field: given})

    assert getattr(config, field) == kept
    assert type(getattr(config, field)) is type(kept)


@every_config
@pytest.mark.parametrize(
    ("field", "given", "words"),
    [
        ("model", "", "must be a non-blank str, got ''"),
        ("model", " \t\u3000", "must be a non-blank str, got ' \\t\\u3000'"),
        ("model", None, "must be a non-blank str, got None"),
        ("model", 3, "must be a non-blank str, got 3"),
        ("model", b"m", "must be a non-blank str, got bytes"),
        ("max_output_tokens", 0, "must be an int from 1 to 2**53 - 1"),
        ("max_output_tokens", -1, "got -1"),
        ("max_output_tokens", 2**53, "got 9007199254740992"),
        ("max_output_tokens", 10**20, "got a large int"),
        ("max_output_tokens", True, "got True"),
        ("max_output_tokens", 5.0, "got 5.0"),
        ("max_output_tokens", "5", "got '5'"),
        ("system_prompt", "", "must be a non-blank str or None (None for none), got ''"),
        ("system_prompt", "\n ", "got '\\n '"),
        ("system_prompt", 1, "got 1"),
        ("system_prompt", ["Be brief."], "got list"),
        ("tools", ADD, "must be a tuple or list of CourseToolSpec, got CourseToolSpec"),
        ("tools", "add", "got 'add'"),
        ("tools", {"add": ADD}, "got dict"),
        ("tools", DictOfTools(add=ADD), "got DictOfTools"),
        ("tools", iter([ADD]), "got list_iterator"),
        ("tools", None, "got None"),
        ("timeouts", 5.0, "must be a Timeouts or None, got 5.0"),
        ("timeouts", 30, "got 30"),
        ("timeouts", {"read": 5.0}, "got dict"),
    ],
)
def test_a_bad_value_is_refused_the_same_way_by_every_vendor_naming_the_field(
    config_class: type[VendorConfig], minimal: dict[str, Any], field: str, given: Any, words: str
) -> None:
    error = refusal(config_class, {**minimal, field: given})

    path = f"{config_class.__name__}.{field}"
    assert (error.code, error.path) == (INVALID, path)
    assert error.message.startswith(f"{path} must be ")
    assert words in error.message
    assert str(error) == f"VENDOR_INVALID_CONFIG: {error.message}"


@every_config
@pytest.mark.parametrize(
    ("tools", "path", "words"),
    [
        ((ADD, "mul"), "tools[1]", "must be a CourseToolSpec, got 'mul'"),
        ([None], "tools[0]", "must be a CourseToolSpec, got None"),
        ((ADD, {"name": "mul"}), "tools[1]", "got dict"),
        ((ADD, MUL, CourseToolSpec("add", "Again.", {})), "tools[2].name", "repeats the Tool name"),
    ],
)
def test_a_bad_tool_is_refused_naming_its_position(
    config_class: type[VendorConfig], minimal: dict[str, Any], tools: Any, path: str, words: str
) -> None:
    error = refusal(config_class, {**minimal, "tools": tools})

    assert (error.code, error.path) == (INVALID, f"{config_class.__name__}.{path}")
    assert words in error.message


@every_config
def test_tools_are_read_through_the_base_type_never_a_subclass_iter(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    for hostile in (ListThatLiesWhenIterated([ADD, MUL]), TupleThatLiesWhenIterated((ADD, MUL))):
        config = config_class(**{**minimal, "tools": hostile})

        assert config.tools == (ADD, MUL)
        assert type(config.tools) is tuple


@every_config
def test_a_list_of_tools_is_copied_so_a_later_change_does_not_reach_the_config(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    tools = [ADD]
    config = config_class(**{**minimal, "tools": tools})
    tools.append(MUL)

    assert config.tools == (ADD,)


@every_config
def test_a_config_is_frozen_comparable_and_never_holds_a_key(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    config = config_class(**minimal, system_prompt="Be brief.", tools=(ADD,))

    assert config == config_class(**minimal, system_prompt="Be brief.", tools=(ADD,))
    assert hash(config) == hash(config_class(**minimal, system_prompt="Be brief.", tools=(ADD,)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.model = "other"  # type: ignore[misc]
    names = {field.name for field in dataclasses.fields(config)}
    assert not {"key", "api_key", "secret", "token"} & names


def test_the_kit_keeps_a_model_name_as_given() -> None:
    # A vendor may narrow the names it takes (Gemini's is one path segment):
    # the kit's own check strips nothing.
    config = VendorConfig(" padded model ", base_url="http://x.invalid")

    assert config.model == " padded model "


@every_config
def test_what_is_left_out_is_none_or_empty(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    config = config_class(**minimal)

    assert (config.system_prompt, config.tools, config.timeouts) == (None, (), None)
    assert [getattr(config, option) for option in COMMON_OPTIONS] == [
        None,
        None,
        (),
        None,
        None,
        None,
        None,
        None,
    ]
    assert (config.extra_body, config.extra_headers) == (None, None)


@every_config
def test_an_output_limit_is_needed_only_by_a_vendor_whose_api_needs_one(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    path = f"{config_class.__name__}.max_output_tokens"
    without = {**minimal, "max_output_tokens": None}

    if config_class.OUTPUT_LIMIT_REQUIRED:
        assert refusal(config_class, without).message == (
            f"{path} must be an int from 1 to 2**53 - 1, got None"
        )
        with pytest.raises(TypeError, match="max_output_tokens"):
            config_class(model=minimal["model"])
    else:
        assert config_class(**without).max_output_tokens is None
        assert config_class(model=minimal["model"]).max_output_tokens is None
        assert refusal(config_class, {**minimal, "max_output_tokens": 0}).message == (
            f"{path} must be an int from 1 to 2**53 - 1 or None, got 0"
        )


@every_config
def test_the_first_bad_field_is_the_one_named(
    config_class: type[VendorConfig], minimal: dict[str, Any]
) -> None:
    error = refusal(
        config_class, {**minimal, "model": "", "max_output_tokens": 0, "base_url": "ftp://x"}
    )

    assert error.path == f"{config_class.__name__}.model"


def test_the_config_error_is_a_course_error_and_a_value_error_that_survives_pickling() -> None:
    error = refusal(OpenAIConfig, {"model": ""})
    copy = pickle.loads(pickle.dumps(error))

    assert isinstance(error, CourseError)
    assert isinstance(error, ValueError)
    assert type(copy) is VendorConfigError
    assert (copy.code, copy.path, copy.message) == (error.code, error.path, error.message)
    assert copy.code is INVALID
    assert [code.value for code in VendorConfigErrorCode] == [
        "VENDOR_INVALID_CONFIG",
        "VENDOR_INVALID_API_KEY",
    ]
