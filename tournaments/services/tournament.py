"""A tournament's settings and arbiters: created, changed, the initial colour drawn."""

from __future__ import annotations

import random

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.sentences import labelled
from tournaments.services import double_swiss
from tournaments.services.errors import ServiceError
from tournaments.services.tiebreak_list import tiebreak_specs
from tournaments.services.write import audit, changed, changes_from_page, created, locked


def invalid_fields(instance: models.Model, error: ValidationError) -> ServiceError:
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
        raise invalid_fields(tournament, error) from error
    tiebreak_specs(tournament)
    with transaction.atomic():
        tournament.save()
        created(tournament)
        if actor is not None:
            tournament.arbiters.add(actor)
        audit(tournament, actor, "create tournament", after={"name": tournament.name})
    return tournament


def update_tournament(
    tournament: Tournament, actor, *, loaded: dict[str, str] | None = None, **fields
) -> Tournament:
    """Change a tournament's settings; the pairing system is fixed once round 1 is paired.

    ``loaded``: the settings as the page showed them (see ``changes_from_page``).
    """
    with transaction.atomic():
        t = locked(tournament)
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
            raise invalid_fields(t, error) from error
        tiebreak_specs(t)
        t.save()
        changed = {k: v for k, v in fields.items() if before[k] != v}
        if changed:
            audit(
                t, actor, "update tournament",
                article="C.04.7" if "baku_acceleration" in changed else "",
                before={k: str(before[k]) for k in changed},
                after={k: str(v) for k, v in changed.items()},
            )
    tournament.refresh_from_db()
    return t


def add_arbiter(tournament: Tournament, actor, user) -> None:
    with transaction.atomic():
        t = locked(tournament)
        t.arbiters.add(user)
        audit(t, actor, "add arbiter", after=user.get_username())



def draw_initial_color(tournament: Tournament, actor, rng: random.Random | None = None) -> str:
    """Draw by lot the colour of TPN 1 in round 1 (C.04.3 Art. 5.1) and record it."""
    with transaction.atomic():
        t = locked(tournament)
        if t.round_set.exists():
            raise ServiceError(_("Round 1 has been paired: the initial colour is final."))
        color = draw_by_lot(t, actor, rng)
    tournament.refresh_from_db()
    return color


def draw_by_lot(t: Tournament, actor, rng: random.Random | None = None) -> str:
    """Draw the initial colour of a locked tournament, save it and record it in the audit trail
    (C.04.3 Art. 5.1): the arbiter's draw, or the one made when round 1 is paired undrawn."""
    rng = rng or random.SystemRandom()
    changed(t.pk)  # raised already when the row was taken with ``locked``
    before = t.initial_color
    t.initial_color = rng.choice([Tournament.InitialColor.WHITE, Tournament.InitialColor.BLACK])
    t.initial_color_drawn_at = timezone.now()
    t.save(update_fields=["initial_color", "initial_color_drawn_at", "updated_at"])
    audit(
        t, actor, "draw initial colour", article="C.04.3 5.1",
        before=before, after=t.initial_color,
    )
    return t.initial_color
