"""Narrow exceptions of the tie-break package."""

from __future__ import annotations

from pairing.errors import PairingError


class TieBreakError(PairingError):
    """Base class of the errors raised on purpose by :mod:`pairing.tiebreaks`."""


class TieBreakSpecError(TieBreakError, ValueError):
    """A tie-break name or modifier is unknown or not defined for that tie-break."""


class TieBreakInputError(TieBreakError, ValueError):
    """The tournament data cannot be used for tie-breaks (the message says why)."""
