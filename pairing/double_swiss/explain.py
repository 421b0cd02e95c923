"""The account of a Double-Swiss pairing in C.04.5's terms, as data (CLI ``-l``, web draft)."""

from __future__ import annotations

from dataclasses import dataclass

from pairing.model import TPN, Points, format_points
from pairing.text import Number, Text, concat, gettext_noop

__all__ = ["PabStep", "BracketStep", "ColourStep", "Explanation"]

# The account's lines (the web app says them in the reader's language).
MATCH = gettext_noop("match %(match)s")
LAST_MATCH = gettext_noop("match %(match)s (last round: no [C7], [C8])")
PAB = gettext_noop("PAB (Art. 3.4): %(player)s")
PAB_BARRED = gettext_noop("; [C2] bars %(players)s")
PAB_PASSED_OVER = gettext_noop("; 3.4.1 passes over %(players)s")
TOP_SCOREGROUP = gettext_noop("top scoregroup %(score)s: residents %(residents)s")
UPFLOATERS = gettext_noop(
    "; upfloaters (Art. 3.5) %(upfloaters)s [C4] %(c4)s, [C6] %(c6)s, [C7] %(c7)s, "
    "%(sets)s set(s) examined"
)
BRACKET_PAIRING = gettext_noop(
    "  pairing (Art. 3.6) %(pairs)s; identifier %(identifier)s; [C8] %(c8)s"
)
COLOURS = gettext_noop("colours %(white)s-%(black)s: HRP %(hrp)s, Art. %(article)s")


@dataclass(frozen=True)
class PabStep:
    """Art. 3.4: who received the pairing-allocated bye, and who could not."""

    bye: TPN
    barred: tuple[TPN, ...]
    """[C2]: players who may not receive it."""
    passed_over: tuple[TPN, ...]
    """Ranked before the bye by 3.4.2-3.4.4, but leaving no legal pairing (3.4.1)."""


@dataclass(frozen=True)
class BracketStep:
    """Art. 3.5-3.6: one top scoregroup, its upfloaters, and the pairing of the bracket."""

    score: Points
    residents: tuple[TPN, ...]
    upfloaters: tuple[TPN, ...]
    """In the order of Art. 3.5.3: descending score, then ascending TPN."""
    c6: int
    c7: int
    sets_examined: int
    """Sets of upfloaters tried in the order of Art. 3.5.4 before the choice was certain."""
    identifier: tuple[TPN, ...]
    """Art. 3.6.2."""
    c8: int
    pairs: tuple[tuple[TPN, TPN], ...]
    """Top member first (Art. 3.6.1)."""


@dataclass(frozen=True)
class ColourStep:
    """Art. 4: the colours of one pair; White plays game 1 with White."""

    white: TPN
    black: TPN
    hrp: TPN
    article: str
    """The rule of Art. 4.3 that decided (``4.3.1`` .. ``4.3.5``)."""


@dataclass(frozen=True)
class Explanation:
    """Every decision of one match's pairing."""

    match: int
    last_round: bool
    pab: PabStep | None
    brackets: tuple[BracketStep, ...]
    colours: tuple[ColourStep, ...]

    def lines(self) -> tuple[str, ...]:
        """Return the account as text, one decision a line."""
        out: list[str] = [Text(LAST_MATCH if self.last_round else MATCH, match=self.match)]
        if self.pab is not None:
            line: str = Text(PAB, player=self.pab.bye)
            if self.pab.barred:
                line = concat(line, Text(PAB_BARRED, players=_tpns(self.pab.barred)))
            if self.pab.passed_over:
                line = concat(line, Text(PAB_PASSED_OVER, players=_tpns(self.pab.passed_over)))
            out.append(line)
        for b in self.brackets:
            head: str = Text(
                TOP_SCOREGROUP, score=Number(format_points(b.score)), residents=_tpns(b.residents)
            )
            if b.upfloaters:
                head = concat(head, Text(
                    UPFLOATERS, upfloaters=_tpns(b.upfloaters), c4=len(b.upfloaters), c6=b.c6,
                    c7=b.c7, sets=b.sets_examined,
                ))
            out.append(head)
            pairs = ", ".join(f"{a}-{c}" for a, c in b.pairs)
            out.append(Text(BRACKET_PAIRING, pairs=pairs, identifier=_tpns(b.identifier), c8=b.c8))
        for c in self.colours:
            out.append(Text(COLOURS, white=c.white, black=c.black, hrp=c.hrp, article=c.article))
        return tuple(out)


def _tpns(tpns: tuple[TPN, ...]) -> str:
    return " ".join(str(t) for t in tpns) if tpns else "-"
