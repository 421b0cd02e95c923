"""Players: registered, numbered (C.04.2 Art. 2.2-2.3), admitted late (2.4), withdrawn (3.2),
their byes and absences requested (3.3)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _, gettext_noop, ngettext

from pairing.text import Text
from tournaments.models import (
    MAX_PLAYERS,
    AuditEntry,
    ByeRequest,
    Game,
    Player,
    Result,
    Round,
    Tournament,
)
from tournaments.sentences import labelled, listed
from tournaments.services.errors import ServiceError
from tournaments.services.write import (
    audit,
    audit_entry,
    changes_from_page,
    current_player,
    locked,
    player_data,
)

PLAYER_FIELDS = (
    "name", "fide_id", "title", "rating", "federation", "sex", "birth_year", "club",
)


SEX_ALIASES = {"m": "m", "w": "w", "f": "w"}


def player_errors(fields: dict) -> tuple[dict, dict[str, list[str]]]:
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


def field_label(key: str) -> str:
    return str(Player._meta.get_field(key).verbose_name)


def clean_player_fields(fields: dict) -> dict:
    data, errors = player_errors(fields)
    if errors:
        name = data.get("name") or _("The player")
        problems = "; ".join(labelled(field_label(k), " ".join(v)) for k, v in errors.items())
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


def renumber(tournament: Tournament) -> None:
    """Give TPNs in the initial order of C.04.2 Art. 2.2 (rating, title, name)."""
    _number_players(tournament)


def _next_tpn(tournament: Tournament) -> int:
    last = tournament.players.order_by("-tpn").values_list("tpn", flat=True).first()
    return (last or 0) + 1


def add_player(tournament: Tournament, actor, **fields) -> Player:
    """Register a player before round 1 is paired; TPNs follow the initial order (Art. 2.2)."""
    return register_players(tournament, actor, [clean_player_fields(fields)])[0]


def register_players(tournament: Tournament, actor, rows: list[dict]) -> list[Player]:
    """Register players (``clean_player_fields`` data) before round 1 is paired, in one pass:
    insert them all and number everyone once in the initial order (Art. 2.2)."""
    with transaction.atomic():
        t = locked(tournament)
        if t.round_set.exists():
            raise ServiceError(_(
                "Round 1 has been paired: admit the player as a late entry (C.04.2 Art. 2.4)."
            ))
        players = [Player(tournament=t, tpn=0, **data) for data in rows]
        _number_players(t, players)
        AuditEntry.objects.bulk_create(
            [
                audit_entry(
                    t, actor, "add player", player=player, article="C.04.2 2.2",
                    after=player_data(player),
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
        t = locked(player.tournament)
        player = current_player(t, player)
        fields = changes_from_page(
            player, fields, loaded, _("%(name)s's data") % {"name": player.name}
        )
        if "rating" in fields and fields["rating"] != player.rating and t.tpns_frozen():
            raise ServiceError(_(RATING_NEEDS_A_CORRECTION))
        data = clean_player_fields({**{f: getattr(player, f) for f in PLAYER_FIELDS}, **fields})
        before = player_data(player)
        for key, value in data.items():
            setattr(player, key, value)
        player.save()
        if not t.tpns_frozen():
            renumber(t)
            player.refresh_from_db()
        audit(
            t, actor, "update player", player=player, article="C.04.2 2.3",
            before=before, after=player_data(player),
        )
    return player


def remove_player(player: Player, actor) -> None:
    """Delete a registration before round 1 is paired."""
    with transaction.atomic():
        t = locked(player.tournament)
        if t.round_set.exists():
            raise ServiceError(_("Round 1 has been paired: withdraw the player instead."))
        player = current_player(t, player)
        before = player_data(player)
        player.delete()
        renumber(t)
        audit(t, actor, "remove player", before=before)


def renumber_players(tournament: Tournament, actor) -> None:
    """Reassign every TPN by the initial order; refused once round 4 is paired (Art. 2.3)."""
    with transaction.atomic():
        t = locked(tournament)
        if t.tpns_frozen():
            raise ServiceError(
                _("Round 4 has been paired: TPNs can no longer change (C.04.2 Art. 2.3).")
            )
        before = {p.pk: p.tpn for p in t.players.all()}
        renumber(t)
        after = {p.pk: p.tpn for p in t.players.all()}
        audit(t, actor, "renumber players", article="C.04.2 2.3", before=before, after=after)




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
    data = clean_player_fields(fields)
    with transaction.atomic():
        t = locked(tournament)
        next_round = t.next_round_number()
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
        if not t.system.late_entries and t.round_set.exists():
            raise ServiceError(_(
                "Round 1 has been paired: the Clock system seats every player on its grid "
                "before round 1 (Appendix A), so it has no late entries."
            ))
        player = Player.objects.create(
            tournament=t, tpn=_next_tpn(t), arrival_round=arrival_round, **data
        )
        if not t.tpns_frozen():
            renumber(t)
            player.refresh_from_db()
        missed = _late_entry_half_point_byes(t, player) if t.late_entry_half_point_byes else []
        reasons = []
        if last is not None and arrival_round == last.number:
            reasons.append(Text(ADMITTED_INTO_PAIRED_ROUND, number=arrival_round))
        if missed:
            reasons.append(Text(HALF_POINT_BYES_MISSED, rounds=", ".join(map(str, missed))))
        audit(
            t, actor, "admit late entry", player=player, article="C.04.2 2.4",
            round_number=arrival_round, after=player_data(player), reason=listed(reasons),
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


def withdraw_player(player: Player, actor, *, from_round: int | None = None) -> Player:
    """Stop pairing a player from ``from_round`` (default: the next round) on (C.04.2 Art. 3.2)."""
    with transaction.atomic():
        t = locked(player.tournament)
        player = current_player(t, player)
        next_round = t.next_round_number()
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
        audit(
            t, actor, "withdraw", player=player, article="C.04.2 3.2", round_number=from_round,
            before=before, after=from_round,
        )
    return player


def reinstate_player(player: Player, actor) -> Player:
    """Cancel a withdrawal that has not yet taken effect in a paired round."""
    with transaction.atomic():
        t = locked(player.tournament)
        player = current_player(t, player)
        if player.withdrawn_from_round is None:
            raise ServiceError(_("%(name)s has not withdrawn.") % {"name": player.name})
        if player.withdrawn_from_round < t.next_round_number():
            raise ServiceError(
                _("%(name)s was already left out of round %(number)s.")
                % {"name": player.name, "number": player.withdrawn_from_round}
            )
        before = player.withdrawn_from_round
        player.withdrawn_from_round = None
        player.save(update_fields=["withdrawn_from_round"])
        audit(t, actor, "reinstate", player=player, before=before, after=None)
    return player


def request_bye(player: Player, actor, *, round_number: int, kind: str) -> ByeRequest:
    """Record a requested bye or an announced absence for a round not yet paired (Art. 3.3)."""
    if kind not in ByeRequest.Kind.values:
        raise ServiceError(_("Unknown kind of bye %(kind)r.") % {"kind": kind})
    with transaction.atomic():
        t = locked(player.tournament)
        player = current_player(t, player)
        next_round = t.next_round_number()
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
        audit(
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
        t = locked(request.player.tournament)
        if not ByeRequest.objects.filter(pk=request.pk).exists():
            raise ServiceError(_("This bye was already cancelled."))
        if request.round_number < t.next_round_number():
            raise ServiceError(already_paired(request.round_number))
        audit(
            t, actor, "cancel bye", player=request.player, round_number=request.round_number,
            before=request.kind,
        )
        request.delete()
