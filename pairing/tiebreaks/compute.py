"""The tie-break values of C.07 Articles 7-10, each with the elements it was computed from.

:class:`Context` classifies every round once (Art. 16) and computes each participant's score and
adjusted score (Art. 16.3). :func:`compute` gives one participant's value for one
:class:`TieBreakSpec` together with a :class:`Breakdown`: which opponents or rounds contributed,
which were cut, which dummy opponents (Art. 16.4) stood in for unplayed rounds.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import cast

from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament
from pairing.rating.tables import dp_for, expected_score, round_half_up
from pairing.text import Plural, Text, gettext_noop, ngettext_lazy

from .errors import TieBreakInputError
from .rounds import Kind, RoundRecord, check_consistency, player_records, rounds_of
from .specs import Acronym, TieBreakSpec

# The notes that say how a value was computed (the web app says them in the reader's language).
DUMMY_OWN_2024 = gettext_noop("dummy = own score (Art. 16.4, 2024)")
DUMMY_FORFEIT = gettext_noop(
    "dummy = min(own %(own)s, scheduled opponent %(opponent)s %(cap)s) (16.4.1)"
)
DUMMY_DRAWS = gettext_noop("dummy = min(own %(own)s, %(rounds)s draws %(cap)s) (16.4.2)")
KIND_AND_NOTE = gettext_noop("%(kind)s: %(note)s")
SCORE_AFTER_ROUND = gettext_noop("score after round")
FORE_FINAL_ROUND = gettext_noop("final round %(round)s: every paired game counted as a draw")
OPPONENTS_BUCHHOLZ = gettext_noop("opponent's Buchholz")
NO_GAME_AGAINST_OPPONENT = gettext_noop("no game against an opponent")
OPPONENT_SCORED = gettext_noop("opponent scored %(score)s")
OPPONENT_SCORED_UNPLAYED = gettext_noop("opponent scored %(score)s (%(kind)s)")
THRESHOLD = gettext_noop("threshold %(threshold)s")
OPPONENT_UNRATED = gettext_noop("round %(round)s: opponent %(opponent)s is unrated")
RATING = gettext_noop("rating")
RATING_OF = gettext_noop("rating %(rating)s")
NO_GAME_OVER_THE_BOARD = gettext_noop("no game played over the board")
TPR_NOTE = gettext_noop("ARO %(aro)s, score %(score)s/%(games)s, dp %(dp)s")
NO_POINT = gettext_noop("no point: lowest rating - 800")
SCORE_OF_GAMES = gettext_noop("score %(score)s/%(games)s")
OPPONENT_HAS_NO = gettext_noop("opponent %(opponent)s has no %(tiebreak)s")
ROUNDS_WITH_A_WIN = ngettext_lazy(
    "%(count)s round with the points of a win", "%(count)s rounds with the points of a win"
)
GAMES_WON = ngettext_lazy(
    "%(count)s game won over the board", "%(count)s games won over the board"
)
GAMES_WITH_BLACK = ngettext_lazy(
    "%(count)s game played with Black", "%(count)s games played with Black"
)
GAMES_WON_WITH_BLACK = ngettext_lazy(
    "%(count)s game won with Black", "%(count)s games won with Black"
)
ROUNDS_ELECTED = ngettext_lazy(
    "%(count)s round one elected to play", "%(count)s rounds one elected to play"
)
KINDS = {
    Kind.PLAYED: gettext_noop("played"),
    Kind.FORFEIT_WIN: gettext_noop("forfeit win"),
    Kind.FORFEIT_LOSS: gettext_noop("forfeit loss"),
    Kind.PAB: gettext_noop("pairing-allocated bye"),
    Kind.FULL_POINT_BYE: gettext_noop("requested full-point bye"),
    Kind.HALF_POINT_BYE: gettext_noop("requested half-point bye"),
    Kind.ZERO_POINT_BYE: gettext_noop("requested zero-point bye or absence"),
}
"""Each kind of round as a note says it (the English is the value of ``Kind``)."""


def _kind(kind: Kind) -> Text:
    return Text(KINDS[kind])

Value = Fraction | int | None


class Edition(enum.Enum):
    """Which text of C.07 Art. 16 applies (the date the event started decides)."""

    C07_2026 = "2026"
    """Applied from 1 March 2026: the dummy opponent's score is capped (Art. 16.4.1, 16.4.2)."""
    C07_2024 = "2024"
    """1 August 2024 text: the dummy opponent scores as much as the participant."""


