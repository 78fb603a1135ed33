"""A worked example: a made-up JSON-lines provider behind the ``CourseModel`` port.

The transport speaks one JSON object per line (see ``_wire.py``); the
adapter parses each line as untrusted input, keeps the provider's ids
opaque, normalizes once into course values, and rejects contradictory
terminals. ``docs/writing-a-provider-adapter.md`` walks through it, and
``tests/examples`` runs the conformance kit against it.
"""

from examples.jsonl_provider._adapter import JsonlProviderAdapter, Transport
from examples.jsonl_provider._errors import JsonlProviderError, JsonlProviderErrorCode

__all__ = ["JsonlProviderAdapter", "JsonlProviderError", "JsonlProviderErrorCode", "Transport"]
