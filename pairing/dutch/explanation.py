"""Why the Dutch engine paired a round as it did: one value, several renderings.

``RoundExplanation`` holds, bracket by bracket, the players as the text of C.04.3 sees them:
the residents and the moved-down players (MDPs, Art. 1.4.1), S1, S2 and the Limbo as formed
(Art. 3.2-3.3), the resident-exchanges taken (Art. 4.3.2), each S1 player's opponent with the
S2 players passed over and why (Art. 4.2), and the downfloaters; then the pairing-allocated
bye with the rule that chose it, and the quality criteria the round could not fully meet.
``lines()`` is the command line's ``-l``; ``for_player(tpn)`` tells one player, in plain
sentences, why they got their opponent; ``as_dict()`` is what the web app stores and the API
serves. Scores are in tenths of a point, as everywhere in ``pairing``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from pairing.model import format_points
from pairing.text import ENGLISH, Translator, gettext_noop, ngettext_lazy

__all__ = ["BracketReport", "Choice", "Downfloat", "RoundExplanation", "Unmet"]

# What ``for_player`` says, in the second person (the web app says it in the reader's language).
YOU_MOVED_DOWN = ngettext_lazy(
    "In the %(points)s-point group (%(count)d player to pair) you could not be paired: "
    "%(reason)s. You moved down to the next group.",
    "In the %(points)s-point group (%(count)d players to pair) you could not be paired: "
    "%(reason)s. You moved down to the next group.",
)
YOU_MET_ACROSS_GROUPS = gettext_noop(
    "You (%(mine)s) were paired with %(opponent)s (%(theirs)s) in the %(points)s-point group: "
    "players left over from a higher group meet the highest players of the next one the rules "
    "allow (Art. 3.3.3, 4.2)."
)
"""Two moved-down players of different scores paired together (and rounds stored before the
two sentences below)."""
YOU_CAME_DOWN_AND_MET = gettext_noop(
    "You (%(mine)s) could not be paired in your own group and moved down to the "
    "%(points)s-point group, where you met %(opponent)s (%(theirs)s), the highest player there "
    "the rules allowed (Art. 3.3.3, 4.2)."
)
YOU_MET_ONE_WHO_CAME_DOWN = gettext_noop(
    "In the %(points)s-point group you (%(mine)s) met %(opponent)s (%(theirs)s), who had moved "
    "down from a higher group: a player who moves down meets the highest player of the group "
    "the rules allow (Art. 3.3.3, 4.2)."
)
YOU_WERE_IN_S1 = gettext_noop(
    "In the %(points)s-point group you were in the upper half (S1) and met %(opponent)s, your "
    "natural opponent in the lower half (Art. 4.2)."
)
YOU_WERE_IN_S1_PASSING_OVER = gettext_noop(
    "In the %(points)s-point group you were in the upper half (S1) and met %(opponent)s "
    "(Art. 4.2)."
)
PASSED_OVER = gettext_noop("Passed over %(players)s: %(reason)s.")
"""Candidates passed over for one reason, a sentence after the one that names the opponent."""
NAMES_AND = gettext_noop("%(first)s; %(second)s")
"""Two names of a list: a semicolon, since a name holds a comma (``Moreau, Pierre``)."""
YOU_WERE_IN_S2 = gettext_noop(
    "In the %(points)s-point group you were in the lower half (S2); %(player)s of the upper half "
    "(S1) took you as the first opponent the rules allowed (Art. 4.2)."
)
YOU_GOT_THE_BYE = gettext_noop("You received the pairing-allocated bye: %(reason)s.")
YOU_UNMET = gettext_noop("One rule could not be met for you: %(what)s (%(criterion)s).")


def _passed_over(c: Choice) -> str:
    """``; passed over 4, 5 (why); 6 (why)``: earlier candidates, grouped by reason."""
    groups: dict[str, list[int]] = {}
    for tpn, why in c.passed_over:
        groups.setdefault(why, []).append(tpn)
    return "".join(f"; passed over {', '.join(map(str, t))} ({why})" for why, t in groups.items())


def transposition_index(
    s1: tuple[int, ...], s2: tuple[int, ...], opponent: dict[int, int]
) -> int | None:
    """Art. 4.2: the place of the S1-S2 pairing among the transpositions of S2 (0: S2 in its
    own order), counting as the text does only the first N1 players of each transposition.

    >>> transposition_index((1, 2), (3, 4, 5), {1: 3, 2: 4})
    0
    >>> transposition_index((1, 2), (3, 4, 5), {1: 3, 2: 5})
    1
    >>> transposition_index((1, 2), (3, 4, 5), {1: 5, 2: 4})
    5
    """
    if not s1 or any(t not in opponent or opponent[t] not in s2 for t in s1):
        return None
    # The S1[i]'s opponent's place among the S2 players not yet taken, weighed by how many
    # ways the places after it can be filled, (len(S2) - i - 1) ... (len(S2) - N1 + 1): summed
    # by Horner's rule, one small multiplication a place (the weights are products of
    # thousands of factors in a 5000-player bracket).
    left = list(s2)
    index = 0
    for i, t in enumerate(s1):
        position = left.index(opponent[t])
        index = index * (len(s2) - i) + position
        left.pop(position)
    return index


def _transposition(index: int | None) -> str:
    """``   (transposition 3, Art. 4.2)``; nothing when S2 is taken in its own order."""
    return f"   (transposition {_decimal(index)}, Art. 4.2)" if index else ""


_DIGITS = 4000
"""Below Python's limit on the digits ``str`` writes of an integer (4300 since 3.11)."""


