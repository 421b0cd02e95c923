"""Every change of a tournament's state goes through a function of this module.

Each function checks the rules, changes the database inside a transaction, writes an
``AuditEntry`` (who, what, before, after, article) and raises ``ServiceError`` with a sentence an
arbiter can read when the change is not allowed. Views only call these functions.
"""

from __future__ import annotations

import csv
import datetime
import io
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _, gettext_noop, ngettext

from pairing.clock.trf import CLOCK_TOURNAMENT_TYPE, is_clock_trf, mark_as_clock
from pairing.double_swiss.model import DOUBLE_SWISS_CODE
from pairing.model import (
    Color,
    Player as EnginePlayer,
    ResultCode,
    RoundEntry,
    RoundPairing,
    Tournament as EngineTournament,
)
from tournaments import double_swiss, versioning
from tournaments.models import (
    GAME_RESULTS,
    MAX_PLAYERS,
    RESULT_OF_CODES,
    AuditEntry,
    ByeRequest,
    Game,
    Player,
    Result,
    Round,
    Tournament,
    page_value,
)


class ServiceError(Exception):
    """A change that the rules or the tournament's state do not allow; the message says why.

    ``details`` lists every problem found when there are several (the rows of an upload).
    The message is in the language of the request that raised it (``gettext`` at raise time).
    """

    def __init__(self, message: str, details: list[str] | tuple[str, ...] = ()):
        super().__init__(str(message))
        self.details = tuple(str(detail) for detail in details)


class Said(str):
    """A sentence in the request's language that keeps its English (``english``): what is
    shown now, and what the audit trail stores (``tournaments.audit`` translates it when shown).

    ``Said(gettext_noop("... %(name)s ..."), name=value)``: a value may be ``Said`` itself.
    """

    english: str

    def __new__(cls, template: str, **params):
        shown = _(template) % params if params else _(template)
        said = super().__new__(cls, shown)
        said.english = (
            template % {key: english(value) for key, value in params.items()}
            if params else template
        )
        return said

    @classmethod
    def shown_as(cls, shown: str, in_english: str) -> Said:
        """A sentence said elsewhere (the engine's, through ``tournaments.explain``)."""
        said = super().__new__(cls, shown)
        said.english = in_english
        return said


def english(text):
    """The English of a ``Said`` sentence; any other value as it is."""
    return getattr(text, "english", text)


def engine_said(error: Exception) -> str:
    """The engine's reason (a ``PairingError``: a TRF file, a tie-break list, a pairing) in the
    request's language where the engine wrote it as a ``pairing.text.Text``, else as written."""
    from tournaments import explain

    return explain.error_said(error) or str(error)


def in_english(text) -> str:
    """Return a marked text (lazy, or a ``gettext_noop`` constant) in English: what the
    audit trail stores, whatever the language of the request (it is translated when shown)."""
    with translation.override("en"):
        return str(text)


MAX_LISTED_ERRORS = 50
"""An upload with more errors than this lists the first ones and counts the rest."""


def _refuse_rows(what: str, errors: list[str]) -> None:
    if not errors:
        return
    listed = errors[:MAX_LISTED_ERRORS]
    if len(errors) > len(listed):
        listed.append(_("... and %(count)s more.") % {"count": len(errors) - len(listed)})
    raise ServiceError(
        ngettext(
            "%(what)s: %(count)s error(s), nothing was saved. Correct the file and upload it "
            "again.",
            "%(what)s: %(count)s error(s), nothing was saved. Correct the file and upload it "
            "again.",
            len(errors),
        ) % {"what": what, "count": len(errors)},
        listed,
    )


# ---------------------------------------------------------------------------------------------
# Audit


def _audit(
    tournament: Tournament,
    actor,
    action: str,
    *,
    round_number: int | None = None,
    player: Player | None = None,
    article: str = "",
    reason: str = "",
    before=None,
    after=None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=_actor(actor),
        action=action,
        round_number=round_number,
        player=player,
        article=article,
        reason=reason,
        before=before,
        after=after,
    )


def _actor(actor):
    return actor if actor is not None and actor.is_authenticated else None


def _player_data(player: Player) -> dict:
    return {
        "name": player.name,
        "tpn": player.tpn,
        "rating": player.rating,
        "title": player.title,
        "federation": player.federation,
        "fide_id": player.fide_id,
        "arrival_round": player.arrival_round,
        "withdrawn_from_round": player.withdrawn_from_round,
    }


