"""The Clock system explains a pairing in its own terms: who picked whom from which pivot, which
candidates were passed over and why, each backtrack and the colours of Appendix B."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from pairing.clock.colours import ColourDecision
from pairing.clock.players import PN_ONLY, ClockPlayer
from pairing.model import format_points
from pairing.text import Number, Text, concat, gettext_noop

__all__ = [
    "Backtrack",
    "CandidateDiscarded",
    "ColoursGiven",
    "DeadEnd",
    "Event",
    "NoPickerCandidate",
    "PairStored",
    "PickerChosen",
    "render",
]

# The explanation's lines (the web app says them in the reader's language).
PICKER = gettext_noop(
    "picker %(player)s, %(points)s points (first highest scorer after pivot %(pivot)s)"
)
PASSES_OVER = gettext_noop("passes over %(player)s: %(reason)s")
PICKS = gettext_noop("picks %(player)s: pair %(level)s stored")
NO_CANDIDATE_LEFT = gettext_noop("%(player)s has no compatible candidate left")
BACKTRACK = gettext_noop(
    "backtrack: pair %(level)s <%(picker)s, %(undone)s> undone; %(picker)s picks again from pivot "
    "%(pivot)s, %(undone)s temporarily incompatible with him"
)
DEAD_END = gettext_noop("%(players)s from pivot %(pivot)s: already found impossible to pair")
COLOURS_HEADING = gettext_noop("colours (Appendix B):")
TEMPORARILY_INCOMPATIBLE = gettext_noop("temporarily incompatible")
COLOUR_PAIR = gettext_noop("%(white)s - %(black)s: %(reason)s")
INDENT = "  "


@dataclass(frozen=True)
class PickerChosen:
    """The picker: the highest score among the unpaired, the first after the pivot."""

    picker: ClockPlayer
    pivot: int
    level: int
    """How many pairs are stored before this one."""

    def text(self) -> str:
        return Text(
            PICKER, player=self.picker.label, points=Number(format_points(self.picker.score)),
            pivot=self.pivot,
        )


@dataclass(frozen=True)
class CandidateDiscarded:
    """A candidate passed over: not compatible, or temporarily incompatible, with the picker."""

    picker: ClockPlayer
    candidate: ClockPlayer
    reason: str

    def text(self) -> str:
        return concat(INDENT, Text(PASSES_OVER, player=self.candidate.label, reason=self.reason))


@dataclass(frozen=True)
class PairStored:
    """The picker picked the candidate; the pair is stored."""

    picker: ClockPlayer
    picked: ClockPlayer
    level: int
    """The pair's place in the stack, from 1."""

    def text(self) -> str:
        return concat(INDENT, Text(PICKS, player=self.picked.label, level=self.level))


@dataclass(frozen=True)
class NoPickerCandidate:
    """The picker has no compatible candidate left."""

    picker: ClockPlayer

    def text(self) -> str:
        return concat(INDENT, Text(NO_CANDIDATE_LEFT, player=self.picker.label))


@dataclass(frozen=True)
class Backtrack:
    """The last stored pair is undone; its picked player is temporarily incompatible."""

    picker: ClockPlayer
    undone: ClockPlayer
    level: int
    """How many pairs stay stored."""

    def text(self) -> str:
        return Text(
            BACKTRACK, level=self.level + 1, picker=self.picker.label, undone=self.undone.label,
            pivot=self.undone.pairing_number,
        )


@dataclass(frozen=True)
class DeadEnd:
    """These players, from this pivot, were already found impossible to pair in this round."""

    unpaired: tuple[ClockPlayer, ...]
    pivot: int

    def text(self) -> str:
        labels = [Text(PN_ONLY, pn=p.pairing_number) for p in self.unpaired]
        who = functools.reduce(lambda a, b: concat(concat(a, ", "), b), labels) if labels else ""
        return concat(INDENT, Text(DEAD_END, players=who, pivot=self.pivot))


@dataclass(frozen=True)
class ColoursGiven:
    """Appendix B: who has White in a stored pair, and why."""

    decision: ColourDecision

    def text(self) -> str:
        d = self.decision
        return Text(COLOUR_PAIR, white=d.white.label, black=d.black.label, reason=d.reason)


Event = (
    PickerChosen | CandidateDiscarded | PairStored | NoPickerCandidate | Backtrack | DeadEnd
    | ColoursGiven
)


def render(events: Iterable[Event]) -> tuple[str, ...]:
    """Return the explanation as text lines; the colours under a heading of their own."""
    lines: list[str] = []
    heading = False
    for event in events:
        if isinstance(event, ColoursGiven) and not heading:
            lines.append(Text(COLOURS_HEADING))
            heading = True
        lines.append(concat(INDENT, event.text()) if heading else event.text())
    return tuple(lines)
