"""Why the Dutch engine paired a round as it did, as the web app keeps and shows it.

A round paired by the engine keeps the Dutch engine's ``RoundExplanation`` as data
(``as_dict()``, see ``tournaments.services.rounds``) with the players' ids by TPN: TPNs can be
reassigned until round 4 is paired, so the stored TPNs are read through that map, never through
today's numbers. The one stored value has three readings: ``brackets`` (a table per bracket on
the arbiter's round page), ``for_player`` (plain sentences on the public player card) and
``api_data`` (the API). Clock and Double-Swiss rounds keep the engine's lines (``text``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy, ngettext

from pairing.dutch.explanation import RoundExplanation
from pairing.model import points_number
from pairing.text import Text
from tournaments.models import Game, Player, Result, Round
from tournaments.sentences import format_points, say, translator


def text(rnd: Round) -> str:
    """The round's explanation as text, in the active language when the engine's lines were kept
    as data (Clock, Double-Swiss), else as the engine wrote it (the Dutch ``-l`` text)."""
    data = rnd.explanation_data
    if not data or "lines" not in data:
        return rnd.explanation
    try:
        return "\n".join(say(Text.from_data(line)) for line in data["lines"])
    except (KeyError, TypeError, ValueError):
        return rnd.explanation


# ---------------------------------------------------------------------------------------------
# Reading the stored value


def _player_n(tpn: int) -> str:
    return gettext("player %(tpn)s") % {"tpn": tpn}


class _Named(int):
    """A TPN that prints as the player's name, so that the engine's own sentences name people."""

    label: str

    def __new__(cls, tpn: int, label: str) -> _Named:
        value = super().__new__(cls, tpn)
        value.label = label
        return value

    def __str__(self) -> str:
        return self.label

    def __format__(self, spec: str) -> str:
        return format(self.label, spec)


def with_names(data: dict, name: Callable[[int], str]) -> dict:
    """The as_dict() value with every TPN replaced by a ``_Named`` one."""

    def n(tpn):
        return None if tpn is None else _Named(tpn, name(tpn))

    def ns(tpns: Iterable[int]) -> list:
        return [n(t) for t in tpns]

    brackets = []
    for b in data["brackets"]:
        brackets.append({
            **b,
            "residents": ns(b["residents"]),
            "mdps": [(n(t), s) for t, s in b["mdps"]],
            "s1": ns(b["s1"]), "s2": ns(b["s2"]), "limbo": ns(b["limbo"]),
            "remainder_s1": ns(b["remainder_s1"]), "remainder_s2": ns(b["remainder_s2"]),
            "choices": [
                {"tpn": n(c["tpn"]), "opponent": n(c["opponent"]),
                 "passed_over": [(n(t), why) for t, why in c["passed_over"]]}
                for c in b["choices"]
            ],
            "downfloats": [{**d, "tpn": n(d["tpn"])} for d in b["downfloats"]],
        })
    unmet = [{**u, "tpns": ns(u["tpns"])} for u in data["unmet"]]
    return {**data, "brackets": brackets, "bye": n(data["bye"]), "unmet": unmet}


@dataclass(frozen=True)
class Stored:
    """A round's stored explanation and the players it speaks of (by TPN at pairing time)."""

    explanation: RoundExplanation
    """With TPNs that print as names."""
    players: dict[int, Player]

    def name(self, tpn: int) -> str:
        player = self.players.get(tpn)
        return (player.name.strip() if player is not None else "") or _player_n(tpn)

    def score(self, tpn: int) -> str:
        score = self.explanation.scores.get(tpn)
        return "" if score is None else format_points(score)

    def engine_opponent(self, tpn: int) -> int | None | str:
        """The TPN the engine paired ``tpn`` with, ``"bye"`` for the PAB, None if not paired."""
        if self.explanation.bye == tpn:
            return "bye"
        for b in self.explanation.brackets:
            for c in b.choices:
                if c.tpn == tpn:
                    return int(c.opponent)
                if c.opponent == tpn:
                    return int(c.tpn)
        return None


def stored(rnd: Round, players: dict[int, Player] | None = None) -> Stored | None:
    """The explanation stored with a round, or None (another system, or an older round).

    ``players``: the tournament's players by id, when the caller has them already.
    """
    data = rnd.explanation_data
    if not data or "players" not in data:
        return None
    if players is None:
        players = {p.pk: p for p in Player.objects.filter(tournament_id=rnd.tournament_id)}
    by_tpn = {
        int(tpn): players[pk] for tpn, pk in data["players"].items() if pk in players
    }

    def name(tpn: int) -> str:
        return by_tpn[tpn].name if tpn in by_tpn else _player_n(tpn)

    try:
        explanation = RoundExplanation.from_dict(with_names(data, name))
    except (KeyError, TypeError, ValueError):
        return None  # written by an older engine: the text explanation still stands
    return Stored(explanation, by_tpn)


# ---------------------------------------------------------------------------------------------
# The arbiter's table