def _locked(tournament: Tournament) -> Tournament:
    """Return the tournament row locked until the end of the transaction."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _current_player(t: Tournament, player: Player) -> Player:
    """Return the player as stored now (call with the tournament locked)."""
    current = Player.objects.filter(pk=player.pk, tournament=t).first()
    if current is None:
        raise ServiceError(
            _("%(name)s was removed meanwhile: nothing was done.") % {"name": player.name}
        )
    return current


def changes_from_page(
    instance: models.Model, fields: dict, loaded: dict[str, str] | None, what: str
) -> dict:
    """Return the fields a page changed, or refuse: one of them changed since it was loaded.

    ``loaded`` holds ``page_value`` of each field as the page showed it (None: the caller does
    not say, every field counts as changed). A field the page left as it was is not written, so
    a change made meanwhile by someone else survives; a field changed both on the page and in
    the database since is a conflict, and nothing is saved.
    """
    if loaded is None:
        return dict(fields)
    changed, stale = {}, []
    for key, value in fields.items():
        was = loaded.get(key)
        if was is not None and page_value(value) == was:
            continue
        now = page_value(getattr(instance, key))
        if was is None or now == was:
            changed[key] = value
        elif now != page_value(value):
            label = instance._meta.get_field(key).verbose_name
            empty = _("(empty)")
            stale.append(
                _("%(field)s is now %(now)r, your page showed %(was)r")
                % {"field": label, "now": now or empty, "was": was or empty}
            )
    if stale:
        raise ServiceError(
            _(
                "%(what)s was changed meanwhile by someone else (%(fields)s): nothing was "
                "saved. Reload the page and make your change again."
            ) % {"what": what, "fields": "; ".join(stale)}
        )
    return changed


# ---------------------------------------------------------------------------------------------
# Tournament and players


PLAYER_FIELDS = ("name", "fide_id", "title", "rating", "federation", "sex", "birth_year")


def _invalid(instance: models.Model, error: ValidationError) -> ServiceError:
    """Return a ServiceError naming each field a model validation refused."""
    parts = []
    for key, messages in error.message_dict.items():
        text = " ".join(messages)
        if key == NON_FIELD_ERRORS:
            parts.append(text)
        else:
            label = str(instance._meta.get_field(key).verbose_name).capitalize()
            parts.append(labelled(label, text))
    return ServiceError("; ".join(parts))


def create_tournament(actor, **fields) -> Tournament:
    """Create a tournament with ``actor`` as its first arbiter."""
    tournament = Tournament(**fields)
    double_swiss.set_match_bye_values(tournament)
    try:
        tournament.full_clean(exclude=["arbiters"])
    except ValidationError as error:
        raise _invalid(tournament, error) from error
    tiebreak_specs(tournament)
    with transaction.atomic():
        tournament.save()
        if actor is not None:
            tournament.arbiters.add(actor)
        _audit(tournament, actor, "create tournament", after={"name": tournament.name})
    return tournament


def update_tournament(
    tournament: Tournament, actor, *, loaded: dict[str, str] | None = None, **fields
) -> Tournament:
    """Change a tournament's settings; the pairing system is fixed once round 1 is paired.

    ``loaded``: the settings as the page showed them (see ``changes_from_page``).
    """
    with transaction.atomic():
        t = _locked(tournament)
        fields = changes_from_page(t, fields, loaded, _("The settings"))
        before = {key: getattr(t, key) for key in fields}
        last = t.last_round()
        if last is not None:
            if fields.get("pairing_system", t.pairing_system) != t.pairing_system:
                raise ServiceError(_("Round 1 has been paired: the pairing system is fixed."))
            if fields.get("baku_acceleration", t.baku_acceleration) != t.baku_acceleration:
                raise ServiceError(_(
                    "Round 1 has been paired: Baku acceleration (C.04.7) can no longer be changed."
                ))
            if fields.get("rounds", t.rounds) < last.number:
                raise ServiceError(
                    _("Round %(number)s has already been paired.") % {"number": last.number}
                )
        for key, value in fields.items():
            setattr(t, key, value)
        if "pairing_system" in fields:
            double_swiss.set_match_bye_values(t)
        try:
            t.full_clean(exclude=["arbiters"])
        except ValidationError as error:
            raise _invalid(t, error) from error
        tiebreak_specs(t)
        t.save()
        changed = {k: v for k, v in fields.items() if before[k] != v}
        if changed:
            _audit(
                t, actor, "update tournament",
                article="C.04.7" if "baku_acceleration" in changed else "",
                before={k: str(before[k]) for k in changed},
                after={k: str(v) for k, v in changed.items()},
            )
    tournament.refresh_from_db()
    return t


def add_arbiter(tournament: Tournament, actor, user) -> None:
    with transaction.atomic():
        t = _locked(tournament)
        t.arbiters.add(user)
        _audit(t, actor, "add arbiter", after=user.get_username())


SEX_ALIASES = {"m": "m", "w": "w", "f": "w"}


def _player_errors(fields: dict) -> tuple[dict, dict[str, list[str]]]:
    """Normalise a player's fields and check them against the model (lengths, ranges, no
    control characters, ASCII digits); return the data and the errors by field."""
    unknown = set(fields) - set(PLAYER_FIELDS)
    if unknown:
        raise ServiceError(
            _("Unknown player field(s): %(fields)s.") % {"fields": ", ".join(sorted(unknown))}
        )
    data = {key: value for key, value in fields.items() if value is not None}
    for key in ("name", "fide_id", "title", "federation", "sex"):
        if key in data:
            data[key] = str(data[key]).strip()
    for key in ("title", "federation"):
        data[key] = data.get(key, "").upper()
    if "sex" in data:
        # TRF writes m/w; lists from elsewhere often say M/F.
        data["sex"] = SEX_ALIASES.get(data["sex"].lower(), data["sex"])
    if not data.get("name"):
        return data, {"name": [_("A player needs a name.")]}
    errors: dict[str, list[str]] = {}
    try:
        Player(**data).full_clean(
            exclude=["tournament", "tpn"], validate_unique=False, validate_constraints=False
        )
    except ValidationError as error:
        errors = error.message_dict
    return data, errors


def _field_label(key: str) -> str:
    return str(Player._meta.get_field(key).verbose_name)


def labelled(label, text) -> str:
    """Return ``label: text`` as the language writes it (French puts a space before the colon)."""
    return _("%(label)s: %(text)s") % {"label": label, "text": text}


def _clean_player_fields(fields: dict) -> dict:
    data, errors = _player_errors(fields)
    if errors:
        name = data.get("name") or _("The player")
        problems = "; ".join(labelled(_field_label(k), " ".join(v)) for k, v in errors.items())
        raise ServiceError(labelled(name, problems))
    return data


def _number_players(t: Tournament, new: list[Player] = ()) -> None:
    """Insert the ``new`` players and give every player of ``t`` its TPN in the initial order
    of C.04.2 Art. 2.2 (rating, title, name; ties in registration order), in one pass."""
    existing = list(t.players.all())
    if len(existing) + len(new) > MAX_PLAYERS:
        raise ServiceError(
            _("A tournament has at most %(count)s players.") % {"count": MAX_PLAYERS}
        )

    def key(player: Player) -> tuple:
        return (*player.initial_order_key()[:3], player.pk is None, player.pk or 0)

    order = sorted([*existing, *new], key=key)
    moved = [p for tpn, p in enumerate(order, start=1) if p.pk is not None and p.tpn != tpn]
    # Two steps so that no intermediate state breaks the unique (tournament, tpn) constraint.
    for player in moved:
        player.tpn += MAX_PLAYERS + 1
    Player.objects.bulk_update(moved, ["tpn"], batch_size=500)
    for tpn, player in enumerate(order, start=1):
        player.tpn = tpn
    Player.objects.bulk_update(moved, ["tpn"], batch_size=500)
    Player.objects.bulk_create([p for p in order if p.pk is None], batch_size=500)
    versioning.bump(t.pk)  # bulk writes send no signal


def _renumber(tournament: Tournament) -> None:
    """Give TPNs in the initial order of C.04.2 Art. 2.2 (rating, title, name)."""
    _number_players(tournament)


def _next_tpn(tournament: Tournament) -> int:
    last = tournament.players.order_by("-tpn").values_list("tpn", flat=True).first()
    return (last or 0) + 1


def add_player(tournament: Tournament, actor, **fields) -> Player:
    """Register a player before round 1 is paired; TPNs follow the initial order (Art. 2.2)."""
    return register_players(tournament, actor, [_clean_player_fields(fields)])[0]


def register_players(tournament: Tournament, actor, rows: list[dict]) -> list[Player]:
    """Register players (``_clean_player_fields`` data) before round 1 is paired, in one pass:
    insert them all and number everyone once in the initial order (Art. 2.2)."""
    with transaction.atomic():
        t = _locked(tournament)
        if t.round_set.exists():
            raise ServiceError(_(
                "Round 1 has been paired: admit the player as a late entry (C.04.2 Art. 2.4)."
            ))
        players = [Player(tournament=t, tpn=0, **data) for data in rows]
        _number_players(t, players)
        AuditEntry.objects.bulk_create(
            [
                AuditEntry(
                    tournament=t, actor=_actor(actor), action="add player", player=player,
                    article="C.04.2 2.2", after=_player_data(player),
                )
                for player in players
            ],
            batch_size=500,
        )
    return players


RATING_NEEDS_A_CORRECTION = gettext_noop(
    "Round 4 has been paired: a rating is changed only by a correction with its reason "
    "(Correct the rating, C.04.2 Art. 4.3.3)."
)


def update_player(
    player: Player, actor, *, loaded: dict[str, str] | None = None, **fields
) -> Player:
    """Correct a player's data; TPNs follow while they are not frozen (C.04.2 Art. 2.3).

    Once round 4 is paired (TPNs frozen) the rating is refused here: it changes only through
    ``corrections.correct_rating``, which asks for the reason (Art. 4.3.3).

    ``loaded``: the player's data as the page showed them (see ``changes_from_page``).
    """
    with transaction.atomic():
        t = _locked(player.tournament)
        player = _current_player(t, player)
        fields = changes_from_page(
            player, fields, loaded, _("%(name)s's data") % {"name": player.name}
        )
        if "rating" in fields and fields["rating"] != player.rating and t.tpns_frozen():
            raise ServiceError(_(RATING_NEEDS_A_CORRECTION))
        data = _clean_player_fields({**{f: getattr(player, f) for f in PLAYER_FIELDS}, **fields})
        before = _player_data(player)
        for key, value in data.items():
            setattr(player, key, value)
        player.save()
        if not t.tpns_frozen():
            _renumber(t)
            player.refresh_from_db()
        _audit(
            t, actor, "update player", player=player, article="C.04.2 2.3",
            before=before, after=_player_data(player),
        )
    return player


def remove_player(player: Player, actor) -> None:
    """Delete a registration before round 1 is paired."""
    with transaction.atomic():
        t = _locked(player.tournament)
        if t.round_set.exists():
            raise ServiceError(_("Round 1 has been paired: withdraw the player instead."))
        player = _current_player(t, player)
        before = _player_data(player)
        player.delete()
        _renumber(t)
        _audit(t, actor, "remove player", before=before)


def renumber_players(tournament: Tournament, actor) -> None:
    """Reassign every TPN by the initial order; refused once round 4 is paired (Art. 2.3)."""
    with transaction.atomic():
        t = _locked(tournament)
        if t.tpns_frozen():
            raise ServiceError(
                _("Round 4 has been paired: TPNs can no longer change (C.04.2 Art. 2.3).")
            )
        before = {p.pk: p.tpn for p in t.players.all()}
        _renumber(t)
        after = {p.pk: p.tpn for p in t.players.all()}
        _audit(t, actor, "renumber players", article="C.04.2 2.3", before=before, after=after)


def draw_initial_color(tournament: Tournament, actor, rng: random.Random | None = None) -> str:
    """Draw by lot the colour of TPN 1 in round 1 (C.04.3 Art. 5.1) and record it."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        t = _locked(tournament)
        if t.round_set.exists():
            raise ServiceError(_("Round 1 has been paired: the initial colour is final."))
        before = t.initial_color
        t.initial_color = rng.choice([Tournament.InitialColor.WHITE, Tournament.InitialColor.BLACK])
        t.initial_color_drawn_at = timezone.now()
        t.save(update_fields=["initial_color", "initial_color_drawn_at", "updated_at"])
        _audit(
            t, actor, "draw initial colour", article="C.04.3 5.1",
            before=before, after=t.initial_color,
        )
    tournament.refresh_from_db()
    return t.initial_color


