"""How a TRF file says that it is paired by the Clock system.

TRF-2026 has no code for it in its ``192`` table (ETT26): the nearest is ``CUSTOM_SWISS``, a
Swiss system that is not a FIDE one. So a Clock file carries ``192 CUSTOM_SWISS`` and, to say
which custom system, the comment line ``### clock system`` (TRF26 Remark 1: lines starting with
``###`` are comments, so every other TRF reader skips it). This is the convention of the clock
corpus. The master colour is the ordinary initial colour, ``152 W|B`` or ``XXC white1|black1``.

>>> is_clock_trf("012 Open\\n### clock system\\n192 CUSTOM_SWISS\\n")
True
>>> is_clock_trf("012 Open\\n### clock system\\n192 FIDE_DUTCH_2025\\n")
False
"""

from __future__ import annotations

import re

__all__ = ["CLOCK_MARKER", "CLOCK_TOURNAMENT_TYPE", "is_clock_trf", "mark_as_clock"]

CLOCK_MARKER = "### clock system"
CLOCK_TOURNAMENT_TYPE = "CUSTOM_SWISS"

_MARKER = re.compile(r"^###\s*clock system\s*$", re.IGNORECASE | re.MULTILINE)
_TYPE = re.compile(r"^192 (.*)$", re.MULTILINE)


def is_clock_trf(text: str) -> bool:
    """Return whether a TRF text is a Clock file: the marker comment, and no ``192`` code other
    than ``CUSTOM_SWISS``."""
    if not _MARKER.search(text.replace("\r\n", "\n").replace("\r", "\n")):
        return False
    codes = {m.group(1).strip().upper() for m in _TYPE.finditer(text)}
    return codes <= {CLOCK_TOURNAMENT_TYPE}


def mark_as_clock(trf_text: str) -> str:
    """Return TRF text with the marker comment after its first line, and ``192 CUSTOM_SWISS``
    when it has no ``192`` line (the writer of ``pairing.trf`` keeps no comments)."""
    if is_clock_trf(trf_text):
        return trf_text
    lines = trf_text.splitlines(keepends=True)
    newline = "\r\n" if trf_text.endswith("\r\n") else "\n"
    extra = [CLOCK_MARKER + newline]
    if not _TYPE.search(trf_text):
        extra.append(f"192 {CLOCK_TOURNAMENT_TYPE}{newline}")
    return "".join(lines[:1] + extra + lines[1:])