@dataclass(frozen=True)
class Person:
    name: str
    tpn: int
    score: str
    tenths: int | None = None

    @property
    def unit(self) -> str:
        """``pt`` or ``pts`` after the score, as the language says it: English "1 pt",
        "1½ pts"; French "1,5 pt", "2 pts" (the plural from 2 on)."""
        if self.tenths is None:
            return ""
        # the count each language's plural rule reads as this score: 1 for exactly one point,
        # 0 below two (plural in English, singular in French), 2 from two points on
        n = 1 if self.tenths == 10 else 0 if self.tenths < 20 else 2
        return ngettext("pt", "pts", n)


@dataclass(frozen=True)
class PairRow:
    player: Person
    opponent: Person
    passed_over: list[tuple[list[Person], str]]


@dataclass(frozen=True)
class BracketView:
    score: str
    facts: list[tuple[str, list[Person]]]
    exchanges: int
    pairs: list[PairRow]
    downfloaters: list[tuple[Person, str]]
    repaired_as_ppb: bool


def brackets(s: Stored) -> list[BracketView]:
    """The explanation bracket by bracket, every player with name, TPN and score."""

    def person(tpn: int) -> Person:
        return Person(s.name(tpn), int(tpn), s.score(tpn), s.explanation.scores.get(tpn))

    def people(tpns: Iterable[int]) -> list[Person]:
        return [person(t) for t in tpns]

    views = []
    for b in s.explanation.brackets:
        facts = [
            (gettext("Moved down (MDPs)"), people(t for t, _ in b.mdps)),
            (gettext("Residents"), people(b.residents)),
            ("S1", people(b.s1)),
            ("S2", people(b.s2)),
            (gettext("Limbo"), people(b.limbo)),
            (gettext("Remainder S1"), people(b.remainder_s1)),
            (gettext("Remainder S2"), people(b.remainder_s2)),
        ]
        pairs = []
        for c in b.choices:
            groups: dict[str, list[Person]] = {}
            for tpn, why in c.passed_over:
                groups.setdefault(say(why), []).append(person(tpn))
            pairs.append(PairRow(
                person(c.tpn), person(c.opponent), [(p, why) for why, p in groups.items()]
            ))
        views.append(BracketView(
            score=format_points(b.score),
            facts=[(label, group) for label, group in facts if group],
            exchanges=b.exchanges,
            pairs=pairs,
            downfloaters=[(person(d.tpn), say(d.reason)) for d in b.downfloats],
            repaired_as_ppb=b.repaired_as_ppb,
        ))
    return views


def unmet(s: Stored) -> list[tuple[str, str, list[str]]]:
    """The quality criteria not fully met: criterion, what, the players' names."""
    return [(u.criterion, say(u.what), [str(t) for t in u.tpns]) for u in s.explanation.unmet]


# ---------------------------------------------------------------------------------------------
# The player's sentences


BY_HAND = gettext_lazy(
    "The arbiters changed this pairing by hand after the engine had paired the round, so the "
    "engine's reasons do not apply to it."
)


def for_player(
    rnd: Round, player: Player, s: Stored | None = None, game: Game | None = None
) -> list[str]:
    """Why ``player`` got their opponent (or the PAB) in ``rnd``, in plain sentences.

    Empty when there is nothing to explain: another pairing system, or a round the player did
    not play (a requested bye, an absence). ``s`` and ``game`` (the player's row of the round)
    save the queries when the caller has them.
    """
    s = s if s is not None else stored(rnd)
    if s is None:
        return []
    tpn = next((t for t, p in s.players.items() if p.pk == player.pk), None)
    if tpn is None:
        return []
    if game is None:
        game = Game.objects.filter(Q(white=player) | Q(black=player), round=rnd).first()
    if game is None or (game.is_bye and game.result != Result.PAIRING_BYE):
        return []
    wanted = s.engine_opponent(tpn)
    if game.is_bye:
        got: int | str | None = "bye"
    else:
        opponent_id = game.black_id if game.white_id == player.pk else game.white_id
        got = next((t for t, p in s.players.items() if p.pk == opponent_id), None)
    if wanted != got:
        return [str(BY_HAND)]
    return s.explanation.for_player(tpn, translator())


NOT_PAIRED = {
    Result.HALF_BYE: gettext_lazy(
        "You were not paired in this round: you had asked for a half-point bye (C.04.2 "
        "Art. 3.3)."
    ),
    Result.FULL_BYE: gettext_lazy(
        "You were not paired in this round: you had asked for a full-point bye (C.04.2 "
        "Art. 3.3)."
    ),
    Result.ZERO_BYE: gettext_lazy(
        "You were not paired in this round: you had asked for a zero-point bye (C.04.2 "
        "Art. 3.3)."
    ),
    Result.ABSENT: gettext_lazy(
        "You were not paired in this round: you were known not to play it (C.04.2 Art. 3.3)."
    ),
}
"""What a round without a board says to a player who asked not to be paired in it."""
LATE_ENTRY = gettext_lazy(
    "You were not paired in this round: you joined the tournament in round %(round)s "
    "(C.04.2 Art. 2.4)."
)


