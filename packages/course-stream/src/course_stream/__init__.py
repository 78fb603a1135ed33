"""Single-consumer async event streams and an AbortController/AbortSignal for asyncio.

Generic primitives, stdlib only:

- `EventStream`: a single-consumer async queue of events with a separate terminal
  result (``await stream.result``); `EventStreamIterator` is its consumer side and
  `EventStreamStateError` reports misuse.
- `AbortController` / `AbortSignal` / `AbortError`: a cancellation signal, and
  `race_abort` to await something unless the signal aborts first.
- `run_producer`: runs a stream's production as one task, interrupted by a signal.
- `forward_source` and `SourcePlay`: the one abort-aware loop that plays an async
  source into a stream; an adapter supplies what to do with an item and the end.
- `collect`: every event of a stream and its result, in one await.
- `claim_iterator_once`: a process-wide registry so one iterator feeds one consumer.
- `aclose_quietly`: close a source production stopped reading, never masking why.
"""

import inspect as _inspect

from course_stream._abort import AbortController, AbortError, AbortSignal
from course_stream._closing import aclose_quietly
from course_stream._collect import collect
from course_stream._errors import EventStreamStateError
from course_stream._event_stream import EventStream, EventStreamIterator
from course_stream._forward import SourcePlay, forward_source
from course_stream._ownership import claim_iterator_once
from course_stream._producer import run_producer
from course_stream._race import race_abort

__all__ = [
    "AbortController",
    "AbortError",
    "AbortSignal",
    "EventStream",
    "EventStreamIterator",
    "EventStreamStateError",
    "SourcePlay",
    "aclose_quietly",
    "claim_iterator_once",
    "collect",
    "forward_source",
    "race_abort",
    "run_producer",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
