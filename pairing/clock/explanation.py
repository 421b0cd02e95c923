"""The Clock system explains a pairing in its own terms: who picked whom from which pivot, which
candidates were passed over and why, each backtrack and the colours of Appendix B."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pairing.clock.colours import ColourDecision
from pairing.clock.players import ClockPlayer
from pairing.model import format_points

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


@dataclass(frozen=True)
class PickerChosen:
    """The picker: the highest score among the unpaired, the first after the pivot."""

    picker: ClockPlayer
    pivot: int
    level: int
    """How many pairs are stored before this one."""

    def text(self) -> str:
        return (
            f"picker {self.picker.label}, {format_points(self.picker.score)} points "
            f"(first highest scorer after pivot {self.pivot})"
        )


@dataclass(frozen=True)
class CandidateDiscarded:
    """A candidate passed over: not compatible, or temporarily incompatible, with the picker."""

    picker: ClockPlayer
    candidate: ClockPlayer
    reason: str

    def text(self) -> str:
        return f"  passes over {self.candidate.label}: {self.reason}"


@dataclass(frozen=True)
class PairStored:
    """The picker picked the candidate; the pair is stored."""

    picker: ClockPlayer
    picked: ClockPlayer
    level: int
    """The pair's place in the stack, from 1."""

    def text(self) -> str:
        return f"  picks {self.picked.label}: pair {self.level} stored"


@dataclass(frozen=True)
class NoPickerCandidate:
    """The picker has no compatible candidate left."""

    picker: ClockPlayer

    def text(self) -> str:
        return f"  {self.picker.label} has no compatible candidate left"


@dataclass(frozen=True)
class Backtrack:
    """The last stored pair is undone; its picked player is temporarily incompatible."""

    picker: ClockPlayer
    undone: ClockPlayer
    level: int
    """How many pairs stay stored."""

    def text(self) -> str:
        return (
            f"backtrack: pair {self.level + 1} <{self.picker.label}, {self.undone.label}> undone;"
            f" {self.picker.label} picks again from pivot {self.undone.pairing_number},"
            f" {self.undone.label} temporarily incompatible with him"
        )


@dataclass(frozen=True)
class DeadEnd:
    """These players, from this pivot, were already found impossible to pair in this round."""

    unpaired: tuple[ClockPlayer, ...]
    pivot: int

    def text(self) -> str:
        who = ", ".join(f"PN-{p.pairing_number}" for p in self.unpaired)
        return f"  {who} from pivot {self.pivot}: already found impossible to pair"


@dataclass(frozen=True)
class ColoursGiven:
    """Appendix B: who has White in a stored pair, and why."""

    decision: ColourDecision

    def text(self) -> str:
        d = self.decision
        return f"{d.white.label} - {d.black.label}: {d.reason}"


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
            lines.append("colours (Appendix B):")
            heading = True
        lines.append(("  " if heading else "") + event.text())
    return tuple(lines)
