"""Course request + adapter configuration to the Converse API request: data in, data out."""

from __future__ import annotations

from typing import Any

from course_http import VendorError, VendorErrorCode
from course_protocol import (
    CourseAssistantMessage,
    CourseModelRequest,
    CourseReasoningBlock,
    CourseTextBlock,
    CourseToolCall,
    CourseToolResultMessage,
    CourseUserMessage,
    is_blank,
    thaw_json,
)
from course_provider_bedrock._config import BedrockConfig
from course_provider_bedrock._wire import WIRE
from course_vendor import NamedTool, ToolChoice, Turns, plain_content, sent_blocks

__all__ = ["converse_request_body"]

_Block = dict[str, Any]


def _invalid(message: str) -> VendorError:
    return VendorError(VendorErrorCode.VENDOR_INVALID_REQUEST, message, vendor=WIRE)


def converse_request_body(request: CourseModelRequest, config: BedrockConfig) -> dict[str, Any]:
    """The JSON body (plain ``dict``/``list`` values) that asks ConverseStream for ``request``.

    The model is in the path, not the body. The body has ``messages``,
    ``system`` (``[{"text": ...}]``, when configured), ``inferenceConfig``
    (``maxTokens``, ``temperature``, ``topP``, ``stopSequences``: those
    set) and ``toolConfig`` (``tools`` as ``toolSpec`` s with
    ``inputSchema.json``, and ``toolChoice``: ``auto``, ``any`` for
    ``required``, ``tool`` for a `NamedTool`) when Tools are configured.
    Course messages become alternating turns:

    - a user message is a ``text`` block of a user turn;
    - an assistant message's reasoning blocks are ``reasoningContent``
      blocks (``reasoningText`` with its ``signature``, or the
      ``redactedContent``, from the ``bedrock-converse`` opaque data;
      reasoning another wire produced is left out, as
      ``course_vendor.sent_blocks`` leaves it), its text ``text`` blocks
      (blank ones left out) and its Tool calls ``toolUse`` blocks
      (``toolUseId``, ``name``, ``input``);
    - a Tool result is a ``toolResult`` block (``toolUseId``, ``content``
      as one ``text`` block, ``status`` ``error`` for a failed Tool) of the
      user turn right after the call.

    ``request`` is one ``course_vendor.check_sendable`` accepted (with
    ``reasoning`` sent). Raises `VendorError` ``VENDOR_INVALID_REQUEST``
    (nothing is sent) for a transcript the Turns order refuses.
    """
    body: dict[str, Any] = {"messages": _turns(request)}
    if config.system_prompt is not None:
        body["system"] = [{"text": config.system_prompt}]
    inference: dict[str, Any] = {}
    if config.max_output_tokens is not None:
        inference["maxTokens"] = config.max_output_tokens
    if config.temperature is not None:
        inference["temperature"] = config.temperature
    if config.top_p is not None:
        inference["topP"] = config.top_p
    if config.stop_sequences:
        inference["stopSequences"] = list(config.stop_sequences)
    if inference:
        body["inferenceConfig"] = inference
    if config.tools:
        tools: dict[str, Any] = {
            "tools": [
                {
                    "toolSpec": {
                        "name": tool.name,
                        "description": tool.description,
                        "inputSchema": {"json": thaw_json(tool.input_schema)},
                    }
                }
                for tool in config.tools
            ]
        }
        choice = _tool_choice(config.tool_choice)
        if choice is not None:
            tools["toolChoice"] = choice
        body["toolConfig"] = tools
    return body


def _tool_choice(choice: object) -> dict[str, Any] | None:
    # BedrockConfig refused "none", which the API has no member for.
    if choice == ToolChoice.AUTO:
        return {"auto": {}}
    if choice == ToolChoice.REQUIRED:
        return {"any": {}}
    if type(choice) is NamedTool:
        return {"tool": {"name": choice.name}}
    return None


def _assistant_blocks(message: CourseAssistantMessage) -> list[_Block]:
    blocks: list[_Block] = []
    # Another wire's reasoning is left out: only this wire can check its own.
    for block in sent_blocks(message, WIRE):
        if type(block) is CourseTextBlock:
            if not is_blank(block.text):
                blocks.append({"text": block.text})
        elif type(block) is CourseToolCall:
            blocks.append(
                {
                    "toolUse": {
                        "toolUseId": block.id,
                        "name": block.name,
                        "input": thaw_json(block.arguments),
                    }
                }
            )
        elif type(block) is CourseReasoningBlock:
            blocks.append(_reasoning(block))
    return blocks


def _reasoning(block: CourseReasoningBlock) -> _Block:
    # sent_blocks kept only this wire's reasoning: its opaque is ours.
    opaque = block.opaque
    assert opaque is not None
    redacted = opaque.data.get("redactedContent")
    if type(redacted) is str:
        return {"reasoningContent": {"redactedContent": redacted}}
    signature = opaque.data.get("signature")
    text: _Block = {"text": block.text}
    if type(signature) is str:
        text["signature"] = signature
    return {"reasoningContent": {"reasoningText": text}}


def _result_block(message: CourseToolResultMessage) -> _Block:
    result: _Block = {
        "toolUseId": message.tool_call_id,
        "content": [{"text": plain_content(message)}],
    }
    if message.is_error:
        result["status"] = "error"
    return {"toolResult": result}


def _turns(request: CourseModelRequest) -> list[dict[str, Any]]:
    order = Turns(
        role_key="role",
        parts_key="content",
        user_role="user",
        assistant_role="assistant",
        vendor=WIRE,
    )
    for position, message in enumerate(request.messages):
        if type(message) is CourseUserMessage:
            text = plain_content(message)
            order.user_text(text, [{"text": text}], position)
        elif type(message) is CourseAssistantMessage:
            blocks = _assistant_blocks(message)
            if not blocks:
                continue
            calls = [block["toolUse"]["toolUseId"] for block in blocks if "toolUse" in block]
            order.assistant(blocks, calls, position)
        else:
            order.tool_result(message.tool_call_id, [_result_block(message)], position)
    return order.finished()
