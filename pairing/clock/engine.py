"""The Clock (Italian-Swiss) pairing system: picker, candidate, pivot and backtracking.

Source: "CLOCK SYSTEM", annex to the agenda of the FIDE SPP Committee, Istanbul 2012 (not a
FIDE-approved system). The players sit around a circular table by pairing number, the bye
(PN-0) after the last one. From the pivot, the *picker* (the first of the highest scorers) takes
the first compatible *candidate* after the pivot; when a picker has no candidate left, the last
stored pair is undone and its picked player becomes *temporarily incompatible* with its picker.
The readings numbered here are those of the corpus README (``clock/README.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from pairing.clock.colours import ColourDecision, assign_colours
from pairing.clock.explanation import (
    TEMPORARILY_INCOMPATIBLE,
    Backtrack,
    CandidateDiscarded,
    ColoursGiven,
    DeadEnd,
    Event,
    NoPickerCandidate,
    PairStored,
    PickerChosen,
    render,
)
from pairing.clock.grid import BYE_PN, Grid, build_grid
from pairing.clock.players import (
    ClockPlayer,
    Compatibility,
    incompatibility,
    players_on_the_clock,
)
from pairing.errors import NoValidPairing, UnsupportedFeature
from pairing.model import Board, RoundPairing, Tournament
from pairing.text import Text, gettext_noop
from pairing.trf import next_round_number

__all__ = ["ClockRound", "MasterColourMissing", "clock_grid", "pair_clock_round", "pair_round"]

# Why a round cannot be paired (the web app says it in the reader's language).
FIRST_PICKER = gettext_noop("the first picker")
NO_MASTER_COLOUR = gettext_noop(
    "no master colour (Appendix A [d]): the file needs 152 W|B or XXC white1|black1"
)
NOTHING_TO_UNDO = gettext_noop(
    "%(player)s has no compatible candidate and there is no pair to undo"
)


class MasterColourMissing(UnsupportedFeature):
    """The file does not say which master colour was drawn (``152``/``XXC``). The draw of
    Appendix A [d] is the arbiter's; the engine does not make it up (the command line: exit 3)."""


@dataclass(frozen=True)
class ClockRound:
    """A round paired by the Clock system, in its own terms."""

    round: int
    pairs: tuple[ColourDecision, ...]
    """The pairs in the order they were stored, colours decided (Appendix B)."""
    bye: ClockPlayer | None
    """The player paired with the fictitious player, if any."""
    events: tuple[Event, ...] = ()
    """Every picker, candidate passed over, stored pair and backtrack, when asked for."""

    def round_pairing(self, explain: bool = False) -> RoundPairing:
        """Return the engine's answer in the common form (TPNs, White first, bye as a TPN)."""
        boards = tuple(Board(p.white.tpn, p.black.tpn) for p in self.pairs)
        return RoundPairing(
            round=self.round,
            boards=boards,
            bye=self.bye.tpn if self.bye is not None else None,
            explanation=render(self.events) if explain else (),
        )


def clock_grid(t: Tournament) -> Grid:
    """Return the tournament's grid: every 001 line, ranked by TPN (reading 1), and the master
    colour from ``XXC``/``152`` (reading 3)."""
    if t.initial_color is None:
        raise MasterColourMissing(Text(NO_MASTER_COLOUR))
    return build_grid(len(t.players), t.initial_color)


def pair_round(t: Tournament, *, explain: bool = False) -> RoundPairing:
    """Pair the next round of a tournament by the Clock system."""
    return pair_clock_round(t, explain=explain).round_pairing(explain)


def pair_clock_round(t: Tournament, *, explain: bool = False) -> ClockRound:
    """Pair the next round; raise NoValidPairing when no pairing exists ("Backtracking")."""
    k = next_round_number(t)
    seats = players_on_the_clock(t, k, clock_grid(t))
    rules = Compatibility.of(t, k)
    events: list[Event] = []
    note: Callable[[Event], None] | None = events.append if explain else None
    stored = _Search(seats, lambda a, b: incompatibility(a, b, rules), note).run()
    pairs = []
    bye = None
    for picker, picked in stored:
        if picker.is_bye or picked.is_bye:
            bye = picked if picker.is_bye else picker  # no colour with the bye (Appendix B)
            continue
        decision = assign_colours(picker, picked, k)
        pairs.append(decision)
    if note is not None:
        for decision in pairs:
            note(ColoursGiven(decision))
    return ClockRound(k, tuple(pairs), bye, tuple(events))