@dataclass(frozen=True)
class Rules:
    """Choices a tournament makes for its tie-breaks."""

    edition: Edition = Edition.C07_2026
    unrated_rating: int | None = None
    """The rating the tournament regulations give unrated players; None: rating-based
    tie-breaks are dropped when an unrated player takes part (C.07 Art. 10)."""
    after_round: int | None = None
    """Standings after this round; None: after the last round with any entry."""


@dataclass(frozen=True)
class Element:
    """One value that a summing or averaging tie-break is built from."""

    round: int
    value: Fraction
    opponent: int | None = None
    """The opponent whose score or rating is used; None for a dummy opponent."""
    dummy: bool = False
    """Art. 16.4: a dummy opponent stands in for an unplayed round."""
    vur: bool = False
    """From a voluntary unplayed round: cut first (Art. 16.5)."""
    basis: Fraction | None = None
    """For SB: the opponent's (or dummy's) score the product was made of (Art. 14.1.1)."""
    cut: bool = False
    note: str = ""


@dataclass(frozen=True)
class Breakdown:
    """How one value was computed, for a "how was this computed" page."""

    spec: TieBreakSpec
    value: Value
    elements: tuple[Element, ...] = ()
    notes: tuple[str, ...] = ()


def _f(tenths: int) -> Fraction:
    return Fraction(tenths, 10)