def _next_round_number(t: Tournament) -> int:
    last = t.last_round()
    return 1 if last is None else last.number + 1


def admit_late_entry(
    tournament: Tournament, actor, *, arrival_round: int, into_paired_round: bool = False,
    **fields,
) -> Player:
    """Admit a player from ``arrival_round`` on (C.04.2 Art. 2.4, 2.5).

    Unplayed earlier rounds score nothing. While round 4 is not paired the TPNs are reassigned
    by the initial order; afterwards the late entry gets the next free TPN. With
    ``into_paired_round`` the player may arrive in the round already paired and not finished:
    a draft is then re-paired, a published pairing changed by hand (Art. 4.4.4).
    """
    data = _clean_player_fields(fields)
    with transaction.atomic():
        t = _locked(tournament)
        next_round = _next_round_number(t)
        last = t.last_round()
        if (
            into_paired_round
            and last is not None
            and arrival_round == last.number
            and last.state != Round.State.FINISHED
        ):
            next_round = last.number
        if arrival_round < next_round:
            raise ServiceError(
                _(
                    "Round %(paired)s is already paired: the player can arrive in round "
                    "%(next)s at the earliest."
                ) % {"paired": next_round - 1, "next": next_round}
            )
        if arrival_round > t.rounds:
            raise ServiceError(only_rounds(t.rounds))
        if t.is_clock and t.round_set.exists():
            raise ServiceError(_(
                "Round 1 has been paired: the Clock system seats every player on its grid "
                "before round 1 (Appendix A), so it has no late entries."
            ))
        player = Player.objects.create(
            tournament=t, tpn=_next_tpn(t), arrival_round=arrival_round, **data
        )
        if not t.tpns_frozen():
            _renumber(t)
            player.refresh_from_db()
        missed = _late_entry_half_point_byes(t, player) if t.late_entry_half_point_byes else []
        reasons = []
        if last is not None and arrival_round == last.number:
            reasons.append(ADMITTED_INTO_PAIRED_ROUND % {"number": arrival_round})
        if missed:
            reasons.append(HALF_POINT_BYES_MISSED % {"rounds": ", ".join(map(str, missed))})
        _audit(
            t, actor, "admit late entry", player=player, article="C.04.2 2.4",
            round_number=arrival_round, after=_player_data(player), reason="; ".join(reasons),
        )
    return player


# Stored in the audit trail in English, translated when shown (``tournaments.audit``).
ADMITTED_INTO_PAIRED_ROUND = gettext_noop(
    "admitted into round %(number)s, already paired: not yet on a board"
)
HALF_POINT_BYES_MISSED = gettext_noop("half-point byes for the rounds missed: %(rounds)s")


def only_rounds(rounds: int) -> str:
    return ngettext(
        "The tournament has only %(count)s round.", "The tournament has only %(count)s rounds.",
        rounds,
    ) % {"count": rounds}


def _late_entry_half_point_byes(t: Tournament, player: Player) -> list[int]:
    """Give a late entry a half-point bye in each round before arrival (the event's rules):
    a row in the rounds already paired, a request for the others (kept if a draft is paired
    again). Return the rounds."""
    rounds = {r.number: r for r in t.round_set.all()}
    missed = list(range(1, player.arrival_round))
    for number in missed:
        rnd = rounds.get(number)
        if rnd is not None:
            Game.objects.create(round=rnd, white=player, result=Result.HALF_BYE)
        if rnd is None or rnd.state == Round.State.DRAFT:
            ByeRequest.objects.create(
                player=player, round_number=number, kind=ByeRequest.Kind.HALF
            )
    return missed


def _takes_request(player: Player, round_number: int) -> bool:
    """Whether a request for that round counts: the player plays it, or has not arrived yet
    (a late entry's half-point bye for a round missed)."""
    return player.plays_in(round_number) or round_number < player.arrival_round


def withdraw_player(player: Player, actor, *, from_round: int | None = None) -> Player:
    """Stop pairing a player from ``from_round`` (default: the next round) on (C.04.2 Art. 3.2)."""
    with transaction.atomic():
        t = _locked(player.tournament)
        player = _current_player(t, player)
        next_round = _next_round_number(t)
        from_round = next_round if from_round is None else from_round
        if from_round < next_round:
            raise ServiceError(
                _(
                    "Round %(paired)s is already paired: a withdrawal takes effect from round "
                    "%(next)s at the earliest (unpair a draft round first)."
                ) % {"paired": next_round - 1, "next": next_round}
            )
        if player.withdrawn_from_round is not None and player.withdrawn_from_round < next_round:
            raise ServiceError(
                _("%(name)s withdrew before round %(number)s.")
                % {"name": player.name, "number": player.withdrawn_from_round}
            )
        before = player.withdrawn_from_round
        player.withdrawn_from_round = from_round
        player.save(update_fields=["withdrawn_from_round"])
        player.bye_requests.filter(round_number__gte=from_round).delete()
        _audit(
            t, actor, "withdraw", player=player, article="C.04.2 3.2", round_number=from_round,
            before=before, after=from_round,
        )
    return player


def reinstate_player(player: Player, actor) -> Player:
    """Cancel a withdrawal that has not yet taken effect in a paired round."""
    with transaction.atomic():
        t = _locked(player.tournament)
        player = _current_player(t, player)
        if player.withdrawn_from_round is None:
            raise ServiceError(_("%(name)s has not withdrawn.") % {"name": player.name})
        if player.withdrawn_from_round < _next_round_number(t):
            raise ServiceError(
                _("%(name)s was already left out of round %(number)s.")
                % {"name": player.name, "number": player.withdrawn_from_round}
            )
        before = player.withdrawn_from_round
        player.withdrawn_from_round = None
        player.save(update_fields=["withdrawn_from_round"])
        _audit(t, actor, "reinstate", player=player, before=before, after=None)
    return player


def request_bye(player: Player, actor, *, round_number: int, kind: str) -> ByeRequest:
    """Record a requested bye or an announced absence for a round not yet paired (Art. 3.3)."""
    if kind not in ByeRequest.Kind.values:
        raise ServiceError(_("Unknown kind of bye %(kind)r.") % {"kind": kind})
    with transaction.atomic():
        t = _locked(player.tournament)
        player = _current_player(t, player)
        next_round = _next_round_number(t)
        if round_number < next_round:
            raise ServiceError(already_paired(round_number))
        if round_number > t.rounds:
            raise ServiceError(only_rounds(t.rounds))
        if kind == ByeRequest.Kind.FULL and not t.allow_full_point_bye:
            raise ServiceError(_("This tournament does not allow full-point byes."))
        if not player.plays_in(round_number):
            raise ServiceError(not_due_to_play(player, round_number))
        request, created = ByeRequest.objects.update_or_create(
            player=player, round_number=round_number, defaults={"kind": kind}
        )
        _audit(
            t, actor, "request bye", player=player, article="C.04.2 3.3",
            round_number=round_number, after=kind,
        )
    return request


