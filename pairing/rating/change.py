"""Rating changes, first ratings and performance ratings by the FIDE Rating Regulations (B.02,
in force from 1 March 2024, with the amendment of Art. 8.3.1 in force from 1 October 2025; the
Rapid and Blitz Rating Regulations of 1 March 2024 where they differ).

Scores are exact (``Fraction``); a game's score is 1, ½ or 0 (8.3.2 b). Ratings are ints, the
ratings of the list in force at the start of the event.

>>> from fractions import Fraction as F
>>> change = rating_change(2000, [(2100, F(1)), (1900, F(1, 2))], k=20)
>>> [str(g.change) for g in change.games], change.total
(['64/5', '-14/5'], 10)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from pairing.rating.tables import DP_BY_PERCENT, expected_score, round_half_up
from pairing.text import Text, gettext_noop

__all__ = [
    "FirstRating", "GameChange", "Kind", "Performance", "RatingChange", "Record",
    "development_coefficient", "first_rating", "performance", "rated_difference",
    "rating_change",
]


class Kind(Enum):
    """Which list a game is rated for: the standard regulations, or the rapid and blitz ones."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


CAP = 400
"""8.3.1 (rapid and blitz 7.3.1): a larger difference counts as 400 points."""
UNCAPPED_FROM = 2650
"""8.3.1, from 1 October 2025: players rated 2650 and above count the whole difference
(standard only: the rapid and blitz text keeps the cap for everyone)."""
NOT_RATED_GAP, NOT_RATED_ABOVE = 600, 2600
"""Rapid and blitz 7.3.1, from 1 December 2024: a game between players 600 points or more
apart is not rated if one of them is rated above 2600."""
HYPOTHETICAL = 1800
"""8.2.2: two hypothetical opponents of this rating, each game a draw."""
HIGHEST_FIRST_RATING = 2200
"""8.2.3: the maximum initial rating."""
FIRST_RATING_GAMES, RATING_FLOOR = 5, 1400
"""7.1.4: a first rating is published once based on 5 games against rated opponents, and only
if it is at least 1400 (the floor of the list)."""
K_TIMES_GAMES = 700
"""8.3.3: K times the games of the rating period may not exceed 700."""

# Why K has its value (8.3.3); the web app says them in the reader's language.
K_FROM_LIST = gettext_noop("K %(k)s, as the FIDE rating list gives it (7.1.2)")
K_NEW_PLAYER = gettext_noop("K 40: fewer than 30 rated games (8.3.3)")
K_JUNIOR = gettext_noop("K 40: 18 or younger this year and rated under 2300 (8.3.3)")
K_2400 = gettext_noop("K 10: rated 2400 or more (8.3.3)")
K_OTHERS = gettext_noop("K 20: rated under 2400 (8.3.3)")
K_CAPPED = gettext_noop("K %(k)s: K times %(games)s games may not exceed 700 (8.3.3)")
# Why a game is not rated for a player.
OPPONENT_UNRATED = gettext_noop("the opponent is unrated (8.3.1)")
TOO_FAR_APART = gettext_noop(
    "600 points or more apart with a player rated above 2600: not rated (rapid and blitz 7.3.1)"
)


@dataclass(frozen=True)
class Record:
    """What the regulations read of a player to choose K (8.3.3). Unknown facts are None."""

    rating: int
    k_from_list: int | None = None
    """The K the FIDE rating list publishes for the player (7.1.2): it already follows 8.3.3."""
    birth_year: int | None = None
    rated_games: int | None = None
    """Games rated before this event."""
    reached_2400: bool = False
    """A published rating of 2400 reached once (K stays 10 if it drops)."""


@dataclass(frozen=True)
class Coefficient:
    k: int
    why: Text


