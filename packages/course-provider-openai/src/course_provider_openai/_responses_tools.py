"""The events of the items that are not a message, a function call or reasoning.

Tools the vendor runs announce their phases (``response.web_search_call.searching``,
``response.mcp_call.failed``, ...), each for an open item of its kind and
none after the item's final phase; some stream one text the item repeats
when done (a custom Tool's input, an MCP call's arguments, the
interpreter's code); an image generation streams numbered partial images;
a shell call streams each command by ``command_index``, a shell call's
output the content of each command. Each function handles one event type
over the stream's `OutputItems` and raises `VendorError` with the first
thing wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from course_http import VendorErrorCode
from course_provider_openai._responses_items import OutputItems, open_entry
from course_provider_openai._responses_parts import stream_delta, stream_done
from course_provider_openai._responses_states import TextPart, ToolState

__all__ = ["STREAMED_TEXT", "TOOL_EVENTS"]

_Code = VendorErrorCode

STREAMED_TEXT: Final = {
    "custom_tool_call": "input",
    "mcp_call": "arguments",
    "code_interpreter_call": "code",
}
"""Each item kind whose events stream one text, and the key the item holds it under."""

_PHASES: Final[dict[str, tuple[str, bool]]] = {
    "response.web_search_call.in_progress": ("web_search_call", False),
    "response.web_search_call.searching": ("web_search_call", False),
    "response.web_search_call.completed": ("web_search_call", True),
    "response.file_search_call.in_progress": ("file_search_call", False),
    "response.file_search_call.searching": ("file_search_call", False),
    "response.file_search_call.completed": ("file_search_call", True),
    "response.code_interpreter_call.in_progress": ("code_interpreter_call", False),
    "response.code_interpreter_call.interpreting": ("code_interpreter_call", False),
    "response.code_interpreter_call.completed": ("code_interpreter_call", True),
    "response.image_generation_call.in_progress": ("image_generation_call", False),
    "response.image_generation_call.generating": ("image_generation_call", False),
    "response.image_generation_call.completed": ("image_generation_call", True),
    "response.mcp_call.in_progress": ("mcp_call", False),
    "response.mcp_call.completed": ("mcp_call", True),
    "response.mcp_call.failed": ("mcp_call", True),
    "response.mcp_list_tools.in_progress": ("mcp_list_tools", False),
    "response.mcp_list_tools.completed": ("mcp_list_tools", True),
    "response.mcp_list_tools.failed": ("mcp_list_tools", True),
    "response.compaction.compacting": ("compaction", False),
}
"""Each phase event, the item kind it is for, and whether it is that item's final phase."""

_TEXT_DELTAS: Final = {
    "response.custom_tool_call_input.delta": "custom_tool_call",
    "response.mcp_call_arguments.delta": "mcp_call",
    "response.code_interpreter_call_code.delta": "code_interpreter_call",
}
_TEXT_DONES: Final = {
    "response.custom_tool_call_input.done": "custom_tool_call",
    "response.mcp_call_arguments.done": "mcp_call",
    "response.code_interpreter_call_code.done": "code_interpreter_call",
}


def _phase(items: OutputItems, data: dict[str, Any], index: int) -> None:
    kind, final = _PHASES[data["type"]]
    tool = items.open_tool(data, index, kind)
    if tool.settled:
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER, index, f"follows the final phase of the {kind!r} item"
        )
    tool.settled = final


def _streamed_text(tool: ToolState) -> TextPart:
    if tool.text is None:
        tool.text = TextPart(tool.kind)
    return tool.text


def _text_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    tool = items.open_tool(data, index, _TEXT_DELTAS[data["type"]])
    stream_delta(
        items.failures, _streamed_text(tool), data, index, f"the {tool.kind!r} item's .done"
    )


def _text_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    tool = items.open_tool(data, index, _TEXT_DONES[data["type"]])
    stream_done(items.failures, _streamed_text(tool), data, STREAMED_TEXT[tool.kind], index)