def already_paired(number: int) -> str:
    return _("Round %(number)s is already paired.") % {"number": number}


def not_due_to_play(player: Player, number: int) -> str:
    return _("%(name)s is not due to play in round %(number)s.") % {
        "name": player.name, "number": number,
    }


def cancel_bye(request: ByeRequest, actor) -> None:
    with transaction.atomic():
        t = _locked(request.player.tournament)
        if not ByeRequest.objects.filter(pk=request.pk).exists():
            raise ServiceError(_("This bye was already cancelled."))
        if request.round_number < _next_round_number(t):
            raise ServiceError(already_paired(request.round_number))
        _audit(
            t, actor, "cancel bye", player=request.player, round_number=request.round_number,
            before=request.kind,
        )
        request.delete()


# ---------------------------------------------------------------------------------------------
# The engine's view of the tournament


def _entries(game: Game, tpn_of: dict[int, int]) -> dict[int, RoundEntry]:
    """Return the round entry of each player of a row (pending games give nothing)."""
    codes = game.result_codes()
    if codes is None:
        return {}
    white_code, black_code = codes
    if game.black_id is None:
        return {game.white_id: RoundEntry(None, None, white_code)}
    if game.result == Result.NOT_PLAYED:
        return {
            game.white_id: RoundEntry(None, None, white_code),
            game.black_id: RoundEntry(None, None, black_code),
        }
    return {
        game.white_id: RoundEntry(tpn_of[game.black_id], Color.WHITE, white_code),
        game.black_id: RoundEntry(tpn_of[game.white_id], Color.BLACK, black_code),
    }


ABSENT = RoundEntry(None, None, ResultCode.ZERO_POINT_BYE)

_NOT_ON_ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(text: str) -> str:
    """Return the text with every control character or line break made a space: a TRF field
    never starts a record of its own, whatever older rows hold (the models refuse them now)."""
    return _NOT_ON_ONE_LINE.sub(" ", text)


@dataclass(frozen=True)
class EngineState:
    """The engine value plus the map between database players and TPNs."""

    tournament: EngineTournament
    player_by_tpn: dict[int, Player]
    rounds: int
    """Number of complete rounds included."""


def _complete_rounds(t: Tournament) -> list[Round]:
    """Return the rounds whose results are all known, from round 1 up to the first gap."""
    rounds = []
    for rnd in t.round_set.order_by("number").prefetch_related("games"):
        if any(not g.has_result for g in rnd.games.all()):
            break
        rounds.append(rnd)
    return rounds


def build_engine_state(t: Tournament, *, pairing_round: int | None = None) -> EngineState:
    """Return the engine's Tournament value of ``t``.

    It holds every complete round (all results known). With ``pairing_round`` = k, column k also
    holds what is known before pairing round k: requested byes, and absences of players who have
    withdrawn or not yet arrived.
    """
    players = list(t.players.order_by("tpn"))
    tpn_of = {p.pk: p.tpn for p in players}
    if [p.tpn for p in players] != list(range(1, len(players) + 1)):
        raise ServiceError(_("TPNs are not numbered 1 to N; renumber the players."))
    rounds = _complete_rounds(t)
    if pairing_round is not None:
        # Only the rounds before k: a paired round k is re-checked against its own past.
        rounds = [rnd for rnd in rounds if rnd.number < pairing_round]
    if pairing_round is not None and len(rounds) != pairing_round - 1:
        raise ServiceError(
            _("Round %(number)s has missing results.") % {"number": len(rounds) + 1}
        )
    # A Double-Swiss round is a match: two columns, one per game (pairing.double_swiss.trf).
    width = 2 if t.is_double_swiss else 1
    entries: dict[int, list[RoundEntry]] = {p.pk: [] for p in players}
    for rnd in rounds:
        by_player: dict[int, tuple[RoundEntry, ...]] = {}
        for game in rnd.games.all():
            if game.is_match:
                by_player.update(double_swiss.match_entries(game, tpn_of))
            else:
                by_player.update(
                    {pk: (e,) * width for pk, e in _entries(game, tpn_of).items()}
                )
        for p in players:
            entries[p.pk] += by_player.get(p.pk, (ABSENT,) * width)
    if pairing_round is not None:
        requests = {
            r.player_id: r.kind
            for r in ByeRequest.objects.filter(player__tournament=t, round_number=pairing_round)
        }
        for p in players:
            if p.pk in requests and _takes_request(p, pairing_round):
                entries[p.pk] += [RoundEntry(None, None, _REQUEST_CODES[requests[p.pk]])] * width
            elif not p.plays_in(pairing_round):
                entries[p.pk] += [ABSENT] * width
    engine_players = tuple(
        EnginePlayer(
            tpn=p.tpn,
            name=one_line(p.name),
            rating=p.rating,
            title=one_line(p.title),
            sex=one_line(p.sex),
            federation=one_line(p.federation),
            fide_id=one_line(p.fide_id),
            birth=str(p.birth_year) if p.birth_year else "",
            rounds=tuple(entries[p.pk]),
        )
        for p in players
    )
    value = EngineTournament(
        players=engine_players,
        total_rounds=t.rounds * width,
        initial_color=t.engine_initial_color,
        rules=t.rule_set,
        point_system=t.point_system,
        baku=t.baku_acceleration,
        tournament_type=(
            CLOCK_TOURNAMENT_TYPE if t.is_clock
            else DOUBLE_SWISS_CODE if t.is_double_swiss else ""
        ),
        name=one_line(t.name),
        other_records=(("202", ",".join(tiebreak_names(t))),) if t.tiebreaks.strip() else (),
    )
    return EngineState(value, {p.tpn: p for p in players}, len(rounds))


_REQUEST_CODES = {
    ByeRequest.Kind.HALF: ResultCode.HALF_POINT_BYE,
    ByeRequest.Kind.FULL: ResultCode.FULL_POINT_BYE,
    ByeRequest.Kind.ZERO: ResultCode.ZERO_POINT_BYE,
    ByeRequest.Kind.ABSENT: ResultCode.ZERO_POINT_BYE,
}


def engine_state(tournament: Tournament, *, pairing_round: int | None = None) -> EngineTournament:
    """Return the engine's ``Tournament`` value (see ``build_engine_state``)."""
    return build_engine_state(tournament, pairing_round=pairing_round).tournament


# ---------------------------------------------------------------------------------------------
# Rounds


def _scores(state: EngineTournament, before_round: int) -> dict[int, int]:
    """Return each TPN's score in tenths before a round (its preset column left out)."""
    if state.tournament_type == DOUBLE_SWISS_CODE:
        return double_swiss.scores(state, before_round)
    points = state.point_system
    return {
        p.tpn: sum(points.points_for(e) for e in p.rounds[: before_round - 1])
        for p in state.players
    }


def board_order(pairing: RoundPairing, score: dict[int, int]) -> list[tuple[int, int]]:
    """Sort the pairs for publication (C.04.2 Art. 3.6): score of the higher-ranked player,
    then the sum of both scores, then the TPN of the higher-ranked player."""

    def key(board) -> tuple[int, int, int]:
        higher = min((board.white, board.black), key=lambda tpn: (-score[tpn], tpn))
        return (-score[higher], -(score[board.white] + score[board.black]), higher)

    return [(b.white, b.black) for b in sorted(pairing.boards, key=key)]


