"""Our own Responses bodies for the grammar's tests: every documented kind, and how to judge one.

`TOOLS` holds, for each item kind that is not a message, a function call or
reasoning, its added form, its own events and its done form; `tool_body`
makes a whole stream of it. `judged` and `refused` judge a body with the
wire's plug-in (`course_vendor.judge_body`), as the cassettes' check does.
"""

from __future__ import annotations

from typing import Any

from returns.result import Failure, Success

from course_http import VendorError, VendorErrorCode
from course_protocol import freeze_json_object
from course_provider_openai import (
    RESPONSES_PLUGIN,
    ResponsesResult,
)
from course_vendor import judge_body
from tests.course_provider_openai.bodies import (
    MESSAGE_ID,
    RESPONSE_ID,
    call_events,
    call_item,
    completed,
    created,
    item_added,
    item_done,
    responses_events,
    text_events,
    text_item,
    text_part,
)
from tests.course_vendor.wires import sse_bytes

Code = VendorErrorCode

TEXT_AT = text_part(0, MESSAGE_ID)
Payload = dict[str, Any] | str


def body(*payloads: Payload, start: int = 0) -> bytes:
    """The payloads numbered from ``start`` and framed as the API frames them."""
    return sse_bytes(responses_events(*payloads, start=start))


def judged(*payloads: Payload) -> ResponsesResult:
    """The result of the body of ``payloads``, which must pass the grammar."""
    verdict = judge_body(RESPONSES_PLUGIN, body(*payloads))
    assert isinstance(verdict, Success), verdict.failure()
    result = verdict.unwrap()
    assert type(result) is ResponsesResult
    return result


def refused(*payloads: Payload) -> VendorError:
    """The error the grammar finds in the body of ``payloads``, which must fail."""
    verdict = judge_body(RESPONSES_PLUGIN, body(*payloads))
    assert isinstance(verdict, Failure), verdict.unwrap()
    error = verdict.failure()
    assert type(error) is VendorError
    assert error.vendor == "openai-responses"
    return error


def frozen(value: dict[str, Any]) -> Any:
    """``value`` as the frozen JSON object a result holds."""
    return freeze_json_object(value).unwrap()


ANNOTATIONS = [
    {
        "type": "url_citation",
        "url": "https://a.example",
        "title": "A",
        "start_index": 0,
        "end_index": 3,
    },
    {"type": "file_citation", "file_id": "file_1", "filename": "a.pdf", "index": 4},
    {
        "type": "container_file_citation",
        "container_id": "cntr_1",
        "file_id": "cfile_1",
        "filename": "plot.png",
        "start_index": 0,
        "end_index": 9,
    },
    {"type": "file_path", "file_id": "file_2", "index": 9},
]


def annotated_text(annotations: list[dict[str, Any] | None]) -> list[Payload]:
    """A whole message streamed as ``See this.``, ``annotations`` added to its part in order."""
    added = [
        {
            "type": "response.output_text.annotation.added",
            **TEXT_AT,
            "annotation_index": position,
            "annotation": annotation,
        }
        for position, annotation in enumerate(annotations)
    ]
    events: list[Payload] = [*text_events("See ", "this.")]
    events[4:4] = added
    return events


def phases(kind: str, item_id: str, *phases: str) -> list[dict[str, Any]]:
    """The phase events ``response.<kind>.<phase>`` of the item ``item_id``, in order."""
    where = {"item_id": item_id, "output_index": 0}
    return [{"type": f"response.{kind}.{phase}", **where} for phase in phases]


WHERE = {"item_id": "it_1", "output_index": 0}
"""Where the events of the one tool item of a `TOOLS` body point."""

