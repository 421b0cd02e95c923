"""What the pages, the API and paper show of categories and prizes: each category's ranking
list (the public standings filtered, never ranked again) and who receives which prize
(``tournaments.prizes.distribute`` over the final standings)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext as _

from tournaments import prizes, queries
from tournaments.models import Category, Player, Tournament
from tournaments.prize_models import amounts


def event_year(t: Tournament) -> int:
    """The year ages are counted in: the year the event starts (or was created, undated)."""
    return t.start_date.year if t.start_date else t.created_at.year


def entrant(player: Player) -> prizes.Entrant:
    return prizes.Entrant(
        sex=player.sex, birth_year=player.birth_year, rating=player.rating,
        federation=player.federation, club=player.club,
    )


def members(t: Tournament, category: Category, players) -> frozenset[int]:
    """The ids of the players who belong to the category."""
    criteria, year = category.criteria, event_year(t)
    return frozenset(p.pk for p in players if criteria.admits(entrant(p), year))


def conditions(t: Tournament, category: Category) -> str:
    """What a category asks, in the reader's language: 'women; born 2014 or later; rated
    below 1800 (unrated players too)'."""
    parts = []
    if category.women:
        parts.append(_("women"))
    first, last = category.criteria.birth_years(event_year(t))
    if first is not None and last is not None:
        parts.append(_("born %(first)s to %(last)s") % {"first": first, "last": last})
    elif first is not None:
        parts.append(_("born in %(year)s or later") % {"year": first})
    elif last is not None:
        parts.append(_("born in %(year)s or earlier") % {"year": last})
    low, high = category.rating_from, category.rating_below
    if category.unrated == Category.Unrated.ONLY:
        parts.append(_("unrated"))
    else:
        if low is not None and high is not None:
            band = _("rated %(low)s to %(high)s") % {"low": low, "high": high - 1}
        elif low is not None:
            band = _("rated %(low)s or more") % {"low": low}
        elif high is not None:
            band = _("rated below %(high)s") % {"high": high}
        else:
            band = ""
        if band and category.unrated == Category.Unrated.WITH:
            band += " " + _("(unrated players too)")
        elif not band and category.unrated == Category.Unrated.WITHOUT:
            band = _("rated")
        if band:
            parts.append(band)
    if category.federations:
        parts.append(_("federation %(codes)s") % {"codes": ", ".join(
            sorted(category.federation_codes))})
    if category.club:
        parts.append(_("club %(name)s") % {"name": category.club})
    return "; ".join(parts) or _("every player")


def money(amount: Decimal, currency: str = "") -> str:
    """An amount as the page's language writes it, whole amounts without cents: '1 500 €'."""
    places = 0 if amount == amount.to_integral_value() else 2
    text = formats.number_format(amount, decimal_pos=places, use_l10n=True, force_grouping=True)
    return f"{text}\u00a0{currency}" if currency else text


# ---------------------------------------------------------------------------------------------
# Ranking lists


@dataclass(frozen=True)
class CategoryRow:
    rank_label: str
    """The place in the category, shared by players tied on everything in the standings."""
    row: queries.StandingRow
    """The player's row of the standings (its rank is the rank in the standings)."""


@dataclass(frozen=True)
class CategoryStandings:
    category: Category
    conditions: str
    standings: queries.Standings
    rows: list[CategoryRow]


def category_standings(
    t: Tournament, category: Category, *, after_round: int | None = None,
    version: queries.Version | None = None,
) -> CategoryStandings:
    """A category's ranking list: the standings' rows of its players, in the same order."""
    table = queries.public_standings(t, after_round=after_round, version=version)
    inside = members(t, category, (r.player for r in table.rows))
    rows = [r for r in table.rows if r.player.pk in inside]
    labels = prizes.list_ranks([_ranked(r) for r in rows])
    return CategoryStandings(
        category, conditions(t, category), table,
        [CategoryRow(label, r) for label, r in zip(labels, rows)],
    )


def _ranked(row: queries.StandingRow) -> prizes.Ranked:
    return prizes.Ranked(row.player.pk, row.rank, row.points)


# ---------------------------------------------------------------------------------------------
# The prize list


@dataclass(frozen=True)
class PrizeLine:
    places: str
    """'3', or '3-5' for places shared."""
    player: Player
    points: int
    amount: Decimal
    shared: bool


@dataclass(frozen=True)
class PrizeSection:
    category: Category | None
    """None: the general standings."""
    name: str
    conditions: str
    announced: tuple[Decimal, ...]
    lines: list[PrizeLine]


@dataclass(frozen=True)
class PrizeGiving:
    after_round: int
    final: bool
    """Whether every round is in: the prizes are given out from these standings."""
    sharing: str
    currency: str
    sections: list[PrizeSection]

    @property
    def announced_total(self) -> Decimal:
        return sum((sum(s.announced, Decimal(0)) for s in self.sections), Decimal(0))

    @property
    def given_total(self) -> Decimal:
        return sum((line.amount for s in self.sections for line in s.lines), Decimal(0))

    @property
    def defined(self) -> bool:
        return any(s.announced for s in self.sections)


def prize_giving(t: Tournament, *, version: queries.Version | None = None) -> PrizeGiving:
    """Who receives which prize, from the standings of the rounds complete so far (final once
    the last round is in). Raises ``services.ServiceError`` when the event cannot be ranked."""
    table = queries.public_standings(t, version=version)
    categories = list(t.categories.all())
    players = [r.player for r in table.rows]
    everyone = frozenset(p.pk for p in players)
    lists = [prizes.PrizeList(None, everyone, prizes_of(t))]
    lists += [
        prizes.PrizeList(c.pk, members(t, c, players), c.amounts) for c in categories
    ]
    awards = prizes.distribute([_ranked(r) for r in table.rows], lists, t.prize_sharing)
    by_player = {r.player.pk: r for r in table.rows}
    sections = [
        PrizeSection(None, _("General standings"), _("every player"), lists[0].amounts, []),
        *(PrizeSection(c, c.name, conditions(t, c), c.amounts, []) for c in categories),
    ]
    index = {s.category.pk if s.category else None: s for s in sections}
    for award in awards:
        first, last = award.places
        row = by_player[award.player]
        index[award.list].lines.append(PrizeLine(
            str(first) if first == last else f"{first}-{last}",
            row.player, row.points, award.amount, award.shared,
        ))
    return PrizeGiving(
        table.after_round, table.after_round >= t.rounds, t.prize_sharing, t.currency, sections
    )


def prizes_of(t: Tournament) -> tuple[Decimal, ...]:
    """The amounts of the general standings' places."""
    return amounts(t.prizes)