def _check_pairing(pairing: RoundPairing, state: EngineTournament, k: int) -> None:
    """Check that the engine paired exactly the players due to play round k, once each."""
    columns = double_swiss.first_column(state, k)
    due = {
        p.tpn for p in state.players if len(p.rounds) < columns  # no preset entry in column k
    }
    seen: list[int] = [tpn for b in pairing.boards for tpn in (b.white, b.black)]
    if pairing.bye is not None:
        seen.append(pairing.bye)
    if len(seen) != len(set(seen)) or set(seen) != due:
        raise ServiceError(
            _(
                "The engine's pairing of round %(number)s does not cover the players due to play "
                "(paired %(paired)s, expected %(due)s); nothing was saved."
            ) % {"number": k, "paired": sorted(seen), "due": sorted(due)}
        )


def pairing_engine(t: Tournament) -> Callable[..., RoundPairing]:
    """Return the engine that pairs the tournament: ``pair_round(state, explain=...)`` of the
    Clock system or of the Dutch system (imported here so the app loads without them)."""
    if t.is_clock:
        from pairing.clock import pair_round as pair_clock_round

        return pair_clock_round
    if t.is_double_swiss:
        return double_swiss.pair_engine_state
    from pairing.dutch import pair_round

    return pair_round


def pair_next_round(tournament: Tournament, actor) -> Round:
    """Pair the next round with the engine and save it as a draft.

    The tournament row is locked, so two arbiters pairing at once get one round; the second one
    is told that the round is already paired.
    """
    from pairing.errors import PairingError
    from tournaments import explain

    with transaction.atomic():
        t = _locked(tournament)
        pair_round = pairing_engine(t)
        last = t.last_round()
        if last is not None and last.state == Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is a draft: publish or unpair it first.")
                % {"number": last.number}
            )
        if last is not None and last.state != Round.State.FINISHED:
            missing = [
                str(g.board) for g in last.games.all() if not g.has_result
            ]
            if missing:
                raise ServiceError(missing_results(last.number, missing))
            raise ServiceError(
                _("Round %(number)s is not finished: finish it first.") % {"number": last.number}
            )
        k = 1 if last is None else last.number + 1
        if k > t.rounds:
            raise ServiceError(
                _("All %(count)s rounds have been paired.") % {"count": t.rounds}
            )
        if k == 1 and not t.initial_color:
            raise ServiceError(_("Draw the initial colour by lot first (C.04.3 Art. 5.1)."))
        built = build_engine_state(t, pairing_round=k)
        state = built.tournament
        due = [p for p in state.players if len(p.rounds) < double_swiss.first_column(state, k)]
        if len(due) < 2:
            raise ServiceError(
                ngettext(
                    "Only %(count)s player(s) to pair in round %(number)s.",
                    "Only %(count)s player(s) to pair in round %(number)s.",
                    len(due),
                ) % {"count": len(due), "number": k}
            )
        try:
            pairing, data = explain.pair(t, state, pair_round, built.player_by_tpn)
        except PairingError as error:
            raise ServiceError(
                _("The engine cannot pair round %(number)s: %(error)s")
                % {"number": k, "error": engine_said(error)}
            ) from error
        _check_pairing(pairing, state, k)
        score = _scores(state, k)
        rnd = Round.objects.create(
            tournament=t, number=k, explanation="\n".join(pairing.explanation),
            explanation_data=data,
        )
        player = built.player_by_tpn
        games = [
            Game(round=rnd, board=n, white=player[w], black=player[b], is_match=t.is_double_swiss)
            for n, (w, b) in enumerate(board_order(pairing, score), start=1)
        ]
        if pairing.bye is not None:
            games.append(Game(round=rnd, white=player[pairing.bye], result=Result.PAIRING_BYE))
        for request in ByeRequest.objects.filter(player__tournament=t, round_number=k):
            if _takes_request(request.player, k):
                games.append(Game(round=rnd, white=request.player, result=request.kind))
        Game.objects.bulk_create(games)
        if t.status == Tournament.Status.REGISTRATION:
            t.status = Tournament.Status.RUNNING
            t.save(update_fields=["status", "updated_at"])
        else:
            t.save(update_fields=["updated_at"])
        _audit(
            t, actor, "pair round", round_number=k,
            article="C.04.5" if t.is_double_swiss else "C.04.3",
            after=_round_data(rnd),
        )
    return rnd


def _round_data(rnd: Round) -> list[str]:
    """The rows of a round as the audit trail stores them: in English (a bye row names its
    kind), translated when shown."""
    with translation.override("en"):
        return [str(g) for g in rnd.games.select_related("white", "black")]


def missing_results(number: int, boards: list[str]) -> str:
    return _("Round %(number)s has missing results (board %(boards)s).") % {
        "number": number, "boards": ", ".join(boards),
    }


def _locked_round(rnd: Round) -> tuple[Tournament, Round]:
    """Lock the tournament and return it with the round as stored now.

    A round that is gone was unpaired or paired again by another click or arbiter meanwhile.
    """
    t = _locked(rnd.tournament)
    current = Round.objects.filter(pk=rnd.pk).first()
    if current is None:
        raise ServiceError(round_changed_meanwhile(rnd.number))
    return t, current


def round_changed_meanwhile(number: int) -> str:
    return _(
        "Round %(number)s was changed meanwhile (unpaired or paired again, by another click or "
        "arbiter): nothing was done. Check the round as it is now."
    ) % {"number": number}


def round_in_state(rnd: Round) -> str:
    """Say that a round is a draft, published or finished (what an action did not expect)."""
    if rnd.state == Round.State.DRAFT:
        return _("Round %(number)s is draft (not published).") % {"number": rnd.number}
    if rnd.state == Round.State.PUBLISHED:
        return _("Round %(number)s is published.") % {"number": rnd.number}
    return _("Round %(number)s is finished.") % {"number": rnd.number}


def unpair_round(rnd: Round, actor) -> None:
    """Delete a draft round (it was never published)."""
    with transaction.atomic():
        t, rnd = _locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is published: it cannot be unpaired.") % {"number": rnd.number}
            )
        before = _round_data(rnd)
        number = rnd.number
        rnd.delete()
        if number == 1:
            t.status = Tournament.Status.REGISTRATION
        t.save(update_fields=["status", "updated_at"])
        _audit(t, actor, "unpair round", round_number=number, before=before)


def publish_round(rnd: Round, actor) -> Round:
    with transaction.atomic():
        t, rnd = _locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is already published.") % {"number": rnd.number}
            )
        rnd.state = Round.State.PUBLISHED
        rnd.published_at = timezone.now()
        rnd.save(update_fields=["state", "published_at"])
        t.save(update_fields=["updated_at"])
        _audit(t, actor, "publish round", round_number=rnd.number, article="C.04.2 3.6")
    return rnd


def unpublish_round(rnd: Round, actor) -> Round:
    """Take a published round back to a draft while no board has a result (undo a publish)."""
    with transaction.atomic():
        t, rnd = _locked_round(rnd)
        if rnd.state != Round.State.PUBLISHED:
            raise ServiceError(round_in_state(rnd))
        entered = [str(g.board) for g in rnd.games.all() if not g.is_bye and g.has_result]
        if entered:
            raise ServiceError(
                _(
                    "Round %(number)s has results (board %(boards)s): it stays "
                    "published; change the pairing under C.04.2 Art. 4.4 instead."
                ) % {"number": rnd.number, "boards": ", ".join(entered)}
            )
        rnd.state = Round.State.DRAFT
        rnd.published_at = None
        rnd.save(update_fields=["state", "published_at"])
        t.save(update_fields=["updated_at"])
        _audit(t, actor, "unpublish round", round_number=rnd.number, before="published",
               after="draft")
    return rnd


@dataclass(frozen=True)
class ResultsSaved:
    """What ``set_results`` did: how many boards it saved, and why it left others alone."""

    saved: int
    refused: tuple[str, ...] = ()