def _partial_image(items: OutputItems, data: dict[str, Any], index: int) -> None:
    tool = items.open_tool(data, index, "image_generation_call")
    items.failures.text_at(data, "partial_image_b64", index)
    position = data.get("partial_image_index")
    if position != tool.partial_images or type(position) is not int:
        if type(position) is not int:
            items.failures.invalid(index, "partial_image_index", "an integer", position)
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER,
            index,
            f"sends partial image {position}, not {tool.partial_images}",
        )
    for key in ("background", "output_format", "quality", "size"):
        value = data.get(key)
        if value is not None and type(value) is not str:
            items.failures.invalid(index, key, "a string", value)
    tool.partial_images += 1


def _command_added(items: OutputItems, data: dict[str, Any], index: int) -> None:
    tool = items.open_tool(data, index, "shell_call", named=False)
    position = data.get("command_index")
    if position != len(tool.commands) or type(position) is not int:
        if type(position) is not int:
            items.failures.invalid(index, "command_index", "an integer", position)
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER, index, f"adds command {position}, not {len(tool.commands)}"
        )
    tool.commands.append(TextPart("command", items.failures.text_at(data, "command", index)))


def _command(items: OutputItems, data: dict[str, Any], index: int) -> TextPart:
    tool = items.open_tool(data, index, "shell_call", named=False)
    return open_entry(
        items.failures, tool.commands, data.get("command_index"), "command_index", "command", index
    )


def _command_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    obfuscation = data.get("obfuscation")
    if obfuscation is not None and type(obfuscation) is not str:
        items.failures.invalid(index, "obfuscation", "a string", obfuscation)
    stream_delta(
        items.failures,
        _command(items, data, index),
        data,
        index,
        "response.shell_call_command.done",
    )


def _command_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    part = _command(items, data, index)
    stream_done(items.failures, part, data, "command", index)
    part.open = False


def _output_content(items: OutputItems, data: dict[str, Any], index: int) -> ToolState:
    """The shell output an output content event names, its ``command_index`` open (or the next)."""
    tool = items.open_tool(data, index, "shell_call_output")
    position = data.get("command_index")
    if type(position) is not int:
        items.failures.invalid(index, "command_index", "an integer", position)
    if position == len(tool.outputs):
        tool.outputs.append(True)
    elif not 0 <= position < len(tool.outputs) or not tool.outputs[position]:
        items.failures.fail(
            _Code.VENDOR_EVENT_ORDER, index, f"command {position}'s output is not open"
        )
    return tool


def _output_delta(items: OutputItems, data: dict[str, Any], index: int) -> None:
    _output_content(items, data, index)
    delta = items.failures.object_at(data, "delta", index)
    for key in ("stdout", "stderr"):
        value = delta.get(key)
        if value is not None and type(value) is not str:
            items.failures.invalid(index, f"delta.{key}", "a string", value)


def _output_done(items: OutputItems, data: dict[str, Any], index: int) -> None:
    tool = _output_content(items, data, index)
    output = data.get("output")
    if type(output) is not list:
        items.failures.invalid(index, "output", "an array", output)
    tool.outputs[data["command_index"]] = False


_Handler = Callable[[OutputItems, dict[str, Any], int], None]
TOOL_EVENTS: Final[dict[str, _Handler]] = {
    **dict.fromkeys(_PHASES, _phase),
    **dict.fromkeys(_TEXT_DELTAS, _text_delta),
    **dict.fromkeys(_TEXT_DONES, _text_done),
    "response.image_generation_call.partial_image": _partial_image,
    "response.shell_call_command.added": _command_added,
    "response.shell_call_command.delta": _command_delta,
    "response.shell_call_command.done": _command_done,
    "response.shell_call_output_content.delta": _output_delta,
    "response.shell_call_output_content.done": _output_done,
}
"""Every event of a tool item, and its handler."""
