"""Pairing numbers of the Clock system: Appendix A, the recursive slot procedure.

The players are ranked #1..#N (here: by TPN, which the TRF already orders by rating, title and
name, [a]). Each pairing number (PN) is a seat on the clock. A *slot* holds a *macroplayer*: an
ordered group of players, each with a colour relative to the macroplayer's own, so that once a
slot gets its colour every player inside it gets his first-round colour.

>>> grid = build_grid(4, Color.WHITE)
>>> [(s.pairing_number, s.rank, s.colour.value) for s in grid.seats]
[(1, 1, 'w'), (2, 3, 'b'), (3, 2, 'b'), (4, 4, 'w')]
"""

from __future__ import annotations

from dataclasses import dataclass

from pairing.model import Color

__all__ = ["BYE_PN", "Grid", "Seat", "build_grid"]

BYE_PN = 0
"""The fictitious player (bye) has pairing number 0 ("Odd number of players")."""


@dataclass(frozen=True)
class Seat:
    """One pairing number of the grid and who sits there."""

    pairing_number: int
    rank: int
    """The player's ranking number #, which is his TPN."""
    colour: Color | None
    """His colour in round 1 (Appendix A [3]); None for PN-N of an odd field, who meets the bye."""


@dataclass(frozen=True)
class Grid:
    """The complete grid: PN-1..PN-N in order, and the master colour drawn by lot ([d])."""

    master_colour: Color
    seats: tuple[Seat, ...]

    def pairing_number(self, rank: int) -> int:
        """Return the PN of the player ranked #rank."""
        return next(s.pairing_number for s in self.seats if s.rank == rank)

    def rank(self, pairing_number: int) -> int:
        """Return the ranking number (TPN) of the player at PN-pairing_number."""
        return self.seats[pairing_number - 1].rank

    def colour(self, rank: int) -> Color | None:
        """Return the first-round colour of the player ranked #rank."""
        return next(s.colour for s in self.seats if s.rank == rank)


# A macroplayer: (rank, reversed) pairs, in slot order; ``reversed`` means the player gets the
# colour opposite to the one the whole macroplayer gets.
_Macroplayer = tuple[tuple[int, bool], ...]


def build_grid(field_size: int, master_colour: Color) -> Grid:
    """Return the grid of a field of players #1..#field_size (Appendix A)."""
    placed: dict[int, tuple[int, Color | None]] = {}

    def place(macroplayer: _Macroplayer, first_pn: int, colour: Color) -> None:
        """Put a macroplayer in the slot that starts at PN first_pn and give it its colour."""
        for offset, (rank, reversed_) in enumerate(macroplayer):
            placed[first_pn + offset] = (rank, colour.opposite if reversed_ else colour)

    count = field_size
    if count % 2:  # [b] the last-ranked player takes PN-N and is left out
        placed[count] = (count, None)
        count -= 1
    macroplayers: list[_Macroplayer] = [((rank, False),) for rank in range(1, count + 1)]  # [c]
    last_free_pn = count
    odd_slot_colour = master_colour  # [5] odd-slots alternate, starting with the master colour
    while macroplayers:
        s = len(macroplayers) // 2  # [1] there are 2S slots to fill
        s1, s2 = macroplayers[:s], macroplayers[s:]  # [2]
        # [3] the I-th slot holds S1[I], then S2[I] with every colour reversed
        slots = [a + tuple((rank, not rev) for rank, rev in b) for a, b in zip(s1, s2)]
        if s % 2:  # [5] the median, the ((S+1)/2)-th, is an odd-slot on the last free PNs
            median = slots.pop(s // 2)
            last_free_pn -= len(median)
            place(median, last_free_pn + 1, odd_slot_colour)
            odd_slot_colour = odd_slot_colour.opposite
        if len(slots) > 2:  # [6]
            macroplayers = slots
            continue
        if slots:  # [7] the first slot gets PN-1 and the master colour, the last the other
            place(slots[0], 1, master_colour)
            place(slots[1], 1 + len(slots[0]), master_colour.opposite)
        break
    seats = tuple(Seat(pn, *placed[pn]) for pn in range(1, field_size + 1))
    return Grid(master_colour, seats)