def _result_label(value: str) -> str:
    if "|" in value:  # the two games of a Double-Swiss match
        return _(" and ").join(_result_label(part) for part in value.split("|"))
    return str(Result(value).label) if value else _("no result")


def set_results(
    rnd: Round, actor, results: dict[int, str], *, seen: dict[int, str] | None = None
) -> ResultsSaved:
    """Enter or change game results of a round: ``results`` maps game ids to ``Result`` values.

    Results are entered in a published round, or changed in the last finished round while the
    next one is not paired. ``seen`` maps game ids to the values the arbiter's page was loaded
    with (a board it does not name was shown pending): only boards changed on that page are
    written, and a board whose stored result differs from what the page showed is left alone
    and reported (optimistic concurrency: two arbiters, or a stale tab, never erase a result).
    Without ``seen`` every value given is written.
    """
    with transaction.atomic():
        t, rnd = _locked_round(rnd)
        if rnd.state == Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is not published yet.") % {"number": rnd.number}
            )
        later = t.round_set.filter(number__gt=rnd.number).exists()
        if later:
            raise ServiceError(
                _(
                    "Round %(next)s is already paired: a change to round %(number)s is a "
                    "correction (C.04.2 Art. 4.3)."
                ) % {"next": rnd.number + 1, "number": rnd.number}
            )
        games = {g.pk: g for g in rnd.games.select_related("white", "black")}
        changed = 0
        refused = []
        for game_id, value in results.items():
            game = games.get(int(game_id))
            if game is None and seen is not None:
                refused.append(_(
                    "A board of your page was paired again meanwhile (C.04.2 Art. 4.4): its "
                    "result was not saved. Check the round as it is now."
                ))
                continue
            if game is None:
                raise ServiceError(
                    _("Game %(game)s is not in round %(number)s.")
                    % {"game": game_id, "number": rnd.number}
                )
            was = None if seen is None else seen.get(game_id, "")
            current = game.result
            if game.is_match and not game.is_bye:
                current = game.match_result
                was = "|" if was == "" else was
            if value == was or value == current:
                continue
            if was is not None and current != was:
                black = game.black.name if game.black else ""
                refused.append(
                    _(
                        "Board %(board)s (%(white)s – %(black)s): %(result)s not saved, the board "
                        "was changed meanwhile and now holds %(current)s."
                    ) % {
                        "board": game.board, "white": game.white.name, "black": black,
                        "result": _result_label(value), "current": _result_label(current),
                    }
                )
                continue
            if game.is_bye:
                raise ServiceError(
                    _("%(name)s has a bye: there is no result to enter.")
                    % {"name": game.white.name}
                )
            if game.is_match:
                first, second = double_swiss.match_result(
                    value, game.board, complete=rnd.state == Round.State.FINISHED
                )
                game.result, game.second_result = first, second
                game.save(update_fields=["result", "second_result"])
                changed += 1
                _audit(
                    t, actor, "enter result" if current == "|" else "change result",
                    round_number=rnd.number, before=current, after=value, reason=str(game),
                )
                continue
            allowed = GAME_RESULTS if rnd.state == Round.State.FINISHED else GAME_RESULTS | {""}
            if value not in allowed:
                raise ServiceError(
                    _("Board %(board)s: %(value)r is not a game result.")
                    % {"board": game.board, "value": value}
                )
            before = game.result
            game.result = value
            game.save(update_fields=["result"])
            changed += 1
            _audit(
                t, actor, "enter result" if before == "" else "change result",
                round_number=rnd.number, before=before, after=value, reason=str(game),
            )
        if changed:
            t.save(update_fields=["updated_at"])
    return ResultsSaved(changed, tuple(refused))


def set_result(game: Game, actor, result: str) -> ResultsSaved:
    return set_results(game.round, actor, {game.pk: result})


def finish_round(rnd: Round, actor) -> Round:
    """Close a published round whose results are all in."""
    with transaction.atomic():
        t, rnd = _locked_round(rnd)
        if rnd.state != Round.State.PUBLISHED:
            raise ServiceError(round_in_state(rnd))
        missing = [str(g.board) for g in rnd.games.all() if not g.has_result]
        if missing:
            raise ServiceError(missing_results(rnd.number, missing))
        rnd.state = Round.State.FINISHED
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["state", "finished_at"])
        if rnd.number == t.rounds:
            t.status = Tournament.Status.FINISHED
        t.save(update_fields=["status", "updated_at"])
        _audit(t, actor, "finish round", round_number=rnd.number)
    return rnd


# ---------------------------------------------------------------------------------------------
# Standings


@dataclass(frozen=True)
class Standing:
    rank: int
    rank_label: str
    """``"3"``, or ``"3-5"`` for players tied on points and every tie-break."""
    player: Player
    score: int
    """Tenths of a point."""
    games: int
    """Games played over the board."""
    tiebreaks: tuple[str, ...] = ()
    """The tournament's tie-breaks, formatted, in the order of ``tiebreak_names``; ``-`` where a
    tie-break was not used (e.g. rating-based with unrated players, C.07 Art. 10)."""


def tiebreak_specs(tournament: Tournament) -> tuple:
    """Parse the tournament's tie-break list (codes such as ``BH/C1``, by comma or line)."""
    from pairing.tiebreaks import TieBreakSpecError, parse_specs

    try:
        return parse_specs(tournament.tiebreaks.replace("\n", ","))
    except TieBreakSpecError as error:
        raise ServiceError(labelled(_("Tie-breaks"), engine_said(error))) from error


def tiebreak_names(tournament: Tournament) -> tuple[str, ...]:
    return tuple(spec.code for spec in tiebreak_specs(tournament))


def standings(tournament: Tournament, *, after_round: int | None = None) -> list[Standing]:
    """Rank by points, then the tournament's tie-breaks (C.07); players still tied share a rank.

    Only complete rounds count (all results in), up to ``after_round`` if given.
    """
    from pairing.tiebreaks import format_value, standings as tiebreak_standings

    specs = tiebreak_specs(tournament)
    if tournament.is_double_swiss:
        return double_swiss.standings(
            tournament, build_engine_state(tournament), specs, after_round, Standing
        )
    built = build_engine_state(tournament)
    state = built.tournament
    last = built.rounds if after_round is None else max(0, min(after_round, built.rounds))
    if last < built.rounds:
        cut = tuple(replace(p, rounds=p.rounds[:last]) for p in state.players)
        state = replace(state, players=cut)
    table = tiebreak_standings(state, specs)
    column = {spec.code: i for i, spec in enumerate(table.specs)}
    rows = table.rows
    tied = {}
    for row in rows:
        tied[row.rank] = tied.get(row.rank, 0) + 1
    entries = {p.tpn: p.rounds for p in state.players}
    points = state.point_system
    result = []
    for row in rows:
        size = tied[row.rank]
        label = str(row.rank) if size == 1 else f"{row.rank}-{row.rank + size - 1}"
        values = tuple(
            format_value(row.values[column[spec.code]]) if spec.code in column else "-"
            for spec in specs
        )
        result.append(
            Standing(
                rank=row.rank,
                rank_label=label,
                player=built.player_by_tpn[row.tpn],
                score=sum(points.points_for(e) for e in entries[row.tpn]),
                games=sum(1 for e in entries[row.tpn] if e.game_was_played),
                tiebreaks=values,
            )
        )
    return result


# ---------------------------------------------------------------------------------------------
# TRF and CSV


def export_trf(tournament: Tournament) -> str:
    """Return the tournament as TRF-2026 (complete rounds, and requested byes of the next one)."""
    from pairing.trf import write_trf

    t = tournament
    next_round = _next_round_number(t)
    built = build_engine_state(t)
    if built.rounds == next_round - 1 and next_round <= t.rounds:
        built = build_engine_state(t, pairing_round=next_round)
    from tournaments.report import header_records

    # The FIDE rating report's records (022-132, 222) come first, before the tie-breaks (202).
    records = (*header_records(t, rounds=built.rounds), *built.tournament.other_records)
    state = replace(built.tournament, other_records=records)
    if t.is_double_swiss:
        return double_swiss.export(state)
    text = write_trf(state)
    if t.is_clock:
        text = mark_as_clock(text)  # TRF-2026 has no code for it: 192 CUSTOM_SWISS + a comment
    return text + "".join(f"{line}\n" for line in manual_pairing_comments(t, built.rounds))