TOOLS: dict[str, tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]] = {
    "web_search_call": (
        {"status": "in_progress"},
        phases("web_search_call", "it_1", "in_progress", "searching", "completed"),
        {"status": "completed", "action": {"type": "search", "query": "weather"}},
    ),
    "file_search_call": (
        {"status": "in_progress", "queries": []},
        phases("file_search_call", "it_1", "in_progress", "searching", "completed"),
        {
            "status": "completed",
            "queries": ["secret"],
            "results": [{"file_id": "f1", "score": 0.5}],
        },
    ),
    "code_interpreter_call": (
        {"status": "in_progress", "container_id": "cntr_1", "code": ""},
        [
            *phases("code_interpreter_call", "it_1", "in_progress"),
            {"type": "response.code_interpreter_call_code.delta", **WHERE, "delta": "print("},
            {"type": "response.code_interpreter_call_code.delta", **WHERE, "delta": "2)"},
            {"type": "response.code_interpreter_call_code.done", **WHERE, "code": "print(2)"},
            *phases("code_interpreter_call", "it_1", "interpreting", "completed"),
        ],
        {
            "status": "completed",
            "container_id": "cntr_1",
            "code": "print(2)",
            "outputs": [{"type": "logs", "logs": "2\n"}],
        },
    ),
    "image_generation_call": (
        {"status": "in_progress"},
        [
            *phases("image_generation_call", "it_1", "in_progress", "generating"),
            *(
                {
                    "type": "response.image_generation_call.partial_image",
                    **WHERE,
                    "partial_image_index": position,
                    "partial_image_b64": "iVBORw0KGgo=",
                    "size": "1024x1024",
                }
                for position in range(2)
            ),
            *phases("image_generation_call", "it_1", "completed"),
        ],
        {"status": "completed", "result": "iVBORw0KGgo=", "revised_prompt": "a cat"},
    ),
    "mcp_call": (
        {"name": "roll", "server_label": "dice", "arguments": ""},
        [
            *phases("mcp_call", "it_1", "in_progress"),
            {"type": "response.mcp_call_arguments.delta", **WHERE, "delta": '{"sides":'},
            {"type": "response.mcp_call_arguments.delta", **WHERE, "delta": " 6}"},
            {"type": "response.mcp_call_arguments.done", **WHERE, "arguments": '{"sides": 6}'},
            *phases("mcp_call", "it_1", "completed"),
        ],
        {"name": "roll", "server_label": "dice", "arguments": '{"sides": 6}', "output": "4"},
    ),
    "mcp_list_tools": (
        {"server_label": "dice", "tools": []},
        phases("mcp_list_tools", "it_1", "in_progress", "failed"),
        {"server_label": "dice", "tools": [], "error": "unreachable"},
    ),
    "mcp_approval_request": (
        {"name": "roll", "server_label": "dice", "arguments": "{}"},
        [],
        {"name": "roll", "server_label": "dice", "arguments": "{}"},
    ),
    "mcp_approval_response": (
        {},
        [],
        {"approval_request_id": "mcpr_1", "approve": True, "reason": None},
    ),
    "custom_tool_call": (
        {"call_id": "call_c", "name": "grep", "input": ""},
        [
            {"type": "response.custom_tool_call_input.delta", **WHERE, "delta": "grep -n"},
            {"type": "response.custom_tool_call_input.delta", **WHERE, "delta": " TODO"},
            {"type": "response.custom_tool_call_input.done", **WHERE, "input": "grep -n TODO"},
        ],
        {"call_id": "call_c", "name": "grep", "input": "grep -n TODO"},
    ),
    "custom_tool_call_output": (
        {},
        [],
        {"call_id": "call_c", "output": "none", "status": "completed"},
    ),
    "shell_call": (
        {"call_id": "call_s", "status": "in_progress", "action": {"commands": []}},
        [
            {
                "type": "response.shell_call_command.added",
                "output_index": 0,
                "command_index": 0,
                "command": "",
            },
            {
                "type": "response.shell_call_command.delta",
                "output_index": 0,
                "command_index": 0,
                "delta": "ls",
            },
            {
                "type": "response.shell_call_command.delta",
                "output_index": 0,
                "command_index": 0,
                "delta": " -la",
                "obfuscation": "x1",
            },
            {
                "type": "response.shell_call_command.done",
                "output_index": 0,
                "command_index": 0,
                "command": "ls -la",
            },
        ],
        {
            "call_id": "call_s",
            "status": "completed",
            "action": {"commands": ["ls -la"], "timeout_ms": 1000},
            "environment": {"type": "local"},
        },
    ),
    "shell_call_output": (
        {"call_id": "call_s", "status": "in_progress", "output": []},
        [
            {
                "type": "response.shell_call_output_content.delta",
                **WHERE,
                "command_index": 0,
                "delta": {"stdout": "a\n", "stderr": None},
            },
            {
                "type": "response.shell_call_output_content.done",
                **WHERE,
                "command_index": 0,
                "output": [
                    {"stdout": "a\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}
                ],
            },
        ],
        {
            "call_id": "call_s",
            "status": "completed",
            "output": [
                {"stdout": "a\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}
            ],
        },
    ),
    "compaction": (
        {},
        phases("compaction", "it_1", "compacting"),
        {"encrypted_content": "gAAA-compacted", "created_by": "server"},
    ),
    "computer_call": (
        {"call_id": "call_p", "status": "in_progress", "pending_safety_checks": []},
        [],
        {
            "call_id": "call_p",
            "status": "completed",
            "pending_safety_checks": [],
            "action": {"type": "click", "button": "left", "x": 1, "y": 2},
        },
    ),
    "computer_call_output": (
        {},
        [],
        {
            "call_id": "call_p",
            "status": "completed",
            "output": {"type": "computer_screenshot", "file_id": "f"},
        },
    ),
    "local_shell_call": (
        {"call_id": "call_l", "status": "in_progress"},
        [],
        {
            "call_id": "call_l",
            "status": "completed",
            "action": {"type": "exec", "command": ["ls"], "env": {}},
        },
    ),
    "local_shell_call_output": ({}, [], {"output": "a\n", "status": "completed"}),
    "apply_patch_call": (
        {"call_id": "call_a", "status": "in_progress"},
        [],
        {
            "call_id": "call_a",
            "status": "completed",
            "operation": {"type": "update_file", "path": "a.py", "diff": "@@"},
        },
    ),
    "apply_patch_call_output": (
        {},
        [],
        {"call_id": "call_a", "status": "failed", "output": "no such file"},
    ),
    "function_call_output": ({}, [], {"call_id": "call_f", "output": "42", "status": "completed"}),
    "tool_search_call": (
        {"execution": "server", "status": "in_progress"},
        [],
        {
            "execution": "server",
            "status": "completed",
            "arguments": {"query": "weather"},
            "call_id": None,
        },
    ),
    "tool_search_output": (
        {},
        [],
        {
            "execution": "server",
            "status": "completed",
            "tools": [{"type": "function", "name": "w"}],
        },
    ),
    "additional_tools": ({}, [], {"role": "developer", "tools": []}),
    "program": ({}, [], {"call_id": "call_g", "code": "x = 1", "fingerprint": "fp"}),
    "program_output": ({}, [], {"call_id": "call_g", "result": "1", "status": "completed"}),
}
"""Every documented item kind but a message, a function call and reasoning: its added form,
its own events, and its done form (each without ``id`` and ``type``)."""


def tool_body(kind: str) -> list[Payload]:
    """A whole stream of one item of ``kind`` (a `TOOLS` key), done, repeated by the terminal."""
    added, events, done = TOOLS[kind]
    whole = {"id": "it_1", "type": kind, **done}
    return [
        created(),
        item_added(0, {"id": "it_1", "type": kind, **added}),
        *events,
        item_done(0, whole),
        completed([whole]),
    ]


def terminal(kind: str, **response: Any) -> dict[str, Any]:
    """``response.<kind>`` whose response has ``status`` ``kind`` and the fields given."""
    return {"type": f"response.{kind}", "response": {"id": RESPONSE_ID, "status": kind, **response}}


TEXT_AND_CALL: list[Payload] = [*text_events("Adding.", output_index=0), *call_events(1)]
STREAMED = [text_item("Adding."), call_item()]
