"""The package's table of contents and its docstrings."""

from __future__ import annotations

import inspect

import course_provider_openai


def test_all_lists_exactly_the_public_names_and_each_resolves() -> None:
    public = {name for name in vars(course_provider_openai) if not name.startswith("_")}
    assert set(course_provider_openai.__all__) == public
    assert len(course_provider_openai.__all__) == len(set(course_provider_openai.__all__))


def test_every_public_function_and_class_has_a_docstring() -> None:
    for name in course_provider_openai.__all__:
        value = getattr(course_provider_openai, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{name} has no docstring"
            for member_name, member in vars(value).items():
                if not member_name.startswith("_") and inspect.isfunction(member):
                    assert inspect.getdoc(member), f"{name}.{member_name} has no docstring"


def test_the_wire_names_and_paths_are_the_documented_ones() -> None:
    assert course_provider_openai.CHAT_WIRE == "openai-chat"
    assert course_provider_openai.RESPONSES_WIRE == "openai-responses"
    assert course_provider_openai.CHAT_COMPLETIONS_PATH == "/chat/completions"
    assert course_provider_openai.RESPONSES_PATH == "/responses"
    assert course_provider_openai.DEFAULT_BASE_URL == "https://api.openai.com/v1"


def test_both_apis_spell_the_error_body_the_same_so_one_reader_serves_both() -> None:
    from course_provider_openai import _chat_wire, _responses_wire

    names = ("ERROR_KEY", "ERROR_TYPE_KEY", "ERROR_CODE_KEY", "ERROR_MESSAGE_KEY")
    assert [getattr(_chat_wire, name) for name in names] == ["error", "type", "code", "message"]
    assert [getattr(_responses_wire, name) for name in names] == [
        "error",
        "type",
        "code",
        "message",
    ]