@dataclass
class _Search:
    """One round's search: the clock, the pivot, the stored pairs and the temporary
    incompatibilities declared at each level of the stack."""

    seats: Sequence[ClockPlayer]
    incompatible: Callable[[ClockPlayer, ClockPlayer], str | None]
    note: Callable[[Event], None] | None
    stack: list[tuple[ClockPlayer, ClockPlayer]] = field(default_factory=list)
    temporarily_incompatible: list[set[int]] = field(default_factory=list)
    """For the picker at each level of the stack, the PNs he may not pick for now."""
    level_starts: list[tuple[int, frozenset[int]]] = field(default_factory=list)
    """The pivot and the unpaired players when each level's picker was sought."""
    dead_ends: set[tuple[int, frozenset[int]]] = field(default_factory=set)
    """Starts (pivot, unpaired players) from which the search was exhausted. The search from
    a start depends on nothing else (no temporary incompatibility reaches below its own level),
    so meeting one again the result is known: a shortcut that changes no pairing, only the
    length of the explanation (and keeps hopeless rounds from taking exponential time)."""

    def __post_init__(self) -> None:
        # Around the table: PN-1..PN-N, then the bye; absent players have no seat (reading 10).
        # Without a bye, pivot 0 is the empty place before PN-1.
        self.position = {p.pairing_number: i + 1 for i, p in enumerate(self.seats)}
        self.position.setdefault(BYE_PN, 0)
        self.ring = len(self.seats) + 1

    def after(self, pivot: int) -> Callable[[ClockPlayer], int]:
        """Return a key: how far clockwise a seat follows the pivot; the pivot's own seat comes
        last ("follows" means strictly after, reading 10)."""
        start = self.position[pivot]

        def distance(p: ClockPlayer) -> int:
            d = (self.position[p.pairing_number] - start) % self.ring
            return d if d else self.ring

        return distance

    def walk(self, pivot: int, pool: Sequence[ClockPlayer]) -> Iterator[ClockPlayer]:
        """Yield the players of the pool as the search meets them: the highest score first, the
        first seat after the pivot first; each one met becomes the pivot (reading 11)."""
        for score in sorted({p.score for p in pool}, reverse=True):
            group = [p for p in pool if p.score == score]
            group.sort(key=self.after(pivot))
            for player in group:
                pivot = player.pairing_number
                yield player

    def emit(self, event: Event) -> None:
        if self.note is not None:
            self.note(event)

    def run(self) -> list[tuple[ClockPlayer, ClockPlayer]]:
        """Pair everybody on the clock; return the stored pairs <picker, picked> in order."""
        unpaired = {p.pairing_number: p for p in self.seats}
        pivot = 0  # "For each round, the initial pivot value is zero"
        picker: ClockPlayer | None = None
        while True:
            if picker is None:
                if not unpaired:
                    return self.stack
                start = (pivot, frozenset(unpaired))
                if start in self.dead_ends:
                    self.emit(DeadEnd(tuple(unpaired.values()), pivot))
                    pivot, picker = self.backtrack(unpaired, None)
                    continue
                picker = next(self.walk(pivot, list(unpaired.values())))
                del unpaired[picker.pairing_number]
                self.emit(PickerChosen(picker, pivot, len(self.stack)))
                pivot = picker.pairing_number  # "the pivot position is set equal to the picker"
                self.temporarily_incompatible.append(set())
                self.level_starts.append(start)
            chosen = self.candidate(picker, pivot, list(unpaired.values()))
            if chosen is not None:
                self.stack.append((picker, chosen))
                self.emit(PairStored(picker, chosen, len(self.stack)))
                del unpaired[chosen.pairing_number]
                pivot = chosen.pairing_number
                picker = None
                continue
            self.emit(NoPickerCandidate(picker))
            self.temporarily_incompatible.pop()  # ended: a superior pair is undone
            self.dead_ends.add(self.level_starts.pop())
            pivot, picker = self.backtrack(unpaired, picker)

    def backtrack(
        self, unpaired: dict[int, ClockPlayer], failed: ClockPlayer | None
    ) -> tuple[int, ClockPlayer]:
        """Undo the last stored pair: its picker picks again from the pivot set to the picked
        player, who is now temporarily incompatible with him ("Backtracking")."""
        if not self.stack:
            who = failed.label if failed is not None else Text(FIRST_PICKER)
            raise NoValidPairing(Text(NOTHING_TO_UNDO, player=who))
        if failed is not None:
            unpaired[failed.pairing_number] = failed
        picker, undone = self.stack.pop()
        unpaired[undone.pairing_number] = undone
        self.temporarily_incompatible[-1].add(undone.pairing_number)
        self.emit(Backtrack(picker, undone, len(self.stack)))
        return undone.pairing_number, picker

    def candidate(
        self, picker: ClockPlayer, pivot: int, pool: list[ClockPlayer]
    ) -> ClockPlayer | None:
        """Return the first candidate compatible with the picker, the discards noted."""
        barred = self.temporarily_incompatible[-1]
        for candidate in self.walk(pivot, pool):
            if candidate.pairing_number in barred:
                reason: str | None = Text(TEMPORARILY_INCOMPATIBLE)
            else:
                reason = self.incompatible(picker, candidate)
            if reason is None:
                return candidate
            self.emit(CandidateDiscarded(picker, candidate, reason))
        return None

