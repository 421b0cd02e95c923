"""Filters of the log written to stderr (``LOGGING`` in the settings)."""

from __future__ import annotations

import logging


class RefusalsOnOneLine(logging.Filter):
    """A refused request (a 4xx: permission denied, a suspicious host, a bad request) is logged
    on one line, its reason appended, without the traceback Django attaches: the traceback says
    only where the refusal was raised. Server errors (5xx) keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is None or status >= 500 or not record.exc_info:
            return True
        reason = str(record.exc_info[1]).encode("unicode_escape").decode("ascii")
        message = record.getMessage()
        if reason and reason not in message:
            message = f"{message}: {reason}"
        record.msg, record.args = message, None
        record.exc_info = record.exc_text = None
        return True