def manual_pairing_comments(t: Tournament, rounds: int) -> list[str]:
    """Return TRF ``###`` comment lines naming the rows paired by hand (issue 4), by round."""
    games = Game.objects.filter(
        round__tournament=t, round__number__lte=rounds
    ).exclude(manual="").select_related("round", "white", "black")
    lines = []
    for game in games.order_by("round__number", "board", "white__tpn"):
        if game.black_id is None:
            what = f"pairing-allocated bye to {game.white.tpn}"
        else:
            what = f"board {game.board} {game.white.tpn}-{game.black.tpn}"
        reason = " ".join(game.manual.split())
        lines.append(f"### round {game.round.number}: {what} paired by hand ({reason})")
    late = Game.objects.filter(round__tournament=t, round__number__lte=rounds).exclude(
        rating_result="", rating_colors_swapped=False
    ).select_related("round", "white", "black")
    for game in late.order_by("round__number", "board"):
        # C.04.2 Art. 4.3: notified after the end of the next round, for rating only.
        white, black = game.white.tpn, game.black.tpn
        if game.rating_colors_swapped:
            white, black = black, white
        result = game.rating_result or game.result
        if game.rating_colors_swapped:
            result = {"1-0": "0-1", "0-1": "1-0", "+/-": "-/+", "-/+": "+/-"}.get(result, result)
        lines.append(
            f"### round {game.round.number}: board {game.board} for rating only "
            f"(Art. 4.3, notified late): {white}-{black} {result}"
        )
    return lines + corrected_after_next_pairing_comments(t, rounds)


def corrected_after_next_pairing_comments(t: Tournament, rounds: int) -> list[str]:
    """Return a ``###`` line for each correction of round k notified once round k+1 was paired
    (C.04.2 Art. 4.3): the file holds the corrected round k, but round k+1 was paired from the
    old data, and a checker re-pairing it must be told why it differs."""
    from tournaments.corrections import Timing

    when = Timing.NEXT_ROUND_RUNNING.value
    entries = AuditEntry.objects.filter(
        tournament=t,
        action__in=("correct result", "correct colours"),
        round_number__lt=rounds,
        reason__endswith=f"[{when}]",
    ).order_by("at", "pk")
    lines = []
    for entry in entries:
        before, after = entry.before or {}, entry.after or {}

        def row(data: dict) -> str:
            return f"{data.get('white_tpn', '?')}-{data.get('black_tpn', '?')} {data['result']}"

        change = f"{row(before)} corrected to "
        change += row(after) if entry.action == "correct colours" else after["result"]
        lines.append(
            f"### round {entry.round_number + 1}: paired before board {before.get('board')} of "
            f"round {entry.round_number} was corrected (Art. 4.3, notified {when}): {change}"
        )
    return lines


_IMPORT_RESULTS = {codes: r for codes, r in RESULT_OF_CODES.items() if r in GAME_RESULTS}
_IMPORT_BYES = {
    ResultCode.PAIRING_ALLOCATED_BYE: Result.PAIRING_BYE,
    ResultCode.HALF_POINT_BYE: Result.HALF_BYE,
    ResultCode.FULL_POINT_BYE: Result.FULL_BYE,
    ResultCode.ZERO_POINT_BYE: Result.ABSENT,
}


def import_trf(text: str, actor, **overrides) -> Tournament:
    """Create a tournament from a TRF file: header, players with their TPNs, and every round.

    A last column holding only requested byes becomes bye requests for the next round. A
    Double-Swiss file (``192 FIDE_DOUBLESWISS``, two columns a match) becomes a Double-Swiss
    tournament (``tournaments.double_swiss.import_trf``).
    """
    from pairing.double_swiss import is_double_swiss

    if is_double_swiss(text):
        return double_swiss.import_trf(text, actor, **overrides)
    state = _read_trf(text)
    if state.accelerations:
        # Explicit per-player acceleration (250 / XXA); 192 ..._BAKU alone is supported below.
        raise ServiceError(
            labelled(_("TRF file"), _("accelerated pairings are not supported by the web app."))
        )
    if state.forbidden_pairs:
        raise ServiceError(
            labelled(_("TRF file"), _("forbidden pairs are not supported by the web app."))
        )
    if not state.players:
        raise ServiceError(labelled(_("TRF file"), _("no players.")))
    columns = max(len(p.rounds) for p in state.players)
    paired = [
        r for r in range(1, columns + 1)
        if any(len(p.rounds) >= r and p.rounds[r - 1].was_paired for p in state.players)
    ]
    played_rounds = max(paired, default=0)
    total = state.total_rounds or max(columns, 1)
    ps = state.point_system
    fields = {
        "name": state.name or _("Imported tournament"),
        "rounds": total,
        "pairing_system": (
            Tournament.PairingSystem.CLOCK if is_clock_trf(text) else state.rules.value
        ),
        "initial_color": state.initial_color.value if state.initial_color else "",
        "points_win": ps.win,
        "points_draw": ps.draw,
        "points_loss": ps.loss,
        "points_forfeit_win": ps.forfeit_win,
        "points_forfeit_loss": ps.forfeit_loss,
        "points_pairing_bye": ps.pairing_allocated_bye,
        "points_half_bye": ps.half_point_bye,
        "points_full_bye": ps.full_point_bye,
        "points_zero_bye": ps.zero_point_bye,
        "baku_acceleration": state.baku,
        "allow_full_point_bye": any(
            e.result is ResultCode.FULL_POINT_BYE for p in state.players for e in p.rounds
        ),
    }
    from pairing.tiebreaks import TieBreakSpecError, format_specs, tiebreak_records

    try:
        specs = tiebreak_records(state.other_records)
    except TieBreakSpecError as error:
        raise ServiceError(
            labelled(_("TRF file"), labelled(_("tie-breaks"), engine_said(error)))
        ) from error
    if specs is not None:
        fields["tiebreaks"] = format_specs(specs)
    from tournaments.report import report_fields

    report, round_dates = report_fields(state.other_records)
    fields.update(report)
    fields.update(overrides)
    tpns = sorted(p.tpn for p in state.players)
    if tpns != list(range(1, len(tpns) + 1)):
        raise ServiceError(labelled(
            _("TRF file"), _("pairing numbers must run from 1 to the number of players.")
        ))
    rows = _trf_players(state)
    with transaction.atomic():
        t = create_tournament(actor, **fields)
        players = {
            tpn: Player(tournament=t, tpn=tpn, **data) for tpn, data in zip(tpns, rows)
        }
        Player.objects.bulk_create(players.values(), batch_size=500)
        for r in range(1, played_rounds + 1):
            _import_round(t, r, state, players, round_dates.get(r))
        for p in state.players:
            if len(p.rounds) > played_rounds and p.rounds[played_rounds].is_preset:
                entry = p.rounds[played_rounds]
                kind = {
                    ResultCode.HALF_POINT_BYE: ByeRequest.Kind.HALF,
                    ResultCode.FULL_POINT_BYE: ByeRequest.Kind.FULL,
                    ResultCode.ZERO_POINT_BYE: ByeRequest.Kind.ABSENT,
                }[entry.result]
                ByeRequest.objects.create(
                    player=players[p.tpn], round_number=played_rounds + 1, kind=kind
                )
        if played_rounds:
            t.status = (
                Tournament.Status.FINISHED if played_rounds >= total else Tournament.Status.RUNNING
            )
            t.save(update_fields=["status"])
        _audit(t, actor, "import TRF", after={"players": len(players), "rounds": played_rounds})
    return t


