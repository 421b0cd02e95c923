"""Standings: points, then a tournament's ordered list of tie-breaks; shared ranks for what remains.

Direct encounter (C.07 Art. 6) is not a per-player value: it ranks the players of a tied group
by the points they scored against each other, so it is applied here, group by group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from pairing.model import Tournament
from pairing.text import Text, gettext_noop

from .compute import Breakdown, Context, Element, Rules, Value, compute
from .rounds import RoundRecord
from .specs import Acronym, TieBreakSpec


@dataclass(frozen=True)
class StandingRow:
    rank: int
    tpn: int
    name: str
    points: Fraction
    values: tuple[Value, ...]
    """One value per used tie-break, in the order of :attr:`Standings.specs`. For DE: the
    points scored against the others of the tied group it was applied to (None if it was
    not needed)."""
    shared: bool
    """Still tied with another player after every tie-break (same rank)."""


@dataclass(frozen=True)
class Standings:
    rounds: int
    specs: tuple[TieBreakSpec, ...]
    """The tie-breaks used, in order."""
    dropped: tuple[tuple[TieBreakSpec, str], ...]
    """Tie-breaks of the list that were not used, with the reason."""
    rows: tuple[StandingRow, ...]


UNRATED_REASON = gettext_noop(
    "unrated players take part and the tournament sets no rating for them (C.07 Art. 10)"
)
GAME_WITHIN_TIED_GROUP = gettext_noop("game within the tied group")
PLAYERS_TIED = gettext_noop("players tied on points: %(players)s")


def usable_specs(
    ctx: Context, specs: Sequence[TieBreakSpec]
) -> tuple[tuple[TieBreakSpec, ...], tuple[tuple[TieBreakSpec, str], ...]]:
    """Split the list into the tie-breaks to use and those dropped (with why)."""
    used, dropped = [], []
    for spec in specs:
        if spec.rating_based and ctx.has_unrated and ctx.rules.unrated_rating is None:
            dropped.append(
                (
                    spec,
                    UNRATED_REASON,
                )
            )
        else:
            used.append(spec)
    return tuple(used), tuple(dropped)


def format_value(value: Value) -> str:
    """Show a value the way standings print it: ``-`` for none, ``13.5``, ``7.25``, ``2045``."""
    if value is None:
        return "-"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        text = f"{float(value):.2f}".rstrip("0").rstrip(".")
        return text if Fraction(text) == value else f"{float(value):.2f}"
    return str(value)


def _sort_key(spec: TieBreakSpec, value: Value) -> tuple[int, Fraction | int]:
    """Larger sorts first. Missing values come last. TPN ascending and RTNG/R ascending."""
    if value is None:
        return (0, 0)
    v = value
    if spec.acronym is Acronym.TPN:
        v = -v
    if spec.reverse:
        v = -v
    return (1, v)


# ---------------------------------------------------------------------------------------------
# Direct encounter (Art. 6)


def _meetings(
    ctx: Context, tpn: int, group: frozenset[int], played: bool
) -> dict[int, list[RoundRecord]]:
    out: dict[int, list[RoundRecord]] = {}
    for r in ctx.records[tpn]:
        if r.opponent in group and ctx._as_game(r, played):
            out.setdefault(r.opponent, []).append(r)
    return out


def mini_table(
    ctx: Context, group: list[int], played: bool
) -> tuple[dict[int, Fraction], dict[int, int]]:
    """Points each player scored against the others of ``group`` (repeated meetings averaged),
    and for each player the number of others they did not meet (Art. 6.1)."""
    members = frozenset(group)
    scores: dict[int, Fraction] = {}
    unmet: dict[int, int] = {}
    for tpn in group:
        meetings = _meetings(ctx, tpn, members, played)
        scores[tpn] = sum(
            (sum((r.points for r in recs), Fraction(0)) / len(recs) for recs in meetings.values()),
            Fraction(0),
        )
        unmet[tpn] = len(members) - 1 - len(meetings)
    return scores, unmet


def direct_encounter(
    ctx: Context, group: list[int], played: bool, shown: dict[int, Fraction] | None = None
) -> list[list[int]]:
    """Split a tied group into ordered tiers by direct encounter (Art. 6).

    If every player met every other one, the mini-table orders them and any tier still tied
    (smaller than the group) is split again among itself. Otherwise a player ranks ahead only
    when no result of the missing games could catch up: their score exceeds every other's score
    plus the points of a win for each game that other did not play within the group.

    ``shown`` receives, for each player, the score of the innermost group that decided their
    place (what a standings page shows as the DE value).
    """
    if len(group) < 2:
        return [list(group)]
    scores, unmet = mini_table(ctx, group, played)
    if shown is not None:
        shown.update(scores)
    if not any(unmet.values()):
        tiers: list[list[int]] = []
        for value in sorted(set(scores.values()), reverse=True):
            tier = [tpn for tpn in group if scores[tpn] == value]
            if 1 < len(tier) < len(group):
                tiers.extend(direct_encounter(ctx, tier, played, shown))
            else:
                tiers.append(tier)
        return tiers
    remaining = list(group)
    tiers = []
    while len(remaining) > 1:
        scores, unmet = mini_table(ctx, remaining, played)
        if shown is not None and len(remaining) < len(group):
            shown.update(scores)
        leader = next(
            (
                tpn
                for tpn in remaining
                if all(scores[tpn] > scores[o] + ctx.win * unmet[o] for o in remaining if o != tpn)
            ),
            None,
        )
        if leader is None:
            break
        tiers.append([leader])
        remaining.remove(leader)
    tiers.append(remaining)
    return tiers


# ---------------------------------------------------------------------------------------------


def standings(
    tournament: Tournament,
    specs: Sequence[TieBreakSpec],
    rules: Rules | None = None,
    *,
    context: Context | None = None,
) -> Standings:
    """Rank all players: points, then each tie-break in order; ties that remain share a rank."""
    ctx = context or Context(tournament, rules)
    used, dropped = usable_specs(ctx, specs)
    values: dict[int, list[Value]] = {tpn: [None] * len(used) for tpn in ctx.records}
    for i, spec in enumerate(used):
        if spec.acronym is not Acronym.DE:
            for tpn in ctx.records:
                values[tpn][i] = compute(ctx, spec, tpn).value

    # Groups of tied players, best first; refined by each tie-break in turn.
    order = sorted(ctx.records, key=lambda tpn: (-ctx.score[tpn], tpn))
    groups: list[list[int]] = []
    for tpn in order:
        if groups and ctx.score[groups[-1][0]] == ctx.score[tpn]:
            groups[-1].append(tpn)
        else:
            groups.append([tpn])
    for i, spec in enumerate(used):
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif spec.acronym is Acronym.DE:
                shown: dict[int, Fraction] = {}
                refined.extend(direct_encounter(ctx, group, spec.played, shown))
                for tpn in group:
                    values[tpn][i] = shown[tpn]
            else:
                keyed = sorted(group, key=lambda t: _sort_key(spec, values[t][i]), reverse=True)
                for tpn in keyed:
                    if (
                        refined
                        and refined[-1] is not group
                        and _same(spec, values, i, refined[-1], tpn, group)
                    ):
                        refined[-1].append(tpn)
                    else:
                        refined.append([tpn])
        groups = [sorted(g) for g in refined]

    rows = []
    position = 1
    for group in groups:
        for tpn in group:
            p = ctx.players[tpn]
            rows.append(
                StandingRow(
                    rank=position,
                    tpn=tpn,
                    name=p.name,
                    points=ctx.score[tpn],
                    values=tuple(values[tpn]),
                    shared=len(group) > 1,
                )
            )
        position += len(group)
    return Standings(ctx.rounds, used, dropped, tuple(rows))


def _same(
    spec: TieBreakSpec,
    values: dict[int, list[Value]],
    i: int,
    current: list[int],
    tpn: int,
    group: list[int],
) -> bool:
    """Whether ``tpn`` ties with the players of ``current`` (which came from the same group)."""
    head = current[0]
    return head in group and _sort_key(spec, values[head][i]) == _sort_key(spec, values[tpn][i])


# ---------------------------------------------------------------------------------------------
# "How was this computed"


@dataclass(frozen=True)
class PlayerExplanation:
    tpn: int
    name: str
    points: Fraction
    adjusted: Fraction
    """The score the player's opponents use (Art. 16.3)."""
    rounds: tuple[RoundRecord, ...]
    breakdowns: tuple[Breakdown, ...]
    dropped: tuple[tuple[TieBreakSpec, str], ...] = field(default=())


