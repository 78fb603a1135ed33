"""Which output items of the Responses API the course carries, and what each refused one is.

The tools the vendor runs are carried (it answers them itself); what the
client runs awaits an answer the port has no form for and is refused,
`unsupported_kind` saying what it is.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["CARRIED_KINDS", "VENDOR_TOOL_KINDS", "carried", "unsupported_kind"]

VENDOR_TOOL_KINDS: Final = frozenset(
    {
        "web_search_call",
        "file_search_call",
        "code_interpreter_call",
        "image_generation_call",
        "mcp_call",
        "mcp_list_tools",
        "compaction",
        "tool_search_call",
        "tool_search_output",
    }
)
"""The output items of tools the vendor runs, carried as `CourseVendorToolBlock` s.

The vendor ran each and answered it itself, so a loop has nothing to
answer: it sends the item back as it came. A Tool search is one only when
its ``execution`` is ``server``; a client's is refused.
"""

CARRIED_KINDS: Final = frozenset({"message", "function_call", "reasoning"}) | VENDOR_TOOL_KINDS
"""The output item kinds the mapping carries; every other one is ``VENDOR_UNSUPPORTED_CONTENT``."""

_KINDS: Final[dict[str, str]] = {
    "mcp_approval_request": "the vendor asking the client to approve an MCP Tool call",
    "mcp_approval_response": "an answer to an MCP approval request",
    "computer_call": "a computer action the client performs",
    "computer_call_output": "the screenshot a computer action returned",
    "local_shell_call": "a shell command the client runs",
    "local_shell_call_output": "the output of a shell command the client ran",
    "shell_call_output": "the output of a shell command",
    "apply_patch_call": "a file patch the client applies",
    "apply_patch_call_output": "the result of a file patch",
    "custom_tool_call": "a call of a custom Tool the client runs, its input free text",
    "custom_tool_call_output": "the output of a custom Tool",
    "function_call_output": "a function's output placed in the response",
    "tool_search_output": "the Tools a Tool search the client runs found",
    "additional_tools": "Tools the vendor adds to the conversation",
    "program": "a program the model writes to call Tools",
    "program_output": "the result of a program that called Tools",
}
"""What each output item the course cannot carry is, for the message that refuses it."""


def unsupported_kind(kind: str, item: dict[str, Any]) -> str:
    """What the output ``item`` of type ``kind`` is, said for a refusal: who runs it, and what.

    A shell call and a Tool search say who runs them in the item itself
    (``environment``, ``execution``).
    """
    if kind == "shell_call":
        environment = item.get("environment")
        place = environment.get("type") if type(environment) is dict else None
        if place == "container_reference":
            return "a shell command the vendor runs in its container"
        return "a shell command the client runs"
    if kind == "tool_search_call":
        runner = "the client" if item.get("execution") == "client" else "the vendor"
        return f"a Tool search {runner} runs"
    return _KINDS[kind]


def carried(kind: str, item: dict[str, Any]) -> bool:
    """Whether the course carries the output ``item`` of type ``kind``."""
    if kind == "tool_search_call" or kind == "tool_search_output":
        return item.get("execution") != "client"
    return kind in CARRIED_KINDS
