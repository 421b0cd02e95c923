"""Check a round-pairing against the absolute rules (C.04.1, C.04.2, C.04.3 [C1]-[C3]).

``check_round(t_before, pairing)`` lists every violation, each naming the article it breaks and
its kind, so that a manual pairing can be warned about before it is published and the engine
can refuse to answer with a pairing the rules forbid. It does not judge quality criteria ([C4]
onwards): a pairing with no violation is legal, not necessarily the engine's. The rules
themselves live in ``pairing.rules``.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from dataclasses import dataclass

from pairing.model import Color, RoundPairing, RuleSet, Tournament
from pairing.rules import (
    colour_preference,
    is_final_round,
    is_topscorer,
    may_receive_pab,
    opponents_met,
    played_colours,
    same_absolute_preference,
)
from pairing.text import Text, gettext_noop
from pairing.trf import next_round_number

__all__ = ["Violation", "ViolationKind", "check_round"]

# What each violation says (``Violation.message``; the web app says it in the reader's language).
NOT_A_PLAYER = gettext_noop("%(player)s is not a player")
PAIRED_TWICE = gettext_noop("%(player)s is paired more than once")
NOT_PAIRED = gettext_noop("%(player)s is not paired")
ABSENT_PAIRED = gettext_noop("%(player)s is withdrawn or absent in round %(round)s but paired")
PAB_WITH_EVEN_NUMBER = gettext_noop("PAB to %(player)s with an even number of players to pair")
PAB_NOT_ALLOWED = gettext_noop(
    "%(player)s already had a PAB or scored a win without playing, and cannot get the PAB"
)
MET_BEFORE = gettext_noop("%(white)s and %(black)s already played")
BOTH_ABSOLUTE_WHITE = gettext_noop(
    "%(white)s and %(black)s both have an absolute preference for White"
)
BOTH_ABSOLUTE_BLACK = gettext_noop(
    "%(white)s and %(black)s both have an absolute preference for Black"
)
PROHIBITED = gettext_noop("%(white)s and %(black)s must not be paired in round %(round)s")
PROHIBITED_ARTICLE = gettext_noop("prohibited pairing (TRF 260/XXP)")
ARTICLE_AND_MESSAGE = gettext_noop("%(article)s: %(message)s")
ARTICLE = gettext_noop("%(document)s Art. %(number)s")
"""An article of a FIDE document, as ``C.04.3 Art. 1.9.1`` (French writes ``art.``)."""


class ViolationKind(enum.Enum):
    """What a violation is about; the first three leave no round-pairing at all."""

    UNKNOWN_PLAYER = "unknown player"
    PAIRED_TWICE = "paired more than once"
    NOT_PAIRED = "not paired"
    ABSENT_PAIRED = "absent but paired"
    PAB_WITH_EVEN_NUMBER = "PAB with an even number of players"
    PAB_NOT_ALLOWED = "PAB to a player who may not receive it"
    MET_BEFORE = "already played"
    SAME_ABSOLUTE_COLOUR = "same absolute colour preference"
    PROHIBITED_PAIR = "prohibited pairing"

    @property
    def structural(self) -> bool:
        """Whether the pairing is not a round-pairing at all (not a matter of the criteria)."""
        return self in _STRUCTURAL


_STRUCTURAL = frozenset({
    ViolationKind.UNKNOWN_PLAYER, ViolationKind.PAIRED_TWICE, ViolationKind.NOT_PAIRED,
})


@dataclass(frozen=True)
class Violation:
    """One broken rule: the article, what happened, and the players involved."""

    article: str
    message: str
    tpns: tuple[int, ...] = ()
    kind: ViolationKind = ViolationKind.UNKNOWN_PLAYER

    def __str__(self) -> str:
        return f"{self.article}: {self.message}"

    @property
    def text(self) -> Text:
        """``str(self)`` as a ``Text``, for ``Translator.text`` to say in another language."""
        article: str = self.article
        if article == PROHIBITED_ARTICLE:
            article = Text(PROHIBITED_ARTICLE)
        elif (found := re.fullmatch(r"(C\.\d\d\.\d) Art\. (.+)", article)) is not None:
            article = Text(ARTICLE, document=found[1], number=found[2])
        return Text(ARTICLE_AND_MESSAGE, article=article, message=self.message)


def _article(rules: RuleSet, criterion: int) -> str:
    """Name an absolute criterion in the numbering of the rule set."""
    if rules is RuleSet.DUTCH_2017:
        return f"C.04.3 (2017) C.{criterion}"
    return f"C.04.3 Art. 2.1.{criterion} [C{criterion}]"


def check_round(
    t_before: Tournament, pairing: RoundPairing, *, rules: RuleSet | None = None
) -> list[Violation]:
    """Return the violations of the absolute rules by a round-pairing (empty when legal)."""
    rules = rules or t_before.rules
    k = pairing.round if pairing.round >= 1 else next_round_number(t_before)
    players = {p.tpn: p for p in t_before.players}
    history = {tpn: p.rounds[: k - 1] for tpn, p in players.items()}
    violations: list[Violation] = []

    def add(kind: ViolationKind, article: str, message: str, *tpns: int) -> None:
        violations.append(Violation(article, message, tpns, kind))

    listed = [tpn for b in pairing.boards for tpn in (b.white, b.black)]
    listed += [pairing.bye] if pairing.bye is not None else []
    for tpn in sorted({tpn for tpn in listed if tpn not in players}):
        add(ViolationKind.UNKNOWN_PLAYER, "C.04.2 Art. 2", Text(NOT_A_PLAYER, player=tpn), tpn)
    counts = Counter(listed)
    for tpn in sorted(t for t, n in counts.items() if n > 1 and t in players):
        add(ViolationKind.PAIRED_TWICE, "C.04.3 Art. 1.9.1", Text(PAIRED_TWICE, player=tpn),
            tpn)

    # C.04.2 Art. 3.2-3.3: a withdrawn or absent player has a pre-set entry in round k
    expected = {
        tpn for tpn, p in players.items() if not (len(p.rounds) >= k and p.rounds[k - 1].is_preset)
    }
    for tpn in sorted(expected - set(listed)):
        add(ViolationKind.NOT_PAIRED, "C.04.3 Art. 1.9.1", Text(NOT_PAIRED, player=tpn), tpn)
    for tpn in sorted(t for t in set(listed) if t in players and t not in expected):
        add(ViolationKind.ABSENT_PAIRED, "C.04.2 Art. 3.2-3.3",
            Text(ABSENT_PAIRED, player=tpn, round=k), tpn)

    bye = pairing.bye
    if bye is not None and bye in players:
        if len(expected) % 2 == 0:
            add(ViolationKind.PAB_WITH_EVEN_NUMBER, "C.04.1 Art. 3",
                Text(PAB_WITH_EVEN_NUMBER, player=bye), bye)
        if not may_receive_pab(history[bye], t_before.point_system, rules):
            add(ViolationKind.PAB_NOT_ALLOWED, _article(rules, 2),
                Text(PAB_NOT_ALLOWED, player=bye), bye)

    final_round = is_final_round(k, t_before.total_rounds)
    points = t_before.point_system

    def exempt_topscorer(tpn: int) -> bool:  # Art. 1.8: [C3] does not bind topscorers
        score = sum(points.points_for(e) for e in history[tpn])
        return final_round and is_topscorer(score, k - 1, points)

    for board in pairing.boards:
        white, black = board.white, board.black
        if white not in players or black not in players or white == black:
            continue
        if black in opponents_met(history[white]):
            add(ViolationKind.MET_BEFORE, _article(rules, 1),
                Text(MET_BEFORE, white=white, black=black), white, black)
        a = colour_preference(played_colours(history[white]))
        b = colour_preference(played_colours(history[black]))
        if same_absolute_preference(a, b) and not (
            exempt_topscorer(white) or exempt_topscorer(black)
        ):
            add(ViolationKind.SAME_ABSOLUTE_COLOUR, _article(rules, 3),
                Text(BOTH_ABSOLUTE_WHITE if a.colour is Color.WHITE else BOTH_ABSOLUTE_BLACK,
                     white=white, black=black),
                white, black)
        for forbidden in t_before.forbidden_pairs:
            if forbidden.applies_to(k) and {white, black} <= forbidden.tpns:
                add(ViolationKind.PROHIBITED_PAIR, PROHIBITED_ARTICLE,
                    Text(PROHIBITED, white=white, black=black, round=k), white, black)
    return violations
