"""Categories of players and who receives which prize: pure functions over plain values.

Nothing here reads the database or Django: the web app hands over the final standings (player
ids in order, with their rank and points), each ranking list's players and the amounts of its
places, and gets back the awards (``tournaments.prize_lists`` does the reading).

**Categories.** A player belongs to a category when they meet each of its conditions; a player
can be in several. Ages are counted from the birth year alone, as FIDE does for its age groups:

- *under N* (U8 ... U20): the player had not reached the age of N before 1 January of the
  event's year, i.e. born in that year minus N or later (FIDE Handbook D.04.07, World
  Championships U8, U10 & U12, Art. 6: "shall not reached the age of 8, 10 or 12 before January
  1st of the year"; chess-results lists the same groups by birth year);
- *N and over* (50+, 65+): the player is N or older in the event's year, i.e. born in that year
  minus N or earlier (FIDE Handbook D.04.03, World Senior Championships, Art. 2.1).

A rating band counts the rating of the player list (the event's rating type): *from* is
inclusive, *below* exclusive (U1800 is "below 1800"). Whether unrated players belong is said by
each category: with the rated players of the band, not at all, or alone (a category "unrated").

**Prizes.** Each ranking list (the final standings, and each category's list: the standings
filtered, never ranked again) has amounts for its places 1..n. The usual rule holds: a player
receives one prize only, the most valuable they can have; between prizes of equal value, the
one that comes first in the event's prize list (the general standings first, then the
categories in their order, then by place). Prizes are given out from the most valuable down:
at each step the player and list whose share is the largest (equal: the event's order, then the
better-ranked player) is decided, that player leaves every other list, and the players below
move up a place in each list they leave behind.

Tied players (``SHARING``):

- ``none``: the prizes follow the standings (the event's tie-breaks); only players tied on points
  and every tie-break (one shared rank) share the prizes of the places they occupy, equally;
- ``equal``: players tied on points share the sum of the prizes of the places they occupy,
  equally (a place without a prize adds nothing);
- ``hort``: the Hort system: each tied player keeps half the prize of their own place (by the
  tie-breaks) and the other halves are pooled and shared equally among the players tied on
  points (de.wikipedia.org/wiki/Hort-System, "Ermittlung der Verteilung": "Jeder Spieler in den
  Geldpreisrängen erhält 50 % des für seinen Platz vorgesehenen Preisgelds. Die restlichen 50 %
  ... werden zu gleichen Teilen unter ihnen verteilt").

Amounts are kept exact (fractions) and rounded to the cent, half up, only when given out.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from tournaments.names import fold

SHARING = ("none", "equal", "hort")
"""How tied players share prizes (see the module's text)."""

UNRATED = ("with", "without", "only")
"""Whether unrated players belong to a category: with the rated players, not at all, alone."""

CENT = Decimal("0.01")


# ---------------------------------------------------------------------------------------------
# Categories


@dataclass(frozen=True)
class Entrant:
    """A player as a category reads them."""

    sex: str = ""
    """``w`` for a woman (``Player.Sex``)."""
    birth_year: int | None = None
    rating: int | None = None
    """None or 0: unrated."""
    federation: str = ""
    club: str = ""


@dataclass(frozen=True)
class Criteria:
    """The conditions of a category; each one left empty does not count."""

    women: bool = False
    age_under: int | None = None
    age_from: int | None = None
    rating_from: int | None = None
    rating_below: int | None = None
    unrated: str = "with"
    federations: frozenset[str] = field(default_factory=frozenset)
    club: str = ""

    def birth_years(self, year: int) -> tuple[int | None, int | None]:
        """The first and last birth years the category admits in an event of ``year``.

        >>> Criteria(age_under=12).birth_years(2026)
        (2014, None)
        >>> Criteria(age_from=65).birth_years(2026)
        (None, 1961)
        """
        first = year - self.age_under if self.age_under is not None else None
        last = year - self.age_from if self.age_from is not None else None
        return first, last

    def admits(self, entrant: Entrant, year: int) -> bool:
        """Whether the player belongs to the category in an event of ``year``.

        >>> u12 = Criteria(age_under=12)
        >>> u12.admits(Entrant(birth_year=2014), 2026), u12.admits(Entrant(birth_year=2013), 2026)
        (True, False)
        >>> u12.admits(Entrant(), 2026)  # no birth year: in no age group
        False
        >>> u1800 = Criteria(rating_below=1800, unrated="without")
        >>> [u1800.admits(Entrant(rating=r), 2026) for r in (1799, 1800, None)]
        [True, False, False]
        >>> Criteria(unrated="only").admits(Entrant(rating=1500), 2026)
        False
        >>> Criteria(women=True, federations=frozenset({"FRA"})).admits(
        ...     Entrant(sex="w", federation="fra"), 2026)
        True
        >>> Criteria(club="Échiquier de Lyon").admits(Entrant(club="echiquier de LYON "), 2026)
        True
        """
        if self.women and entrant.sex != "w":
            return False
        first, last = self.birth_years(year)
        if first is not None or last is not None:
            if entrant.birth_year is None:
                return False
            if first is not None and entrant.birth_year < first:
                return False
            if last is not None and entrant.birth_year > last:
                return False
        if not self._admits_rating(entrant.rating or None):
            return False
        if self.federations and entrant.federation.upper() not in self.federations:
            return False
        return not self.club or same_club(self.club, entrant.club)

    def _admits_rating(self, rating: int | None) -> bool:
        if rating is None:
            return self.unrated != "without"
        if self.unrated == "only":
            return False
        if self.rating_from is not None and rating < self.rating_from:
            return False
        return self.rating_below is None or rating < self.rating_below


def same_club(one: str, other: str) -> bool:
    """Whether two club names are the same, whatever the case, accents and outer spaces."""
    return fold(one.strip()) == fold(other.strip())


# ---------------------------------------------------------------------------------------------
# Ranking lists


@dataclass(frozen=True)
class Ranked:
    """One row of the final standings."""

    player: Hashable
    rank: int
    """Equal for players tied on points and every tie-break."""
    points: int
    """Tenths of a point."""


def list_ranks(rows: Sequence[Ranked]) -> list[str]:
    """The rank labels of a list that is the standings filtered: places 1..n in their order,
    players who share a rank in the standings sharing one here too.

    >>> list_ranks([Ranked("a", 2, 30), Ranked("b", 4, 25), Ranked("c", 4, 25), Ranked("d", 9, 10)])
    ['1', '2-3', '2-3', '4']
    """
    labels = []
    start = 0
    while start < len(rows):
        end = start
        while end + 1 < len(rows) and rows[end + 1].rank == rows[start].rank:
            end += 1
        label = str(start + 1) if end == start else f"{start + 1}-{end + 1}"
        labels.extend([label] * (end - start + 1))
        start = end + 1
    return labels


# ---------------------------------------------------------------------------------------------
# Prizes


@dataclass(frozen=True)
class PrizeList:
    """One ranking list with the amounts of its places 1..n, in the event's order of lists."""

    key: Hashable
    players: frozenset
    """Who is in the list (the general standings: everyone)."""
    amounts: tuple[Decimal, ...]


@dataclass(frozen=True)
class Award:
    """What one player receives."""

    player: Hashable
    list: Hashable
    """The key of the list the prize comes from."""
    places: tuple[int, int]
    """The places of that list the player's tie group occupies (first, last); (3, 3) alone."""
    place: int
    """The player's own place in that list, by the tie-breaks."""
    amount: Decimal
    """What the player receives, rounded to the cent."""
    shared: bool
    """Whether the prizes of several places were shared."""


@dataclass(frozen=True)
class _Share:
    amount: Fraction
    places: tuple[int, int]
    place: int
    shared: bool


def _share_out(
    members: Sequence[Ranked], amounts: Sequence[Decimal], sharing: str
) -> dict[Hashable, _Share]:
    """Each member's share of one list's prizes, the members in the standings' order."""
    shares: dict[Hashable, _Share] = {}
    start = 0
    while start < len(members) and start < len(amounts):
        end = start + 1
        while end < len(members) and _tied(members[start], members[end], sharing):
            end += 1
        group = members[start:end]
        slots = [Fraction(a) for a in amounts[start:end]]
        slots += [Fraction(0)] * (len(group) - len(slots))
        pool = sum(slots, Fraction(0))
        places = (start + 1, end)
        for k, member in enumerate(group):
            if sharing == "hort":
                amount = slots[k] / 2 + pool / (2 * len(group))
            else:
                amount = pool / len(group)
            shares[member.player] = _Share(amount, places, start + k + 1, len(group) > 1)
        start = end
    return shares


def _tied(one: Ranked, other: Ranked, sharing: str) -> bool:
    if sharing == "none":
        return one.rank == other.rank
    return one.points == other.points


def money(amount: Fraction) -> Decimal:
    """An exact amount rounded to the cent, half up.

    >>> money(Fraction(100, 3)), money(Fraction(1, 200))
    (Decimal('33.33'), Decimal('0.01'))
    """
    exact = Decimal(amount.numerator) / Decimal(amount.denominator)
    return exact.quantize(CENT, rounding=ROUND_HALF_UP)


def distribute(
    standings: Sequence[Ranked], lists: Sequence[PrizeList], sharing: str = "none"
) -> list[Award]:
    """Who receives which prize: one prize a player, the most valuable they can have.

    ``standings``: the final standings in order; ``lists``: in the event's order (the general
    standings first). Returns the awards in the order of the lists, then of the places.

    A player who is first under 1800 but whose prize for 5th place is worth more takes the 5th
    place prize; the U1800 prize goes to the next player of that list:

    >>> rows = [Ranked(p, r, 60 - r) for r, p in enumerate("abcdef", start=1)]
    >>> general = PrizeList(None, frozenset("abcdef"), (Decimal(300), Decimal(200), Decimal(120)))
    >>> u1800 = PrizeList("U1800", frozenset("cef"), (Decimal(100),))
    >>> [(a.player, a.list, str(a.amount)) for a in distribute(rows, [general, u1800])]
    [('a', None, '300.00'), ('b', None, '200.00'), ('c', None, '120.00'), ('e', 'U1800', '100.00')]

    Hort, the example of de.wikipedia's article: A and B tied on 8 points, D, E and F on 7:

    >>> amounts = tuple(Decimal(a) for a in (100, 80, 60, 40, 20, 10))
    >>> points = {"A": 80, "B": 80, "C": 75, "D": 70, "E": 70, "F": 70}
    >>> rows = [Ranked(p, r, points[p]) for r, p in enumerate("ABCDEF", start=1)]
    >>> prizes = [PrizeList(None, frozenset(points), amounts)]
    >>> [str(a.amount) for a in distribute(rows, prizes, "hort")]
    ['95.00', '85.00', '60.00', '31.67', '21.67', '16.67']
    >>> [str(a.amount) for a in distribute(rows, prizes, "equal")]
    ['90.00', '90.00', '60.00', '23.33', '23.33', '23.33']
    """
    if sharing not in SHARING:
        raise ValueError(f"sharing: one of {', '.join(SHARING)}, not {sharing!r}")
    order = {row.player: i for i, row in enumerate(standings)}
    decided: dict[Hashable, int] = {}

    def shares_of(index: int) -> dict[Hashable, _Share]:
        prize_list = lists[index]
        members = [
            row for row in standings
            if row.player in prize_list.players and decided.get(row.player, index) == index
        ]
        return _share_out(members, prize_list.amounts, sharing)

    shares = [shares_of(index) for index in range(len(lists))]
    while True:
        best: tuple | None = None
        for index, list_shares in enumerate(shares):
            for player, share in list_shares.items():
                if player in decided or share.amount <= 0:
                    continue
                key = (share.amount, -index, -order[player])
                if best is None or key > best[0]:
                    best = (key, player, index)
        if best is None:
            break
        _key, player, chosen = best
        decided[player] = chosen
        for index, prize_list in enumerate(lists):  # the player leaves every other list
            if index != chosen and player in prize_list.players:
                shares[index] = shares_of(index)
    awards = []
    for index, prize_list in enumerate(lists):
        for player, share in shares[index].items():
            if decided.get(player) == index:
                awards.append(Award(player, prize_list.key, share.places, share.place,
                                    money(share.amount), share.shared))
    return awards
