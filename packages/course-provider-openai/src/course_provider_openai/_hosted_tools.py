"""The tools the Responses API runs itself, as ``OpenAIConfig.hosted_tools`` declares them.

A hosted tool (``{"type": "web_search"}``, ``{"type": "file_search",
"vector_store_ids": [...]}``, an MCP server) is the vendor's own JSON: the
adapter checks its form and sends it as given, after the function Tools,
in ``tools``; what each tool's fields mean is the vendor's to judge.
"""

from __future__ import annotations

from course_protocol import JsonObject, freeze_json_object, is_blank
from course_protocol.untrusted import described_setting, sequence_snapshot
from course_provider_openai import _responses_wire as wire
from course_vendor import config_error

__all__ = ["checked_hosted_tools"]


def checked_hosted_tools(value: object, path: str) -> tuple[JsonObject, ...]:
    """``value`` as a tuple of frozen JSON objects, each a hosted tool of the Responses API.

    Raises `course_vendor.VendorConfigError` ``VENDOR_INVALID_CONFIG`` naming
    the path (``OpenAIConfig.hosted_tools[0].type``) when ``value`` is not a
    tuple or list, a tool is not a JSON object, or its ``type`` is not a
    non-blank ``str`` or is ``function`` (a function Tool is a
    ``CourseToolSpec`` in ``tools``, whose calls the loop answers).
    """
    items = sequence_snapshot(value)
    if items is None:
        raise config_error(
            path, f"must be a tuple or list of JSON objects, got {described_setting(value)}"
        )
    tools: list[JsonObject] = []
    for position, item in enumerate(items):
        where = f"{path}[{position}]"
        frozen = freeze_json_object(item, where)
        if not isinstance(frozen.value_or(None), dict):
            problem = frozen.failure()
            raise config_error(problem.path, problem.message)
        tool = frozen.unwrap()
        kind = tool.get(wire.TYPE_KEY)
        if type(kind) is not str or is_blank(kind):
            raise config_error(
                f"{where}.type", f"must be a non-blank str, got {described_setting(kind)}"
            )
        if kind == wire.FUNCTION_TYPE:
            raise config_error(
                f"{where}.type",
                "is 'function': a function Tool is a CourseToolSpec in tools, "
                "whose calls the loop answers",
            )
        tools.append(tool)
    return tuple(tools)
