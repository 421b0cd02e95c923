"""Check a match paired by hand (C.04.5 Art. 2.1): who is paired twice, who is missing, and the
absolute criteria it breaks.

``check_match(dt, pairing)`` returns two lists of sentences: errors (the pairing does not pair
the players due, once each) and warnings ([C1] a repeated match, [C2] a second PAB), which an
arbiter may accept.
"""

from __future__ import annotations

from pairing.double_swiss.model import DoubleSwissTournament
from pairing.double_swiss.players import build_players
from pairing.model import RoundPairing
from pairing.text import Text, gettext_noop

__all__ = ["check_match"]

PAIRED_TWICE = gettext_noop("player %(tpn)s is paired twice")
NOT_DUE = gettext_noop("player %(tpn)s is not to be paired in match %(number)s")
LEFT_UNPAIRED = gettext_noop("player %(tpn)s is left without a pairing")
ALREADY_MET = gettext_noop("[C1] %(white)s and %(black)s have already played a match")
NO_PAB = gettext_noop("[C2] %(tpn)s may not receive the pairing-allocated bye")


def check_match(
    dt: DoubleSwissTournament, pairing: RoundPairing
) -> tuple[list[Text], list[Text]]:
    """Errors (a player paired twice, or not due, or left out) and rule breaks ([C1], [C2]) of
    match ``pairing.round`` paired by hand."""
    k = pairing.round
    players = {p.tpn: p for p in build_players(dt, k)}
    errors: list[Text] = []
    warnings: list[Text] = []
    seen: list[int] = [tpn for b in pairing.boards for tpn in (b.white, b.black)]
    if pairing.bye is not None:
        seen.append(pairing.bye)
    for tpn in sorted({t for t in seen if seen.count(t) > 1}):
        errors.append(Text(PAIRED_TWICE, tpn=tpn))
    for tpn in sorted(set(seen) - set(players)):
        errors.append(Text(NOT_DUE, tpn=tpn, number=k))
    for tpn in sorted(set(players) - set(seen)):
        errors.append(Text(LEFT_UNPAIRED, tpn=tpn))
    for b in pairing.boards:
        if b.white in players and b.black in players[b.white].met:
            warnings.append(Text(ALREADY_MET, white=b.white, black=b.black))
    if pairing.bye in players and not players[pairing.bye].may_receive_pab:
        warnings.append(Text(NO_PAB, tpn=pairing.bye))
    return errors, warnings
