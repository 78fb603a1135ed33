"""The names of what the kit checks, and of the situations it checks them in."""

from enum import StrEnum, unique

__all__ = ["Invariant", "Scenario"]


@unique
class Invariant(StrEnum):
    """One promise of the ``CourseModel`` port; a broken one names itself."""

    NO_NETWORK = "no-network"
    """Neither building the model nor streaming from it opens a socket or resolves a name."""

    RETURNS_STREAM = "returns-stream"
    """``stream(request, signal)`` returns an ``EventStream`` without raising."""

    SETTLES_ONCE = "settles-once"
    """The stream reaches exactly one terminal, keeps it, and never tries a second one."""

    CHUNK_REQUEST_ID = "chunk-request-id"
    """Every chunk carries the id of the request being answered."""

    ITERATION_MATCHES_RESULT = "iteration-matches-result"
    """Iteration and ``result`` both succeed, or both fail with the same exception object."""

    PRE_ABORT_REJECTS = "pre-abort-rejects"
    """A signal aborted before the call fails the stream with its reason and no chunk."""

    ABORT_REJECTS = "abort-rejects"
    """An abort before the terminal fails the stream promptly with the signal's reason."""

    RESPONSE_CORRELATED = "response-correlated"
    """The terminal response answers the request it was asked for."""

    TERMINAL_CONSISTENT = "terminal-consistent"
    """The stop reason agrees with the content (``terminal_semantics_error``).

    ``toolCall`` carries Tool calls; ``stop`` and ``refusal`` carry none;
    ``length`` and ``pauseTurn`` may carry any complete blocks.
    """

    USAGE_IN_RANGE = "usage-in-range"
    """Each usage count is one ``CourseModelUsage`` accepts: 0 to 2**53 - 1, parts within wholes.

    A count the vendor did not send is ``None``; cached input is part of
    the input, reasoning part of the output.
    """

    STREAM_MATCHES_MESSAGE = "stream-matches-message"
    """The chunks tell the message: text, reasoning and Tool calls, each in order.

    The text deltas joined are the message's text (``text_from_assistant``),
    the reasoning deltas joined the text of its reasoning blocks, and the
    Tool-call chunks its Tool-call blocks.
    """

    DEEPLY_IMMUTABLE = "deeply-immutable"
    """Chunks and responses are exact, frozen protocol values, immutable all the way down."""

    NO_PENDING_TASKS = "no-pending-tasks"
    """Once the stream settled, every task the model started finishes within the cleanup bound."""

    NO_ASYNCIO_ERRORS = "no-asyncio-errors"
    """asyncio reports nothing: no exception never retrieved, no task destroyed while pending."""


@unique
class Scenario(StrEnum):
    """One way the kit drives a fresh model through a single call."""

    COMPLETE = "complete"
    """No abort: consume every chunk, then the result."""

    PRE_ABORTED = "pre-aborted"
    """The signal is already aborted when ``stream`` is called."""

    ABORT_BEFORE_FIRST_CHUNK = "abort-before-first-chunk"
    """Abort right after ``stream`` returns, before the loop runs the producer."""

    ABORT_AFTER_FIRST_CHUNK = "abort-after-first-chunk"
    """Abort as soon as the first chunk is observed."""