def development_coefficient(record: Record, year: int, games: int = 0) -> Coefficient:
    """K of 8.3.3 for a player in an event of ``year`` with ``games`` rated games in it.

    >>> development_coefficient(Record(2150, birth_year=2010), 2026).k
    40
    >>> development_coefficient(Record(2450), 2026).k, development_coefficient(Record(2100), 2026).k
    (10, 20)
    >>> str(development_coefficient(Record(1800, k_from_list=40), 2026, games=20).why)
    'K 35: K times 20 games may not exceed 700 (8.3.3)'
    """
    if record.k_from_list:
        k, why = record.k_from_list, Text(K_FROM_LIST, k=record.k_from_list)
    elif record.rated_games is not None and record.rated_games < 30:
        k, why = 40, Text(K_NEW_PLAYER)
    elif record.birth_year and year - record.birth_year <= 18 and record.rating < 2300:
        # "until the end of the year of their 18th birthday, as long as ... under 2300"
        k, why = 40, Text(K_JUNIOR)
    elif record.rating >= 2400 or record.reached_2400:
        k, why = 10, Text(K_2400)
    else:
        k, why = 20, Text(K_OTHERS)
    if games and k * games > K_TIMES_GAMES:
        k = K_TIMES_GAMES // games
        why = Text(K_CAPPED, k=k, games=games)
    return Coefficient(k, why)


def rated_difference(own: int, opponent: int, kind: Kind = Kind.STANDARD) -> int:
    """D of 8.3.1 as counted for rating: capped at 400 points, except (standard, from 1 October
    2025) for a player rated 2650 or more.

    >>> rated_difference(2600, 2100), rated_difference(2100, 2600), rated_difference(2700, 2200)
    (400, -400, 500)
    >>> rated_difference(2700, 2200, Kind.BLITZ)
    400
    """
    difference = own - opponent
    if kind is Kind.STANDARD and own >= UNCAPPED_FROM:
        return difference
    return max(-CAP, min(CAP, difference))


@dataclass(frozen=True)
class GameChange:
    """One game of a rated player (8.3.2)."""

    opponent_rating: int | None
    score: Fraction
    difference: int | None = None
    """D as counted (8.3.1); None when the game is not rated."""
    expected: Fraction | None = None
    """PD of table 8.1.2."""
    change: Fraction = Fraction(0)
    """K × (score − PD)."""
    not_rated: Text | None = None

    @property
    def rated(self) -> bool:
        return self.not_rated is None


@dataclass(frozen=True)
class RatingChange:
    """The rating change of one player over an event (8.3.2 c, d)."""

    rating: int
    k: int
    games: tuple[GameChange, ...]
    exact: Fraction
    """ΣΔR × K."""

    @property
    def total(self) -> int:
        """8.3.4: rounded to the nearest whole number, 0.5 away from zero."""
        magnitude = round_half_up(abs(self.exact))
        return magnitude if self.exact >= 0 else -magnitude

    @property
    def rated_games(self) -> int:
        return sum(1 for g in self.games if g.rated)


def rating_change(
    rating: int, games: Iterable[tuple[int | None, Fraction]], *, k: int,
    kind: Kind = Kind.STANDARD,
) -> RatingChange:
    """The change of a player rated ``rating`` for ``games`` (opponent's rating, None if
    unrated; the player's score), with the development coefficient ``k``.

    >>> from fractions import Fraction as F
    >>> rating_change(2600, [(2100, F(1))], k=10).games[0].change   # D 400: PD .92
    Fraction(4, 5)
    >>> rating_change(2700, [(2200, F(1, 2))], k=10).total          # 2650+: D 500, PD .96
    -5
    """
    out = []
    for opponent, score in games:
        if opponent is None:
            out.append(GameChange(None, score, not_rated=Text(OPPONENT_UNRATED)))
            continue
        if kind is not Kind.STANDARD and abs(rating - opponent) >= NOT_RATED_GAP and max(
            rating, opponent
        ) > NOT_RATED_ABOVE:
            out.append(GameChange(opponent, score, not_rated=Text(TOO_FAR_APART)))
            continue
        difference = rated_difference(rating, opponent, kind)
        expected = expected_score(difference)
        out.append(GameChange(opponent, score, difference, expected, k * (score - expected)))
    games_ = tuple(out)
    return RatingChange(rating, k, games_, sum((g.change for g in games_), Fraction(0)))


