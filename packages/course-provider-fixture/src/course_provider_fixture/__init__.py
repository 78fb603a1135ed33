"""FixtureProviderAdapter: replays untrusted provider fixtures into the course protocol.

- `FixtureProviderAdapter`: a ``CourseModel`` that plays a schema-1 fixture's
  responses in order, failing closed with `FixtureProviderError`.
- `FixtureProviderError` and its `FixtureProviderErrorCode` set of stable codes.
- `FixtureRecorder`: wraps any ``CourseModel``, passes its streams through
  unchanged and records them as a schema-1 fixture.
- `load_fixture`: strict reading of fixture files into plain JSON values.
- `parse_records`, `parse_wire_usage`, `parse_wire_stop_reason`: the
  boundary parsers of records, usage and stop reasons in the transport's
  vocabulary, each returning a ``returns`` ``Result`` (a whole fixture is
  parsed by `FixtureProviderAdapter.from_fixture`).

This package is the only place the transport vocabulary is spelled.
"""

import inspect as _inspect

from course_provider_fixture._adapter import FixtureProviderAdapter
from course_provider_fixture._errors import FixtureProviderError, FixtureProviderErrorCode
from course_provider_fixture._loader import load_fixture
from course_provider_fixture._parser import parse_records
from course_provider_fixture._reads import parse_wire_stop_reason, parse_wire_usage
from course_provider_fixture._recorder import FixtureRecorder

__all__ = [
    "FixtureProviderAdapter",
    "FixtureProviderError",
    "FixtureProviderErrorCode",
    "FixtureRecorder",
    "load_fixture",
    "parse_records",
    "parse_wire_stop_reason",
    "parse_wire_usage",
]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
