"""The course pytest plugin: cassettes of real provider calls, and strict double fixtures.

Installed, it registers itself (the ``course`` entry point of ``pytest11``):

- ``--course-record-mode=none|once|new_episodes|all`` (`RecordMode`; ``none``
  by default: replay only, and a missing cassette fails the test);
- ``@pytest.mark.course_cassette("name", ...)`` and the ``course_cassette``
  fixture, a `CourseCassette` whose ``transport(base_url)`` or
  ``model(Model, config)`` is bound to ``cassettes/<module>/<name>.json``
  (`CASSETTES_FOLDER`) next to the test module;
- the ``scripted_model`` and ``fixture_provider`` fixtures: the doubles,
  validating requests, with ``assert_consumed()`` at teardown;
- ``@pytest.mark.course_allow_unplayed`` to skip that teardown check.
"""

import inspect as _inspect

from course_pytest._cassette import CourseCassette
from course_pytest._modes import RecordMode
from course_pytest._options import CASSETTES_FOLDER

__all__ = ["CASSETTES_FOLDER", "CourseCassette", "RecordMode"]

# Exported names carry this public module: tracebacks and reprs never show a private one.
for _name in __all__:
    if isinstance(_value := globals()[_name], type) or _inspect.isfunction(_value):
        _value.__module__ = __name__
del _name, _value