def _decimal(n: int) -> str:
    """All the digits of a non-negative integer, however many: the index of a transposition
    of an S1 of 1550 players or more has more than Python's ``str`` writes.

    >>> _decimal(10 ** 9000) == "1" + "0" * 9000
    True
    """
    if n < 10**_DIGITS:
        return str(n)
    high, low = divmod(n, 10**_DIGITS)
    return _decimal(high) + str(low).zfill(_DIGITS)


@dataclass(frozen=True)
class Choice:
    """One S1 player (or MDP) and the opponent it took in the order of Art. 4.2 (3.3.3)."""

    tpn: int
    opponent: int
    passed_over: tuple[tuple[int, str], ...] = ()
    """Earlier candidates in S2 order and why each was not taken."""


@dataclass(frozen=True)
class Downfloat:
    """A player who remained unpaired in a bracket and moved down (Art. 1.4.1)."""

    tpn: int
    score: int
    reason: str


@dataclass(frozen=True)
class BracketReport:
    """One bracket as it was paired."""

    score: int
    """The residents' score (Art. 1.3.2)."""
    residents: tuple[int, ...]
    mdps: tuple[tuple[int, int], ...] = ()
    """The moved-down players with their scores."""
    s1: tuple[int, ...] = ()
    s2: tuple[int, ...] = ()
    limbo: tuple[int, ...] = ()
    """MDPs that could not be paired in the bracket (bound to float again)."""
    remainder_s1: tuple[int, ...] = ()
    """In a heterogeneous bracket, S1 and S2 of the remainder (Art. 3.3.3)."""
    remainder_s2: tuple[int, ...] = ()
    exchanges: int = 0
    """Resident-exchanges between S1 and S2 (Art. 4.3.2)."""
    choices: tuple[Choice, ...] = ()
    downfloats: tuple[Downfloat, ...] = ()
    repaired_as_ppb: bool = False
    """2017 A.9: this bracket was paired again as the Penultimate Pairing Bracket."""

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return tuple((c.tpn, c.opponent) for c in self.choices)

    @property
    def transposition(self) -> int | None:
        """The place of S1's pairing among the transpositions of S2 (Art. 4.2), 0 first."""
        return transposition_index(self.s1, self.s2, dict(self.pairs))

    @property
    def remainder_transposition(self) -> int | None:
        """The same for the remainder of a heterogeneous bracket."""
        return transposition_index(self.remainder_s1, self.remainder_s2, dict(self.pairs))


@dataclass(frozen=True)
class Unmet:
    """A quality criterion the round could not fully meet, and the players concerned."""

    criterion: str
    what: str
    tpns: tuple[int, ...]


