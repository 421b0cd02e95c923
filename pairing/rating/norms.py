"""Title norms (GM, IM, WGM, WIM) by the FIDE Title Regulations (B.01, in force from 1 January
2024), Art. 1.4: the games counted, the federations and titles of the opponents, their
average rating with the adjusted rating floor, the performance rating and the score; and,
when a condition is not met, what is missing.

What a tournament's data cannot tell is left to the arbiter: the event's administration
(1.1), the exemptions of 1.4.3 a-c (national championships, team and zonal events: pass
``exempt``), the games a player may choose to ignore (1.4.1 e-f), and the 1.4.1 b exceptions
for team events. The exemption of 1.4.3 d (a large international Swiss) is computed by
``large_swiss_exemption``.

>>> from fractions import Fraction as F
>>> federations, scores = ("GER", "FRA", "ESP") * 3, (1, 1, 1, 1, 1, 1, 0, 0, 0)
>>> games = [NormGame(2500, "GM", f, F(s)) for f, s in zip(federations, scores)]
>>> result = check(Title.GM, "SUI", games, rounds=9)   # 6/9 = 67 %: dp 125
>>> result.reached, result.average, result.performance
(True, 2500, 2625)
>>> fewer = [NormGame(2500, "GM", f, F(s)) for f, s in zip(federations, scores[1:] + (0,))]
>>> [str(m) for m in check(Title.GM, "SUI", fewer, rounds=9).missing]   # 5/9 = 56 %: 2543
['1 more point in these games']
>>> [str(m) for m in check(Title.GM, "SUI", games[:7], rounds=9).missing]
['2 more games']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from pairing.rating.tables import DP_BY_PERCENT, round_half_up
from pairing.text import Number, Plural, Text, gettext_noop, ngettext_lazy

__all__ = ["Condition", "NormGame", "NormResult", "Title", "check", "large_swiss_exemption"]


class Title(Enum):
    """A title gained by norms (1.4), with what its norm asks (0.5, 1.4.5, 1.4.6 b, 1.4.8)."""

    GM = ("GM", 2600, 2380, 2200, ("GM",))
    IM = ("IM", 2450, 2230, 2050, ("GM", "IM"))
    WGM = ("WGM", 2400, 2180, 2000, ("GM", "IM", "WGM"))
    WIM = ("WIM", 2250, 2030, 1850, ("GM", "IM", "WGM", "WIM"))

    def __init__(
        self, code: str, performance: int, average: int, floor: int, counted: tuple[str, ...]
    ) -> None:
        self.code = code
        self.min_performance = performance
        """1.4.8: the performance rating the norm needs (after rounding)."""
        self.min_average = average
        """1.4.8 a: the minimum average rating of the opponents."""
        self.floor = floor
        """1.4.6 b: the adjusted rating floor."""
        self.counted = counted
        """1.4.5 b-e: the titles of the opponents who count towards one third."""

    @property
    def for_women(self) -> bool:
        return self.code in ("WGM", "WIM")


TITLEHOLDERS = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})
"""1.4.5 a: the titleholders of 0.3.1; CM and WCM do not count."""
NO_FEDERATION = frozenset({"", "FID"})
"""1.4.2 a: FID players are accepted but are no foreign federation (a blank federation, not
entered, is read the same way)."""
UNRATED_AS = 1400
"""1.4.6 d: an unrated opponent counts as rated 1400."""
MIN_GAMES = 9
MIN_SCORE = Fraction(35, 100)


@dataclass(frozen=True)
class NormGame:
    """A game played over the board (1.4.2 c: forfeits are not counted) and its opponent."""

    rating: int | None
    title: str
    federation: str
    score: Fraction


@dataclass(frozen=True)
class Condition:
    """One requirement of the norm, its article, and what is missing when it is not met."""

    article: str
    met: bool
    what: Text
    missing: Text | None = None


@dataclass(frozen=True)
class NormResult:
    title: Title
    games: int
    score: Fraction
    average: int | None
    """Ra with the adjusted rating floor (1.4.6-1.4.7)."""
    performance: int | None
    """Rp = Ra + dp (1.4.8)."""
    conditions: tuple[Condition, ...]

    @property
    def reached(self) -> bool:
        return all(c.met for c in self.conditions)

    @property
    def missing(self) -> tuple[Text, ...]:
        return tuple(c.missing for c in self.conditions if not c.met and c.missing)


# What the conditions say (the web app says them in the reader's language).
GAMES = ngettext_lazy(
    "%(games)s game played over the board, %(needed)s needed (1.4.1)",
    "%(games)s games played over the board, %(needed)s needed (1.4.1)",
)
GAMES_WITH_UNPLAYED = gettext_noop(
    "%(games)s games played and a win without playing in a 9-round event count as 9 (1.4.1 c)"
)
MORE_GAMES = ngettext_lazy("%(count)s more game", "%(count)s more games")
FEDERATIONS = ngettext_lazy(
    "%(count)s federation other than the player's among the opponents, 2 needed (1.4.3)",
    "%(count)s federations other than the player's among the opponents, 2 needed (1.4.3)",
)
MORE_FEDERATIONS = ngettext_lazy(
    "opponents from %(count)s more federation other than %(own)s",
    "opponents from %(count)s more federations other than %(own)s",
)
EXEMPT = gettext_noop("federations: exempt (%(why)s)")
OWN_FEDERATION = ngettext_lazy(
    "%(count)s opponent from the player's federation, at most %(most)s (1.4.4)",
    "%(count)s opponents from the player's federation, at most %(most)s (1.4.4)",
)
FEWER_OWN = ngettext_lazy(
    "%(count)s opponent fewer from %(own)s", "%(count)s opponents fewer from %(own)s"
)
ONE_FEDERATION = ngettext_lazy(
    "%(count)s opponent from %(federation)s, the most from one federation, at most %(most)s "
    "(1.4.4)",
    "%(count)s opponents from %(federation)s, the most from one federation, at most %(most)s "
    "(1.4.4)",
)
FEWER_FROM = ngettext_lazy(
    "%(count)s opponent fewer from %(federation)s", "%(count)s opponents fewer from %(federation)s"
)
TITLEHOLDERS_SEEN = ngettext_lazy(
    "%(count)s titleholder among the opponents, %(needed)s needed (1.4.5 a)",
    "%(count)s titleholders among the opponents, %(needed)s needed (1.4.5 a)",
)
MORE_TITLEHOLDERS = ngettext_lazy(
    "%(count)s more titled opponent (GM, IM, FM, WGM, WIM, WFM)",
    "%(count)s more titled opponents (GM, IM, FM, WGM, WIM, WFM)",
)
TITLED_SEEN = ngettext_lazy(
    "%(count)s opponent with the title %(titles)s, %(needed)s needed (%(article)s)",
    "%(count)s opponents with the title %(titles)s, %(needed)s needed (%(article)s)",
)
MORE_TITLED = ngettext_lazy(
    "%(count)s more opponent with the title %(titles)s",
    "%(count)s more opponents with the title %(titles)s",
)
AVERAGE = gettext_noop(
    "average rating of the opponents %(average)s, %(needed)s needed (1.4.6, 1.4.7, 1.4.8 a)"
)
RAISED = gettext_noop(
    "average rating of the opponents %(average)s (one opponent raised to %(floor)s, 1.4.6 c), "
    "%(needed)s needed (1.4.8 a)"
)
HIGHER_AVERAGE = gettext_noop("an average rating of the opponents %(count)s points higher")
PERFORMANCE = gettext_noop("performance %(rp)s, %(needed)s needed (1.4.8)")
MORE_POINTS = ngettext_lazy(
    "%(points)s more point in these games", "%(points)s more points in these games"
)
NO_SCORE_REACHES = gettext_noop(
    "a higher average rating of the opponents: no score reaches %(needed)s"
)
SCORE = gettext_noop("score %(percent)s%%, 35%% needed (1.4.8 b)")


_ARTICLES = {"GM": "1.4.5 b", "IM": "1.4.5 c", "WGM": "1.4.5 d", "WIM": "1.4.5 e"}


def _percent(score: Fraction, games: int) -> int:
    """1.4.9: percentages rounded to the nearest whole number, 0.5 up."""
    return round_half_up(score * 100 / games)


def average_rating(title: Title, games: Sequence[NormGame]) -> tuple[int, bool]:
    """Ra of 1.4.7 with 1.4.6 applied: unrated opponents at 1400, and the lowest opponent
    below the adjusted rating floor raised to it (one only); and whether one was raised.

    >>> from fractions import Fraction as F
    >>> ratings = [2500, 2450, 2400, 2350, 2300, 2250, 2200, 2100, None]
    >>> average_rating(Title.GM, [NormGame(r, "", "GER", F(0)) for r in ratings])
    (2306, True)
    """
    ratings = sorted(UNRATED_AS if g.rating is None else g.rating for g in games)
    raised = bool(ratings) and ratings[0] < title.floor
    if raised:
        ratings[0] = title.floor  # 1.4.6 c: only the lowest
    return round_half_up(Fraction(sum(ratings), len(ratings))), raised


def check(
    title: Title, federation: str, games: Sequence[NormGame], *, rounds: int,
    unplayed_wins: int = 0, exempt: Text | None = None,
) -> NormResult:
    """Whether ``games`` (the over-the-board games of a player of ``federation`` in an event of
    ``rounds`` rounds) make a norm for ``title``, condition by condition.

    ``unplayed_wins``: rounds the player won without playing (a forfeit win or the
    pairing-allocated bye), for 1.4.1 c. ``exempt``: why the event is exempt from 1.4.3-1.4.4.
    """
    n = len(games)
    score = sum((g.score for g in games), Fraction(0))
    conditions = [_games(n, rounds, unplayed_wins)]
    conditions += _federations(federation, games, exempt)
    conditions += _titles(title, games)
    average = performance = None
    if n:
        average, raised = average_rating(title, games)
        percent = _percent(score, n)
        performance = average + DP_BY_PERCENT[percent]
        conditions.append(_average(title, average, raised))
        conditions.append(_performance(title, average, performance, score, n))
        conditions.append(Condition(
            "1.4.8 b", score >= MIN_SCORE * n, Text(SCORE, percent=percent),
            _more_points(MIN_SCORE * n - score),
        ))
    return NormResult(title, n, score, average, performance, tuple(conditions))


def _games(n: int, rounds: int, unplayed_wins: int) -> Condition:
    if n == MIN_GAMES - 1 and rounds == MIN_GAMES and unplayed_wins:
        # 1.4.1 c: the missing game a forfeit win or the PAB (the title result is the rest)
        return Condition("1.4.1 c", True, Text(GAMES_WITH_UNPLAYED, games=n))
    return Condition(
        "1.4.1", n >= MIN_GAMES, Text(GAMES, n, games=n, needed=MIN_GAMES),
        _more(MORE_GAMES, MIN_GAMES - n),
    )


def _federations(own: str, games: Sequence[NormGame], exempt: Text | None) -> list[Condition]:
    if exempt is not None:
        return [Condition("1.4.3", True, Text(EXEMPT, why=exempt))]
    n = len(games)
    by_federation = Counter(g.federation.upper() for g in games)
    foreign = {f for f in by_federation if f not in NO_FEDERATION and f != own.upper()}
    out = [Condition(
        "1.4.3", len(foreign) >= 2, _more(FEDERATIONS, len(foreign)),
        _more(MORE_FEDERATIONS, 2 - len(foreign), own=own or "?"),
    )]
    # 1.4.4: maxima rounded down
    own_most = math.floor(Fraction(3, 5) * n)
    own_count = by_federation.get(own.upper(), 0) if own.upper() not in NO_FEDERATION else 0
    out.append(Condition(
        "1.4.4", own_count <= own_most, _more(OWN_FEDERATION, own_count, most=own_most),
        _more(FEWER_OWN, own_count - own_most, own=own),
    ))
    one_most = math.floor(Fraction(2, 3) * n)
    counted = [(c, f) for f, c in by_federation.items() if f not in NO_FEDERATION]
    if counted:
        count, largest = max(counted)
        out.append(Condition(
            "1.4.4", count <= one_most,
            _more(ONE_FEDERATION, count, federation=largest, most=one_most),
            _more(FEWER_FROM, count - one_most, federation=largest),
        ))
    return out


def _titles(title: Title, games: Sequence[NormGame]) -> list[Condition]:
    n = len(games)
    holders = sum(1 for g in games if g.title.upper() in TITLEHOLDERS)
    needed = math.ceil(Fraction(n, 2))  # minima rounded up (1.4.4)
    out = [Condition(
        "1.4.5 a", holders >= needed, _more(TITLEHOLDERS_SEEN, holders, needed=needed),
        _more(MORE_TITLEHOLDERS, needed - holders),
    )]
    titled = sum(1 for g in games if g.title.upper() in title.counted)
    needed = max(3, math.ceil(Fraction(n, 3)))
    titles = "/".join(title.counted[::-1])
    article = _ARTICLES[title.code]
    out.append(Condition(
        article, titled >= needed,
        _more(TITLED_SEEN, titled, titles=titles, needed=needed, article=article),
        _more(MORE_TITLED, needed - titled, titles=titles),
    ))
    return out


def _average(title: Title, average: int, raised: bool) -> Condition:
    what = (Text(RAISED, average=average, floor=title.floor, needed=title.min_average)
            if raised else Text(AVERAGE, average=average, needed=title.min_average))
    return Condition(
        "1.4.8 a", average >= title.min_average, what,
        Text(HIGHER_AVERAGE, count=title.min_average - average),
    )


def _performance(title: Title, average: int, rp: int, score: Fraction, n: int) -> Condition:
    met = rp >= title.min_performance
    missing = None
    if not met:
        needed = _score_needed(title.min_performance - average, n)
        missing = (Text(NO_SCORE_REACHES, needed=title.min_performance) if needed is None
                   else _more_points(needed - score))
    return Condition(
        "1.4.8", met, Text(PERFORMANCE, rp=rp, needed=title.min_performance), missing
    )


def _score_needed(dp: int, n: int) -> Fraction | None:
    """The lowest score in half points out of ``n`` games whose dp reaches ``dp``."""
    for halves in range(2 * n + 1):
        if DP_BY_PERCENT[_percent(Fraction(halves, 2), n)] >= dp:
            return Fraction(halves, 2)
    return None


def _more(template: Plural, count: int, **values: object) -> Text:
    """A sentence with a count, its form chosen by the count."""
    return Text(template, count, count=count, **values)


def _more_points(points: Fraction) -> Text:
    """``1.5 more points``: a score to add, rounded up to the half point (a game's score is
    1, ½ or 0), said as the reader's language writes a decimal."""
    halves = math.ceil(points * 2)
    number = Number(f"{halves / 2:g}")
    return Text(MORE_POINTS, 1 if halves == 2 else 2, points=number)