def _import_round(
    t: Tournament, r: int, state: EngineTournament, players: dict, date=None
) -> None:
    now = timezone.now()
    if date is not None:  # the round's date (TRF 132), at noon
        now = timezone.make_aware(datetime.datetime.combine(date, datetime.time(12)))
    rnd = Round.objects.create(
        tournament=t, number=r, state=Round.State.FINISHED, published_at=now, finished_at=now
    )
    games: list[Game] = []
    pairs: list[tuple[int, int, str]] = []
    for p in state.players:
        entry = p.rounds[r - 1] if len(p.rounds) >= r else ABSENT
        if entry.opponent is None:
            games.append(Game(round=rnd, white=players[p.tpn], result=_IMPORT_BYES[entry.result]))
            continue
        other = state.player(entry.opponent).rounds[r - 1]
        white_first = entry.color is Color.WHITE or (entry.color is None and p.tpn < entry.opponent)
        if not white_first:
            continue
        result = _IMPORT_RESULTS.get((entry.result, other.result))
        if result is None:
            raise ServiceError(labelled(
                _("TRF file"),
                _(
                    "round %(number)s, players %(first)s and %(second)s: result %(result)s is not "
                    "supported by the web app."
                ) % {
                    "number": r, "first": p.tpn, "second": entry.opponent,
                    "result": f"{entry.result.value}/{other.result.value}",
                },
            ))
        pairs.append((p.tpn, entry.opponent, result))
    points = t.point_system
    score = {p.tpn: sum(points.points_for(e) for e in p.rounds[: r - 1]) for p in state.players}
    ordered = board_order(
        RoundPairing(r, tuple(_board(w, b) for w, b, _ in pairs)), score
    )
    result_of = {(w, b): res for w, b, res in pairs}
    for n, (w, b) in enumerate(ordered, start=1):
        games.append(
            Game(round=rnd, board=n, white=players[w], black=players[b], result=result_of[(w, b)])
        )
    Game.objects.bulk_create(games)


def _board(white: int, black: int):
    from pairing.model import Board

    return Board(white, black)


def _trf_players(state: EngineTournament) -> list[dict]:
    """Return the players of a read TRF file as player fields, or refuse with every error."""
    rows, errors = [], []
    for p in sorted(state.players, key=lambda p: p.tpn):
        birth = p.birth[:4]
        data, problems = _player_errors(
            {
                "name": p.name, "rating": p.rating, "title": p.title,
                "federation": p.federation, "fide_id": p.fide_id,
                "sex": p.sex if p.sex in ("m", "w") else "",
                "birth_year": int(birth) if birth.isascii() and birth.isdigit() else None,
            }
        )
        rows.append(data)
        errors += [
            labelled(
                _("Player %(tpn)s (%(name)s), %(field)s")
                % {"tpn": p.tpn, "name": _shown(p.name), "field": _field_label(key)},
                " ".join(messages),
            )
            for key, messages in problems.items()
        ]
    _refuse_rows(_("TRF file"), errors)
    return rows


def _shown(text: str) -> str:
    """Return text fit to quote in a message: control characters shown as escapes, cut short."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= 40 else text[:39] + "…"


def _read_trf(text: str) -> EngineTournament:
    from pairing.errors import TrfFormatError
    from pairing.trf import read_trf

    try:
        return read_trf(text)
    except TrfFormatError as error:
        raise ServiceError(labelled(_("TRF file"), engine_said(error))) from error


def import_players_trf(tournament: Tournament, actor, text: str) -> list[Player]:
    """Register the players of a TRF file (no rounds) before round 1; TPNs follow Art. 2.2."""
    state = _read_trf(text)
    if any(p.rounds for p in state.players):
        raise ServiceError(labelled(
            _("TRF file"), _("it holds rounds; import it as a new tournament instead.")
        ))
    if not state.players:
        raise ServiceError(labelled(_("TRF file"), _("no players.")))
    return register_players(tournament, actor, _trf_players(state))


CSV_COLUMNS = {
    "name": "name",
    "rating": "rating",
    "elo": "rating",
    "title": "title",
    "federation": "federation",
    "fed": "federation",
    "fide_id": "fide_id",
    "fideid": "fide_id",
    "fide id": "fide_id",
    "sex": "sex",
    "birth_year": "birth_year",
    "birth": "birth_year",
    "born": "birth_year",
}


CSV_SEPARATORS = ("\t", ";", ",")
"""Tab, semicolon (a spreadsheet's CSV where the decimal mark is a comma), comma."""


def csv_separator(text: str) -> str:
    """The separator of a CSV file, read from its header line: column names hold none of
    them, so the first of tab, semicolon and comma found there separates the columns."""
    header = text.split("\n", 1)[0]
    return next((sep for sep in CSV_SEPARATORS if sep in header), ",")


def parse_players_csv(text: str) -> list[dict]:
    """Read a players CSV (header line; name required; rating, title, federation, fide_id, sex,
    birth_year optional) and check every row; refuse with all errors, by line and column."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    reader = csv.reader(io.StringIO(text), strict=True, delimiter=csv_separator(text))
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise ServiceError(
            labelled(_csv_line(1), _("%(error)s (a quote left open?).") % {"error": error})
        ) from error
    if header is None or not any(cell.strip() for cell in header):
        raise ServiceError(labelled(_("CSV file"), _("empty, or no header line.")))
    columns: list[str] = []
    for name in header:
        key = CSV_COLUMNS.get(name.strip().lower())
        if key is None:
            raise ServiceError(labelled(
                _csv_line(1),
                _("unknown column %(name)r (known: %(known)s).")
                % {"name": _shown(name), "known": ", ".join(sorted(set(CSV_COLUMNS)))},
            ))
        if key in columns:
            raise ServiceError(
                labelled(_csv_line(1), _("two columns for %(column)s.") % {"column": key})
            )
        columns.append(key)
    if "name" not in columns:
        raise ServiceError(labelled(_("CSV file"), _("a 'name' column is required.")))
    rows, errors = [], []
    while True:
        first_line = reader.line_num + 1
        try:
            cells = next(reader, None)
        except csv.Error as error:
            errors.append(labelled(
                _csv_line(first_line), _("%(error)s (a quote left open?).") % {"error": error}
            ))
            break
        if cells is None:
            break
        where = _csv_line(first_line)
        if len(cells) > len(columns):
            errors.append(
                labelled(where, _("more fields than columns (quote names with commas)."))
            )
            continue
        data, bad = {}, []
        for key, value in zip(columns, cells):
            value = value.strip()
            if "\n" in value:
                bad.append(labelled(
                    where,
                    _("%(column)s runs over several lines (a quote left open?).")
                    % {"column": key},
                ))
            elif key in ("rating", "birth_year"):
                if not value:
                    continue
                if value.isascii() and value.isdigit() and len(value) <= 5:
                    data[key] = int(value)
                else:
                    bad.append(labelled(
                        where,
                        _("%(column)s %(value)r is not a number.")
                        % {"column": key, "value": _shown(value)},
                    ))
            else:
                data[key] = value
        if bad:
            errors += bad
            continue
        if not any(str(v) for v in data.values()):
            continue
        data, problems = _player_errors(data)
        errors += [
            labelled(where, labelled(key, " ".join(messages)))
            for key, messages in problems.items()
        ]
        rows.append(data)
    _refuse_rows(_("CSV file"), errors)
    if not rows:
        raise ServiceError(labelled(_("CSV file"), _("no players.")))
    return rows


def _csv_line(number: int) -> str:
    return _("CSV file, line %(number)s") % {"number": number}


def import_players_csv(tournament: Tournament, actor, text: str) -> list[Player]:
    """Register the players of a CSV file (``parse_players_csv``): all of them, or none."""
    return register_players(tournament, actor, parse_players_csv(text))
