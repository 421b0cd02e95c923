"""The account of a Double-Swiss pairing in C.04.5's terms, as data (CLI ``-l``, web draft)."""

from __future__ import annotations

from dataclasses import dataclass

from pairing.model import TPN, Points, format_points

__all__ = ["PabStep", "BracketStep", "ColourStep", "Explanation"]


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
        out = [f"match {self.match}" + (" (last round: no [C7], [C8])" if self.last_round else "")]
        if self.pab is not None:
            line = f"PAB (Art. 3.4): {self.pab.bye}"
            if self.pab.barred:
                line += f"; [C2] bars {_tpns(self.pab.barred)}"
            if self.pab.passed_over:
                line += f"; 3.4.1 passes over {_tpns(self.pab.passed_over)}"
            out.append(line)
        for b in self.brackets:
            head = f"top scoregroup {format_points(b.score)}: residents {_tpns(b.residents)}"
            if b.upfloaters:
                head += (
                    f"; upfloaters (Art. 3.5) {_tpns(b.upfloaters)} "
                    f"[C4] {len(b.upfloaters)}, [C6] {b.c6}, [C7] {b.c7}, "
                    f"{b.sets_examined} set(s) examined"
                )
            out.append(head)
            pairs = ", ".join(f"{a}-{c}" for a, c in b.pairs)
            out.append(
                f"  pairing (Art. 3.6) {pairs}; identifier {_tpns(b.identifier)}; [C8] {b.c8}"
            )
        for c in self.colours:
            out.append(f"colours {c.white}-{c.black}: HRP {c.hrp}, Art. {c.article}")
        return tuple(out)


def _tpns(tpns: tuple[TPN, ...]) -> str:
    return " ".join(str(t) for t in tpns) if tpns else "-"