def not_paired(game: Game, player: Player) -> list[str]:
    """Why the player has no board in the round of ``game`` (their bye row), whatever the
    pairing system: a requested bye or absence, or a round before their late entry; empty for
    the pairing-allocated bye, which the engine explains."""
    if not game.is_bye or game.result == Result.PAIRING_BYE:
        return []
    if game.round.number < player.arrival_round:
        return [LATE_ENTRY % {"round": player.arrival_round}]
    sentence = NOT_PAIRED.get(game.result)
    return [str(sentence)] if sentence else []


def player_rounds(hist, player: Player) -> list[dict]:
    """What each public round says to the player, newest first, for the player card.

    ``hist``: ``queries.history`` of the tournament, whose games carry their rounds and whose
    players are loaded already: no further query."""
    out = []
    for number, cell, _total in reversed(hist.running(player.pk)):
        game = getattr(cell, "game", None)
        if game is None:
            continue
        s = stored(game.round, hist.players)
        sentences = not_paired(game, player) or (
            for_player(game.round, player, s, game) if s is not None else []
        )
        if sentences:
            out.append({"round": number, "sentences": sentences})
    return out


# ---------------------------------------------------------------------------------------------
# The API


def api_data(rnd: Round) -> dict:
    """The round's explanation for the API (``tournaments.api.explain``): scores in points,
    players by their TPN at pairing time, with their ids and names; None for ``explanation``
    when only the engine's text exists (Clock, Double-Swiss, rounds paired before it was kept).
    """
    data = rnd.explanation_data
    out = {"round": rnd.number, "text": rnd.explanation.splitlines(), "explanation": None,
           "players": []}
    if not data or "players" not in data:
        return out

    names = dict(
        Player.objects.filter(pk__in=data["players"].values()).values_list("pk", "name")
    )
    scores = data.get("scores", {})
    out["players"] = [
        {"tpn": int(tpn), "id": pk, "name": names.get(pk, ""),
         "score": points_number(scores[tpn]) if tpn in scores else None}
        for tpn, pk in sorted(data["players"].items(), key=lambda item: int(item[0]))
    ]
    out["explanation"] = {
        "note": data["note"],
        "brackets": [
            {
                "score": points_number(b["score"]),
                "residents": b["residents"],
                "mdps": [{"tpn": t, "score": points_number(sc)} for t, sc in b["mdps"]],
                "s1": b["s1"], "s2": b["s2"], "limbo": b["limbo"],
                "remainder_s1": b["remainder_s1"], "remainder_s2": b["remainder_s2"],
                "exchanges": b["exchanges"],
                "pairs": [
                    {"tpn": c["tpn"], "opponent": c["opponent"],
                     "passed_over": [{"tpn": t, "why": why} for t, why in c["passed_over"]]}
                    for c in b["choices"]
                ],
                "downfloaters": [
                    {"tpn": d["tpn"], "score": points_number(d["score"]), "reason": d["reason"]}
                    for d in b["downfloats"]
                ],
                "repaired_as_ppb": b["repaired_as_ppb"],
            }
            for b in data["brackets"]
        ],
        "bye": data["bye"],
        "bye_reason": data["bye_reason"],
        "unmet": data["unmet"],
    }
    return out


# ---------------------------------------------------------------------------------------------
# The arbiter's round page


@dataclass(frozen=True)
class ArbiterView:
    """What the arbiter's round page shows of a stored explanation."""

    note: str
    brackets: list[BracketView]
    bye: Person | None
    bye_reason: str
    unmet: list[tuple[str, str, list[str]]]
    changed_by_hand: bool
    """The boards differ from the engine's pairing (a manual change or swap)."""


def view_of(s: Stored, changed_by_hand: bool = False) -> ArbiterView:
    """The arbiter's reading of an explanation (also the checker's)."""
    e = s.explanation
    bye = None if e.bye is None else Person(
        s.name(e.bye), int(e.bye), s.score(e.bye), e.scores.get(e.bye)
    )
    return ArbiterView(
        note=say(e.note), brackets=brackets(s), bye=bye, bye_reason=say(e.bye_reason),
        unmet=unmet(s),
        changed_by_hand=changed_by_hand,
    )


def arbiter_view(rnd: Round, games: Iterable[Game]) -> ArbiterView | None:
    """The explanation of ``rnd`` for its arbiters, or None (another system or an older round).
    ``games``: the round's rows, as the page has them."""
    s = stored(rnd)
    if s is None:
        return None
    e = s.explanation
    pk = {tpn: p.pk for tpn, p in s.players.items()}
    engine = {frozenset((pk.get(c.tpn), pk.get(c.opponent))) for b in e.brackets for c in b.choices}
    engine_bye = pk.get(e.bye) if e.bye is not None else None
    games = list(games)
    actual = {frozenset((g.white_id, g.black_id)) for g in games if not g.is_bye}
    actual_bye = next((g.white_id for g in games if g.result == Result.PAIRING_BYE), None)
    return view_of(s, changed_by_hand=engine != actual or engine_bye != actual_bye)