@dataclass(frozen=True)
class RoundExplanation:
    """The whole round."""

    round: int
    brackets: tuple[BracketReport, ...] = ()
    bye: int | None = None
    bye_reason: str = ""
    unmet: tuple[Unmet, ...] = ()
    note: str = ""
    """A round paired without brackets to tell apart (round 1) says so here."""
    scores: dict[int, int] = field(default_factory=dict)
    """Each player's pairing score, by TPN."""

    def as_dict(self) -> dict:
        """Plain data (JSON-ready) for the web app and the API."""
        data = asdict(self)
        data["scores"] = {str(tpn): score for tpn, score in self.scores.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> RoundExplanation:
        """The inverse of ``as_dict``."""
        brackets = tuple(
            BracketReport(
                score=b["score"], residents=tuple(b["residents"]),
                mdps=tuple(tuple(m) for m in b["mdps"]), s1=tuple(b["s1"]), s2=tuple(b["s2"]),
                limbo=tuple(b["limbo"]), remainder_s1=tuple(b["remainder_s1"]),
                remainder_s2=tuple(b["remainder_s2"]), exchanges=b["exchanges"],
                choices=tuple(
                    Choice(c["tpn"], c["opponent"], tuple(tuple(p) for p in c["passed_over"]))
                    for c in b["choices"]
                ),
                downfloats=tuple(Downfloat(**d) for d in b["downfloats"]),
                repaired_as_ppb=b["repaired_as_ppb"],
            )
            for b in data["brackets"]
        )
        return cls(
            round=data["round"], brackets=brackets, bye=data["bye"],
            bye_reason=data["bye_reason"],
            unmet=tuple(Unmet(u["criterion"], u["what"], tuple(u["tpns"])) for u in data["unmet"]),
            note=data["note"],
            scores={int(tpn): score for tpn, score in data["scores"].items()},
        )

    # -- the command line's text -------------------------------------------------------------

    def lines(self) -> list[str]:
        """The explanation as text lines, bracket by bracket (``-l``)."""
        out: list[str] = [self.note] if self.note else []
        for b in self.brackets:
            out.append(f"bracket {format_points(b.score)}:")
            if b.mdps:
                out.append("  MDPs: " + " ".join(f"{t}({format_points(s)})" for t, s in b.mdps))
            out.append("  residents: " + " ".join(map(str, b.residents)))
            if b.choices:
                out.append(f"  S1: {' '.join(map(str, b.s1)) or '-'}   "
                           f"S2: {' '.join(map(str, b.s2)) or '-'}"
                           + _transposition(b.transposition))
            if b.limbo:
                out.append("  Limbo: " + " ".join(map(str, b.limbo)))
            if b.remainder_s1 or b.remainder_s2:
                out.append(f"  remainder S1: {' '.join(map(str, b.remainder_s1)) or '-'}   "
                           f"S2: {' '.join(map(str, b.remainder_s2)) or '-'}"
                           + _transposition(b.remainder_transposition))
            for c in b.choices:
                out.append(f"  {c.tpn} meets {c.opponent}{_passed_over(c)}")
            if b.pairs:
                out.append("  pairs: " + " ".join(f"{a}-{b_}" for a, b_ in b.pairs))
            if b.downfloats:
                out.append("  downfloaters: " + ", ".join(str(d.tpn) for d in b.downfloats))
            if b.exchanges:
                out.append(f"  resident-exchanges in the remainder: {b.exchanges}")
        if self.bye is not None:
            out.append(f"pairing-allocated bye: {self.bye} ({self.bye_reason})")
        for u in self.unmet:
            out.append(f"{u.criterion} {u.what}: {' '.join(map(str, u.tpns))}")
        return out

    # -- one player's view -------------------------------------------------------------------

    def for_player(self, tpn: int, translator: Translator = ENGLISH) -> list[str]:
        """Plain sentences telling one player why they got this opponent (or the bye), said by
        ``translator`` (English by default)."""
        tr = translator
        said: list[str] = []
        for b in self.brackets:
            points = tr.points(b.score)
            size = len(b.residents) + len(b.mdps)
            for d in b.downfloats:
                if d.tpn == tpn:
                    said.append(tr.say(
                        YOU_MOVED_DOWN, size, points=points, count=size,
                        reason=tr.text(d.reason),
                    ))
            for c in b.choices:
                if tpn not in (c.tpn, c.opponent):
                    continue
                other = c.opponent if c.tpn == tpn else c.tpn
                mine, theirs = self.scores.get(tpn), self.scores.get(other)
                if mine is not None and theirs is not None and mine != theirs:
                    # Art. 3.3.3: who of the two moved down into this bracket (an MDP)
                    moved = {t for t, _ in b.mdps}
                    across = YOU_MET_ACROSS_GROUPS
                    if tpn in moved and other not in moved:
                        across = YOU_CAME_DOWN_AND_MET
                    elif other in moved and tpn not in moved:
                        across = YOU_MET_ONE_WHO_CAME_DOWN
                    said.append(tr.say(
                        across, mine=tr.points(mine), opponent=other,
                        theirs=tr.points(theirs), points=points,
                    ))
                elif c.tpn == tpn:
                    said.append(self._s1_sentence(tr, points, c))
                else:
                    said.append(tr.say(YOU_WERE_IN_S2, points=points, player=c.tpn))
        if self.bye == tpn:
            said.append(tr.say(YOU_GOT_THE_BYE, reason=tr.text(self.bye_reason)))
        for u in self.unmet:
            if tpn in u.tpns:
                said.append(tr.say(YOU_UNMET, what=tr.text(u.what), criterion=u.criterion))
        if not said and self.note:
            said.append(tr.text(self.note))
        return said

    @staticmethod
    def _s1_sentence(tr: Translator, points: str, c: Choice) -> str:
        if not c.passed_over:
            return tr.say(YOU_WERE_IN_S1, points=points, opponent=c.opponent)
        groups: dict[str, list[int]] = {}
        for other, why in c.passed_over:
            groups.setdefault(why, []).append(other)
        passed = [
            tr.say(PASSED_OVER, players=names(tr, t), reason=tr.text(why))
            for why, t in groups.items()
        ]
        head = tr.say(YOU_WERE_IN_S1_PASSING_OVER, points=points, opponent=c.opponent)
        return " ".join([head, *passed])


def names(tr: Translator, players: list[int]) -> str:
    """Players one after the other, kept apart though each name holds a comma: ``Moreau,
    Pierre; Pelletier, Paul`` (a TPN prints as the name the web app gives it)."""
    out = str(players[0])
    for player in players[1:]:
        out = tr.say(NAMES_AND, first=out, second=str(player))
    return out
