"""``python -m course_cli`` and the ``course`` console script (``course_cli.__main__:main``)."""

import sys

from course_cli._cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