def explain(
    tournament: Tournament,
    specs: tuple[TieBreakSpec, ...] | list[TieBreakSpec],
    tpn: int,
    rules: Rules | None = None,
    *,
    context: Context | None = None,
) -> PlayerExplanation:
    """Every tie-break value of one player with the elements it was computed from."""
    ctx = context or Context(tournament, rules)
    used, dropped = usable_specs(ctx, specs)
    table = standings(tournament, used, context=ctx)
    row = next(r for r in table.rows if r.tpn == tpn)
    tied = [r.tpn for r in table.rows if r.points == row.points]
    breakdowns = []
    for i, spec in enumerate(used):
        if spec.acronym is Acronym.DE:
            group = frozenset(tied)
            elements = tuple(
                Element(rec.round, rec.points, rec.opponent, note=Text(GAME_WITHIN_TIED_GROUP))
                for recs in _meetings(ctx, tpn, group, spec.played).values()
                for rec in recs
            )
            notes = (Text(PLAYERS_TIED, players=", ".join(map(str, sorted(tied)))),)
            breakdowns.append(Breakdown(spec, row.values[i], elements, notes))
        else:
            breakdowns.append(compute(ctx, spec, tpn))
    p = ctx.players[tpn]
    return PlayerExplanation(
        tpn, p.name, ctx.score[tpn], ctx.adjusted[tpn], ctx.records[tpn], tuple(breakdowns), dropped
    )