class Context:
    """A tournament prepared for tie-breaks: every round classified, scores computed once."""

    def __init__(self, tournament: Tournament, rules: Rules | None = None) -> None:
        self.tournament = tournament
        self.rules = rules or Rules()
        last = rounds_of(tournament)
        n = self.rules.after_round if self.rules.after_round is not None else last
        if n < 0 or n > last:
            raise TieBreakInputError(f"no round {n}: the tournament has {last} rounds with entries")
        self.rounds = n
        ps = tournament.point_system
        self.win = _f(ps.win)
        self.draw = _f(ps.draw)
        self.players: dict[int, Player] = {p.tpn: p for p in tournament.players}
        if len(self.players) != len(tournament.players):
            raise TieBreakInputError("two players share a pairing number")
        self.records: dict[int, tuple[RoundRecord, ...]] = {
            p.tpn: player_records(p.rounds, n, ps) for p in tournament.players
        }
        check_consistency(tournament, self.records)
        self.score: dict[int, Fraction] = {
            tpn: sum((r.points for r in recs), Fraction(0)) for tpn, recs in self.records.items()
        }
        # Art. 16.3: the score others see (requested byes at the end count as draws).
        self.adjusted: dict[int, Fraction] = {
            tpn: sum((self.draw if r.end_vur else r.points for r in recs), Fraction(0))
            for tpn, recs in self.records.items()
        }
        self._cache: dict[tuple[str, TieBreakSpec, int], Breakdown] = {}
        self._fore: Context | None = None

    # -- ratings -------------------------------------------------------------------------
    @property
    def has_unrated(self) -> bool:
        return any(not p.rating for p in self.players.values())

    def rating(self, tpn: int) -> int | None:
        r = self.players[tpn].rating
        return r if r else self.rules.unrated_rating

    # -- Art. 16.4 dummy opponent ----------------------------------------------------------
    def dummy_score(self, tpn: int, rec: RoundRecord) -> tuple[Fraction, Text]:
        """The score of the dummy opponent for an unplayed round of ``tpn``, with a note."""
        own = self.score[tpn]
        if self.rules.edition is Edition.C07_2024:
            return own, Text(DUMMY_OWN_2024)
        if rec.kind.is_forfeit and rec.opponent is not None:
            cap = self.adjusted[rec.opponent]
            note = Text(DUMMY_FORFEIT, own=own, opponent=rec.opponent, cap=cap)
        else:
            cap = self.draw * self.rounds
            note = Text(DUMMY_DRAWS, own=own, rounds=self.rounds, cap=cap)
        return min(own, cap), note

    def _as_game(self, rec: RoundRecord, played: bool) -> bool:
        """Whether the round counts as a game against its opponent (``/P`` adds forfeits)."""
        return rec.played or (played and rec.kind.is_forfeit and rec.opponent is not None)

    def opponent_elements(self, tpn: int, spec: TieBreakSpec, *, product: bool) -> list[Element]:
        """Buchholz (or, with ``product``, Sonneborn-Berger) elements, one per round."""
        out = []
        for rec in self.records[tpn]:
            if self._as_game(rec, spec.played):
                basis = self.adjusted[cast(int, rec.opponent)]  # a game: an opponent
                out.append(
                    Element(
                        rec.round,
                        basis * rec.points if product else basis,
                        opponent=rec.opponent,
                        basis=basis,
                        note=_kind(rec.kind) if not rec.played else "",
                    )
                )
            else:
                basis, note = self.dummy_score(tpn, rec)
                vur = rec.vur and not (spec.played and rec.kind.is_forfeit)
                out.append(
                    Element(
                        rec.round,
                        basis * rec.points if product else basis,
                        opponent=None,
                        dummy=True,
                        vur=vur,
                        basis=basis,
                        note=Text(KIND_AND_NOTE, kind=_kind(rec.kind), note=note),
                    )
                )
        return out

    # -- Fore Buchholz (Art. 8.3) ----------------------------------------------------------
    def fore(self) -> Context:
        """The same tournament with every paired game of the final round drawn."""
        if self._fore is None:
            last = self.rounds
            players = []
            for p in self.tournament.players:
                entries = list(p.rounds[:last])
                if len(entries) == last and last and entries[-1].opponent is not None:
                    e = entries[-1]
                    entries[-1] = RoundEntry(e.opponent, e.color or Color.WHITE, ResultCode.DRAW)
                players.append(replace(p, rounds=tuple(entries)))
            fore_t = replace(self.tournament, players=tuple(players))
            self._fore = Context(fore_t, replace(self.rules, after_round=last))
        return self._fore


# ---------------------------------------------------------------------------------------------
# Cuts (Art. 14) with the VUR exception (Art. 16.5)


def _cut_least(elements: list[Element], n: int, *, sb: bool) -> list[Element]:
    """Mark the n least significant elements as cut, VURs first (Art. 16.5.1, reapplied 16.5.2).

    The least significant element is the lowest value (for SB: the product with the opponent of
    lowest score, Art. 14.1.1). When voluntary unplayed rounds remain, the lowest VUR element is
    cut instead, unless the ordinary candidate is worth more.
    """
    out = list(elements)
    for _ in range(n):
        live = [i for i, e in enumerate(out) if not e.cut]
        if not live:
            break
        if sb:
            low = min(cast(Fraction, out[i].basis) for i in live)  # SB sets every basis
            candidate = min((i for i in live if out[i].basis == low), key=lambda i: out[i].value)
        else:
            candidate = min(live, key=lambda i: out[i].value)
        vurs = [i for i in live if out[i].vur]
        if vurs:
            lowest_vur = min(vurs, key=lambda i: out[i].value)
            if out[lowest_vur].value >= out[candidate].value:
                candidate = lowest_vur
        out[candidate] = replace(out[candidate], cut=True)
    return out


def _cut_most(elements: list[Element], n: int) -> list[Element]:
    out = list(elements)
    for _ in range(n):
        live = [i for i, e in enumerate(out) if not e.cut]
        if not live:
            break
        top = max(live, key=lambda i: out[i].value)
        out[top] = replace(out[top], cut=True)
    return out