# ---------------------------------------------------------------------------------------------
# 1.4.3 d: a large international Swiss


LARGE_SWISS = gettext_noop(
    "a Swiss with %(players)s rated players from %(federations)s federations other than the "
    "host's, %(titled)s of them GM, IM, WGM or WIM (1.4.3 d)"
)


@dataclass(frozen=True)
class Participant:
    rated: bool
    federation: str
    title: str
    missed: int
    """Rounds not played, the pairing-allocated bye excepted (1.4.3 d counts only the players
    who missed at most one)."""


def large_swiss_exemption(host: str, participants: Iterable[Participant]) -> Text | None:
    """1.4.3 d: a Swiss whose every round had at least 20 FIDE-rated players not from the host
    federation, from at least 3 federations, at least 10 of them GM, IM, WGM or WIM (counting
    only players who missed at most one round, the PAB excepted): the reason, or None."""
    counted = [
        p for p in participants
        if p.rated and p.missed <= 1 and p.federation.upper() not in NO_FEDERATION
        and p.federation.upper() != host.upper()
    ]
    federations = {p.federation.upper() for p in counted}
    titled = sum(1 for p in counted if p.title.upper() in ("GM", "IM", "WGM", "WIM"))
    if len(counted) >= 20 and len(federations) >= 3 and titled >= 10:
        return Text(LARGE_SWISS, players=len(counted), federations=len(federations),
                    titled=titled)
    return None
