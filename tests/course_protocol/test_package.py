"""The package's table of contents, its docstrings, and the CourseModel port."""

from __future__ import annotations

import inspect
from contextlib import aclosing

import course_protocol
from course_protocol import (
    CourseAssistantMessage,
    CourseModel,
    CourseModelChunk,
    CourseModelRequest,
    CourseModelResponse,
    CourseModelUsage,
    CourseStopReason,
    CourseTextBlock,
    CourseTextDeltaChunk,
    CourseUserMessage,
)
from course_stream import AbortController, AbortSignal, EventStream


def test_all_lists_exactly_the_public_names_and_each_resolves() -> None:
    # The public submodules (untrusted, calls, strict_json) are attributes of the package too.
    public = {
        name
        for name, value in vars(course_protocol).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert set(course_protocol.__all__) == public
    assert len(course_protocol.__all__) == len(set(course_protocol.__all__))


def test_every_public_function_and_class_has_a_docstring() -> None:
    for name in course_protocol.__all__:
        value = getattr(course_protocol, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), f"{name} has no docstring"


class EchoModel:
    """The smallest CourseModel: echoes the last user message as one text delta."""

    def stream(
        self, request: CourseModelRequest, signal: AbortSignal
    ) -> EventStream[CourseModelChunk, CourseModelResponse]:
        stream: EventStream[CourseModelChunk, CourseModelResponse] = EventStream()
        last = request.messages[-1]
        text = last.content if isinstance(last, CourseUserMessage) else ""
        assert isinstance(text, str)
        stream.push(CourseTextDeltaChunk(request.id, text))
        stream.finish(
            CourseModelResponse(
                f"response-{request.id}",
                request.id,
                CourseAssistantMessage(f"message-{request.id}", (CourseTextBlock(text),)),
                CourseStopReason.STOP,
                CourseModelUsage(1, 1),
            )
        )
        return stream


async def test_an_adapter_satisfies_the_port_structurally() -> None:
    model: CourseModel = EchoModel()
    request = CourseModelRequest("request-1", (CourseUserMessage("user-1", "hello"),))
    stream = model.stream(request, AbortController().signal)
    async with aclosing(aiter(stream)) as events:
        chunks = [chunk async for chunk in events]
    response = await stream.result
    assert chunks == [CourseTextDeltaChunk("request-1", "hello")]
    assert response.request_id == "request-1"
    assert response.message.content == (CourseTextBlock("hello"),)