def _apply_modifiers(
    elements: list[Element], spec: TieBreakSpec, *, sb: bool = False
) -> list[Element]:
    if spec.cut:
        return _cut_least(elements, spec.cut, sb=sb)
    if spec.median:
        return _cut_most(_cut_least(elements, spec.median, sb=sb), spec.median)
    return elements


def _total(elements: list[Element]) -> Fraction:
    return sum((e.value for e in elements if not e.cut), Fraction(0))


# ---------------------------------------------------------------------------------------------
# The tie-breaks


def compute(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    """Return the value of ``spec`` for player ``tpn`` with how it was computed.

    Rating-based values are None when a rating they need is missing (an unrated player and no
    rating set by the tournament) or when there is no game played over the board.
    """
    key = ("v", spec, tpn)
    cached = ctx._cache.get(key)
    if cached is None:
        if tpn not in ctx.records:
            raise TieBreakInputError(f"no player with pairing number {tpn}")
        cached = _COMPUTE[spec.acronym](ctx, spec, tpn)
        ctx._cache[key] = cached
    return cached


def _count(
    ctx: Context, spec: TieBreakSpec, tpn: int, test: Callable[[RoundRecord], bool], what: Plural
) -> Breakdown:
    hits = [r for r in ctx.records[tpn] if test(r)]
    elements = tuple(Element(r.round, Fraction(1), r.opponent, note=_kind(r.kind)) for r in hits)
    return Breakdown(spec, len(hits), elements, (Text(what, len(hits), count=len(hits)),))


def _win(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 7.1: as many points as a win, with or without playing
    return _count(ctx, spec, tpn, lambda r: r.points == ctx.win, ROUNDS_WITH_A_WIN)


def _won(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 7.2
    return _count(ctx, spec, tpn, lambda r: r.won_over_the_board, GAMES_WON)


def _bpg(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 7.3
    return _count(
        ctx, spec, tpn, lambda r: r.played and r.color is Color.BLACK, GAMES_WITH_BLACK
    )


def _bwg(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 7.4
    return _count(
        ctx,
        spec,
        tpn,
        lambda r: r.won_over_the_board and r.color is Color.BLACK,
        GAMES_WON_WITH_BLACK,
    )


def _rep(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 7.6: not a forfeit loss, not a requested bye or absence
    return _count(
        ctx,
        spec,
        tpn,
        lambda r: (
            r.kind not in (Kind.FORFEIT_LOSS, Kind.FULL_POINT_BYE) and not r.kind.is_requested_bye
        ),
        ROUNDS_ELECTED,
    )


_STANDARD = {
    Kind.PAB: Fraction(1),
    Kind.FULL_POINT_BYE: Fraction(1),
    Kind.HALF_POINT_BYE: Fraction(1, 2),
    Kind.ZERO_POINT_BYE: Fraction(0),
    Kind.FORFEIT_WIN: Fraction(1),
    Kind.FORFEIT_LOSS: Fraction(0),
}


def _std(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 7.7: the score counted 1 / 1/2 / 0 whatever the point system
    elements = []
    for r in ctx.records[tpn]:
        value = cast(Fraction, r.game_score) if r.played else _STANDARD[r.kind]
        elements.append(Element(r.round, value, r.opponent, note=_kind(r.kind)))
    return Breakdown(spec, _total(elements), tuple(elements))


def _tpn(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 7.8
    return Breakdown(spec, tpn)


def _ps(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 7.5; Cut-n leaves out the running scores after rounds 1..n
    running = Fraction(0)
    elements = []
    for r in ctx.records[tpn]:
        running += r.points
        elements.append(
            Element(r.round, running, cut=r.round <= spec.cut, note=Text(SCORE_AFTER_ROUND))
        )
    return Breakdown(spec, _total(elements), tuple(elements))


def _bh(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 8.1 with Art. 16
    elements = _apply_modifiers(ctx.opponent_elements(tpn, spec, product=False), spec)
    return Breakdown(spec, _total(elements), tuple(elements))


def _fb(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 8.3: Buchholz as if the final round's paired games were draws
    fore = ctx.fore()
    elements = _apply_modifiers(fore.opponent_elements(tpn, spec, product=False), spec)
    notes = (Text(FORE_FINAL_ROUND, round=ctx.rounds),)
    return Breakdown(spec, _total(elements), tuple(elements), notes)


def _opponents_over_the_board(ctx: Context, spec: TieBreakSpec, tpn: int) -> list[RoundRecord]:
    return [r for r in ctx.records[tpn] if ctx._as_game(r, spec.played)]


def _aob(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 8.2: average of the (plain) Buchholz of the opponents
    bh = TieBreakSpec(Acronym.BH, played=spec.played)
    games = _opponents_over_the_board(ctx, spec, tpn)
    elements = tuple(
        Element(
            r.round,
            cast(Fraction, compute(ctx, bh, cast(int, r.opponent)).value),
            r.opponent,
            note=Text(OPPONENTS_BUCHHOLZ),
        )
        for r in games
    )
    if not elements:
        # An average of nothing: no value (ranked after every value), not 0.
        return Breakdown(spec, None, (), (Text(NO_GAME_AGAINST_OPPONENT),))
    return Breakdown(spec, _total(list(elements)) / len(elements), elements)


def _sb(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 9.1 with Art. 16
    elements = _apply_modifiers(ctx.opponent_elements(tpn, spec, product=True), spec, sb=True)
    return Breakdown(spec, _total(elements), tuple(elements))


def _ks(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 9.2: points against opponents with at least 50 % (+ limit, 14.5)
    # "Opponents who scored 50 %": their actual score, not the Art. 16.3 adjusted one; every
    # round with an opponent counts, forfeits included (the text is silent on forfeits: we
    # follow the FIDE TEC's reference implementation, see README.md). /P changes nothing.
    threshold = ctx.win * ctx.rounds / 2 + ctx.win / 2 * spec.limit
    elements = []
    for r in ctx.records[tpn]:
        if r.opponent is None:
            continue
        scored = ctx.score[r.opponent]
        elements.append(
            Element(
                r.round,
                r.points,
                r.opponent,
                cut=scored < threshold,
                note=Text(OPPONENT_SCORED, score=scored) if r.played
                else Text(OPPONENT_SCORED_UNPLAYED, score=scored, kind=_kind(r.kind)),
            )
        )
    note = Text(THRESHOLD, threshold=threshold)
    return Breakdown(spec, _total(elements), tuple(elements), (note,))


def _rated_games(ctx: Context, tpn: int) -> tuple[list[tuple[RoundRecord, int]], list[Text]]:
    games: list[tuple[RoundRecord, int]] = []
    missing: list[Text] = []
    for r in ctx.records[tpn]:
        if r.played:
            rating = ctx.rating(cast(int, r.opponent))
            if rating is None:
                missing.append(Text(OPPONENT_UNRATED, round=r.round, opponent=r.opponent))
            else:
                games.append((r, rating))
    return games, missing


def _aro(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 10.1: games played over the board, 0.5 rounded up
    games, missing = _rated_games(ctx, tpn)
    if missing:
        return Breakdown(spec, None, (), tuple(missing))
    elements = [
        Element(r.round, Fraction(rating), r.opponent, note=Text(RATING)) for r, rating in games
    ]
    elements = _apply_modifiers(elements, spec)
    live = [e for e in elements if not e.cut]
    if not live:
        return Breakdown(spec, None, tuple(elements), (Text(NO_GAME_OVER_THE_BOARD),))
    return Breakdown(spec, round_half_up(_total(live) / len(live)), tuple(elements))


def _tpr(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 10.2: ARO + dp(p), table 8.1a
    games, missing = _rated_games(ctx, tpn)
    if missing or not games:
        return Breakdown(spec, None, (), tuple(missing) or (Text(NO_GAME_OVER_THE_BOARD),))
    aro = round_half_up(Fraction(sum(rating for _, rating in games), len(games)))
    score = sum((cast(Fraction, r.game_score) for r, _ in games), Fraction(0))
    dp = dp_for(score, len(games))
    elements = tuple(
        Element(
            r.round, cast(Fraction, r.game_score), r.opponent, note=Text(RATING_OF, rating=rating)
        )
        for r, rating in games
    )
    note = Text(TPR_NOTE, aro=aro, score=score, games=len(games), dp=dp)
    return Breakdown(spec, aro + dp, elements, (note,))


def _ptp(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    # Art. 10.3: lowest rating whose expected score reaches the score
    games, missing = _rated_games(ctx, tpn)
    if missing or not games:
        return Breakdown(spec, None, (), tuple(missing) or (Text(NO_GAME_OVER_THE_BOARD),))
    ratings = [rating for _, rating in games]
    score = sum((cast(Fraction, r.game_score) for r, _ in games), Fraction(0))
    elements = tuple(
        Element(
            r.round, cast(Fraction, r.game_score), r.opponent, note=Text(RATING_OF, rating=rating)
        )
        for r, rating in games
    )
    if score == 0:
        return Breakdown(spec, min(ratings) - 800, elements, (Text(NO_POINT),))
    # Only a zero score needs a rule of its own (every rating would do). A full score is
    # reached first where every difference exceeds 735 (table 8.1b): highest rating + 736.
    lo, hi = min(ratings) - 800, max(ratings) + 736

    def reaches(candidate: int) -> bool:
        return sum((expected_score(candidate - rt) for rt in ratings), Fraction(0)) >= score

    while lo < hi:  # expected score grows with the rating: binary search for the lowest
        mid = (lo + hi) // 2
        if reaches(mid):
            hi = mid
        else:
            lo = mid + 1
    return Breakdown(spec, lo, elements, (Text(SCORE_OF_GAMES, score=score, games=len(games)),))


def _average_of_opponents(ctx: Context, spec: TieBreakSpec, tpn: int, base: Acronym) -> Breakdown:
    inner = TieBreakSpec(base)
    elements = []
    for r in ctx.records[tpn]:
        if not r.played:
            continue
        value = compute(ctx, inner, cast(int, r.opponent)).value
        if value is None:
            note = Text(OPPONENT_HAS_NO, opponent=r.opponent, tiebreak=base.value)
            return Breakdown(spec, None, (), (note,))
        elements.append(Element(r.round, Fraction(value), r.opponent, note=base.value))
    if not elements:
        return Breakdown(spec, None, (), (Text(NO_GAME_OVER_THE_BOARD),))
    return Breakdown(spec, round_half_up(_total(elements) / len(elements)), tuple(elements))


def _apro(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 10.4
    return _average_of_opponents(ctx, spec, tpn, Acronym.TPR)


def _appo(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 10.5
    return _average_of_opponents(ctx, spec, tpn, Acronym.PTP)


def _rtng(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:  # Art. 10.6
    return Breakdown(spec, ctx.rating(tpn))


def _de(ctx: Context, spec: TieBreakSpec, tpn: int) -> Breakdown:
    raise TieBreakInputError("DE compares tied players with each other: use the standings")


_COMPUTE: dict[Acronym, Callable[[Context, TieBreakSpec, int], Breakdown]] = {
    Acronym.DE: _de,
    Acronym.WIN: _win,
    Acronym.WON: _won,
    Acronym.BPG: _bpg,
    Acronym.BWG: _bwg,
    Acronym.PS: _ps,
    Acronym.REP: _rep,
    Acronym.STD: _std,
    Acronym.TPN: _tpn,
    Acronym.BH: _bh,
    Acronym.AOB: _aob,
    Acronym.FB: _fb,
    Acronym.SB: _sb,
    Acronym.KS: _ks,
    Acronym.ARO: _aro,
    Acronym.TPR: _tpr,
    Acronym.PTP: _ptp,
    Acronym.APRO: _apro,
    Acronym.APPO: _appo,
    Acronym.RTNG: _rtng,
}
