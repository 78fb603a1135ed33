"""No ``?key=`` credential in a log record of the libraries the transports run on.

httpx2 logs every request's URL at INFO (``HTTP Request: POST http://...?key=...``),
and uvicorn's access log every request's target: a vendor that takes its key
in the query would have it written to any log a user keeps. A filter on those
loggers masks the value of every `MASKED_QUERY_KEYS` parameter in a record
(its message and each argument) before any handler sees it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Final, final

import httpx2

from course_http._secrets import masked_path

__all__ = ["CLIENT_LOGGERS", "mask_query_credentials"]

CLIENT_LOGGERS: Final = ("httpx2",)
"""The HTTP client's loggers that write a request's URL (httpcore2's write none)."""


@final
class _QueryCredentialsMasked(logging.Filter):
    """Masks query credentials in each record; never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _masked(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_masked(argument) for argument in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {name: _masked(value) for name, value in record.args.items()}
        return True


def _masked(value: object) -> object:
    # The URL object is what httpx2 passes; "%s" shows it as its text, so the
    # masked text takes its place only when something was masked.
    text = str(value) if isinstance(value, httpx2.URL) else value
    if type(text) is not str:
        return value
    masked = masked_path(text)
    return value if masked == text else masked


_FILTER: Final = _QueryCredentialsMasked()


def mask_query_credentials(*names: str) -> None:
    """Mask query credentials in every record of the loggers ``names``, from now on.

    Idempotent: a logger gets the filter once. Logger filters apply to the
    records that logger makes, before its handlers and its ancestors' see them.
    """
    for name in names:
        logging.getLogger(name).addFilter(_FILTER)
