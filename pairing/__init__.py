"""FIDE Swiss pairing engine: the Dutch system (2026 and 2017 rules), TRF files, the checker.

Pure Python, standard library only; no Django import. The web application in ``tournaments/``
uses this package, never the reverse. Other systems live beside the Dutch one
(``pairing.double_swiss``, ``pairing.clock``), each found through ``pairing.systems``; the
rules they share live in ``pairing.rules``, what a player got in a round in
``pairing.outcomes``, tie-breaks in ``pairing.tiebreaks``.

Read a tournament, pair its next round, and ask why:

>>> text = '''
... 001    1      Alpha                             2400                             1.0          3 w 1
... 001    2      Beta                              2300                             1.0       0000 - U
... 001    3      Gamma                             2200                             0.0          1 b 0
... XXR 3
... XXC white1
... '''
>>> t = read_trf(text)
>>> pairing = pair_round(t)
>>> pairing.engine_lines()
['2', '2 1', '3 0']
>>> pairing.bye                            # 2 already had the bye: [C2]
3
>>> write_trf(t).splitlines()[:2]
['142 3', '152 W']

``explain_round`` returns the same pairing with a ``RoundExplanation``: the brackets, S1, S2,
the players passed over and why, the downfloaters and the reason for the bye.
"""

from pairing.checker import Violation, ViolationKind, check_round
from pairing.dutch import explain_round, pair_round
from pairing.errors import NoValidPairing, PairingError, TrfFormatError, UnsupportedFeature
from pairing.model import (
    Board,
    Color,
    Player,
    PointSystem,
    ResultCode,
    RoundEntry,
    RoundPairing,
    RuleSet,
    Tournament,
)
from pairing.trf import read_trf, write_trf

__all__ = [
    "Board",
    "Color",
    "NoValidPairing",
    "PairingError",
    "Player",
    "PointSystem",
    "ResultCode",
    "RoundEntry",
    "RoundPairing",
    "RuleSet",
    "Tournament",
    "TrfFormatError",
    "UnsupportedFeature",
    "Violation",
    "ViolationKind",
    "check_round",
    "explain_round",
    "pair_round",
    "read_trf",
    "write_trf",
]
