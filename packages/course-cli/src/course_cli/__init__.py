"""The course command: replay and check provider fixtures, and run a Tool round-trip demo.

This package is the composition root: it wires ``FixtureProviderAdapter``,
``ScriptedModel`` and the real vendor models (``--wire``) to the
``CourseModel`` port. Nothing imports it.

- `main`: run the ``course`` command in-process and get its exit status.
- `run_demo`: the demo's agent loop over any ``CourseModel``; `DemoStoppedError`
  says why it stopped early.
"""

import inspect as _inspect

from course_cli._cli import main
from course_cli._demo import DemoStoppedError, run_demo

__all__ = ["DemoStoppedError", "main", "run_demo"]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
