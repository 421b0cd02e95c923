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

__all__ = ["BracketReport", "Choice", "Downfloat", "RoundExplanation", "Unmet"]


def _points(score: int) -> str:
    """1.5 points as ``1½``, 2 as ``2``: how arbiters write scores."""
    whole, tenth = divmod(score, 10)
    if tenth == 0:
        return str(whole)
    if tenth == 5:
        return f"{whole if whole else ''}½"
    return format_points(score)


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
    left = list(s2)
    index = 0
    for i, t in enumerate(s1):
        position = left.index(opponent[t])
        later = 1  # how many distinct ways the places after this one can be filled
        for free in range(len(left) - 1, len(left) - len(s1) + i, -1):
            later *= free
        index += position * later
        left.pop(position)
    return index


def _transposition(index: int | None) -> str:
    """``   (transposition 3, Art. 4.2)``; nothing when S2 is taken in its own order."""
    return f"   (transposition {index}, Art. 4.2)" if index else ""


def _count(n: int, noun: str) -> str:
    """``1 player``, ``3 players``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


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

    def for_player(self, tpn: int) -> list[str]:
        """Plain sentences telling one player why they got this opponent (or the bye)."""
        said: list[str] = []
        for b in self.brackets:
            group = f"the {_points(b.score)}-point group"
            size = len(b.residents) + len(b.mdps)
            for d in b.downfloats:
                if d.tpn == tpn:
                    said.append(
                        f"In {group} ({_count(size, 'player')} to pair) you could not be "
                        f"paired: {d.reason}. You moved down to the next group."
                    )
            for c in b.choices:
                if tpn not in (c.tpn, c.opponent):
                    continue
                other = c.opponent if c.tpn == tpn else c.tpn
                mine, theirs = self.scores.get(tpn), self.scores.get(other)
                if mine is not None and theirs is not None and mine != theirs:
                    said.append(
                        f"You ({_points(mine)}) were paired with {other} ({_points(theirs)}) "
                        f"in {group}: players left over from a higher group meet the highest "
                        "players of the next one the rules allow (Art. 3.3.3, 4.2)."
                    )
                elif c.tpn == tpn:
                    said.append(self._s1_sentence(group, c))
                else:
                    said.append(
                        f"In {group} you were in the lower half (S2); {c.tpn} of the upper half "
                        f"(S1) took you as the first opponent the rules allowed (Art. 4.2)."
                    )
        if self.bye == tpn:
            said.append(f"You received the pairing-allocated bye: {self.bye_reason}.")
        for u in self.unmet:
            if tpn in u.tpns:
                said.append(f"One rule could not be met for you: {u.what} ({u.criterion}).")
        if not said and self.note:
            said.append(self.note)
        return said

    @staticmethod
    def _s1_sentence(group: str, c: Choice) -> str:
        text = f"In {group} you were in the upper half (S1) and met {c.opponent}"
        if not c.passed_over:
            return text + ", your natural opponent in the lower half (Art. 4.2)."
        return text + f" (Art. 4.2){_passed_over(c).replace('; passed', '. Passed', 1)}."