def _percent(score: Fraction, games: int) -> int:
    """p in hundredths, 0.5 rounded up (Title Regulations 1.4.9, read here for 8.2.3 too)."""
    return round_half_up(score * 100 / games)


# ---------------------------------------------------------------------------------------------
# A first rating (8.2) and a performance rating


ZERO_SCORE = gettext_noop("a zero score in a first event is disregarded (8.2.1)")
FEWER_THAN_FIVE = gettext_noop(
    "%(games)s of the 5 games against rated opponents a first rating needs (7.1.4)"
)
BELOW_FLOOR = gettext_noop("below 1400, the lowest rating published (7.1.4)")


@dataclass(frozen=True)
class FirstRating:
    """What an unrated player's games against rated opponents give (8.2), and whether FIDE
    would publish it from this event alone (7.1.4: other events may be pooled)."""

    games: int
    """Games against rated opponents."""
    score: Fraction
    average: Fraction | None
    """Ra: the rated opponents and two hypothetical 1800s (8.2.2)."""
    percent: int | None
    dp: int | None
    rating: int | None
    """Ru rounded, at most 2200 (8.2.3); None when the score is zero."""
    missing: tuple[Text, ...]
    """Why it would not be published from this event alone; empty when it would."""


def first_rating(games: Iterable[tuple[int | None, Fraction]]) -> FirstRating:
    """8.2: Ra over the rated opponents and two hypothetical opponents rated 1800, each a
    draw; Ru = Ra + dp, rounded, at most 2200.

    >>> from fractions import Fraction as F
    >>> r = first_rating([(1900, F(1)), (1950, F(1, 2)), (2000, F(0)), (1850, F(1)),
    ...                   (1807, F(1, 2)), (None, F(1))])
    >>> r.games, str(r.average), r.percent, r.dp, r.rating, r.missing
    (5, '13107/7', 57, 50, 1922, ())
    """
    rated = [(opponent, score) for opponent, score in games if opponent is not None]
    score = sum((s for _, s in rated), Fraction(0))
    if not rated or score == 0:
        return FirstRating(len(rated), score, None, None, None, None, (Text(ZERO_SCORE),))
    n = len(rated) + 2
    average = Fraction(sum(o for o, _ in rated) + 2 * HYPOTHETICAL, n)
    percent = _percent(score + 1, n)
    dp = DP_BY_PERCENT[percent]
    rating = min(round_half_up(average + dp), HIGHEST_FIRST_RATING)
    missing = []
    if len(rated) < FIRST_RATING_GAMES:
        missing.append(Text(FEWER_THAN_FIVE, games=len(rated)))
    if rating < RATING_FLOOR:
        missing.append(Text(BELOW_FLOOR))
    return FirstRating(len(rated), score, average, percent, dp, rating, tuple(missing))


@dataclass(frozen=True)
class Performance:
    """Rp = Ra + dp over the games against rated opponents (Ra rounded 0.5 up, p to the whole
    percent, as the Title Regulations 1.4.7-1.4.9 compute it)."""

    games: int
    score: Fraction
    average: int
    percent: int
    rating: int


def performance(games: Sequence[tuple[int | None, Fraction]]) -> Performance | None:
    """The performance rating over the games against rated opponents; None without any.

    >>> from fractions import Fraction as F
    >>> performance([(2400, F(1)), (2300, F(1, 2)), (None, F(1))])
    Performance(games=2, score=Fraction(3, 2), average=2350, percent=75, rating=2543)
    """
    rated = [(o, s) for o, s in games if o is not None]
    if not rated:
        return None
    score = sum((s for _, s in rated), Fraction(0))
    average = round_half_up(Fraction(sum(o for o, _ in rated), len(rated)))
    percent = _percent(score, len(rated))
    return Performance(len(rated), score, average, percent, average + DP_BY_PERCENT[percent])
