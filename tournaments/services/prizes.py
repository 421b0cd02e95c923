"""Categories and the prize list: defined, changed, removed (who receives which prize is
computed, never stored: ``tournaments.prizes``)."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Category, PrizeSharing, Tournament
from tournaments.services.errors import ServiceError
from tournaments.services.tournament import invalid_fields
from tournaments.services.write import audit, locked

CATEGORY_FIELDS = (
    "name", "position", "women", "age_under", "age_from", "rating_from", "rating_below",
    "unrated", "federations", "club",
)
MAX_PLACES = 200
"""The most places one list may have prizes for."""


def _category_data(category: Category) -> dict:
    return {key: getattr(category, key) for key in (*CATEGORY_FIELDS, "prizes")}


def _check_category(category: Category) -> None:
    try:
        category.full_clean(exclude=["tournament", "prizes"])
    except ValidationError as error:
        raise invalid_fields(category, error) from error
    if (category.rating_from is not None and category.rating_below is not None
            and category.rating_from >= category.rating_below):
        raise ServiceError(_("%(name)s: the rating band is empty (from %(low)s, below %(high)s).")
                           % {"name": category.name, "low": category.rating_from,
                              "high": category.rating_below})
    if category.unrated == Category.Unrated.ONLY and (
        category.rating_from is not None or category.rating_below is not None
    ):
        raise ServiceError(_("%(name)s: a category of unrated players has no rating band.")
                           % {"name": category.name})
    bad = [code for code in category.federation_codes
           if len(code) != 3 or not code.isascii() or not code.isalpha()]
    if bad:
        raise ServiceError(_("%(name)s: a federation is three letters (FRA, BEL), not "
                             "“%(code)s”.") % {"name": category.name, "code": bad[0]})
    if category.tournament.categories.filter(name=category.name).exclude(pk=category.pk).exists():
        raise ServiceError(_("There is already a category named “%(name)s”.")
                           % {"name": category.name})


def save_category(
    tournament: Tournament, actor, category: Category | None = None, **fields
) -> Category:
    """Add a category (``category`` None) or change one: ``fields`` of ``CATEGORY_FIELDS``."""
    unknown = set(fields) - set(CATEGORY_FIELDS)
    if unknown:
        raise TypeError(f"not fields of a category: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        t = locked(tournament)
        if category is None:
            row = Category(tournament=t)
            if "position" not in fields:
                last = t.categories.order_by("-position").first()
                row.position = last.position + 1 if last else 1
            before = None
        else:
            row = t.categories.select_for_update().filter(pk=category.pk).first()
            if row is None:
                raise ServiceError(_("This category was removed meanwhile: nothing was done."))
            before = _category_data(row)
        for key, value in fields.items():
            setattr(row, key, value)
        row.federations = " ".join(sorted(row.federation_codes))
        _check_category(row)
        row.save()
        audit(t, actor, "add category" if before is None else "change category",
              before=before, after=_category_data(row))
    return row


def remove_category(tournament: Tournament, actor, category: Category) -> None:
    with transaction.atomic():
        t = locked(tournament)
        row = t.categories.filter(pk=category.pk).first()
        if row is None:
            return
        before = _category_data(row)
        row.delete()
        audit(t, actor, "remove category", before=before)


def check_amounts(what: str, amounts: list[Decimal]) -> list[str]:
    """The amounts of one list's places as stored (strings); refuse a list that gives a place
    more than the place before it, or nothing."""
    if len(amounts) > MAX_PLACES:
        raise ServiceError(_("%(what)s: at most %(count)s places have a prize.")
                           % {"what": what, "count": MAX_PLACES})
    for place, amount in enumerate(amounts, start=1):
        if amount <= 0:
            raise ServiceError(_("%(what)s: the prize of place %(place)s must be more than 0.")
                               % {"what": what, "place": place})
        if place > 1 and amount > amounts[place - 2]:
            raise ServiceError(
                _("%(what)s: place %(place)s cannot have more than place %(before)s.")
                % {"what": what, "place": place, "before": place - 1}
            )
    return [str(a) for a in amounts]


def set_prizes(
    tournament: Tournament,
    actor,
    *,
    general: list[Decimal],
    sharing: str,
    currency: str,
    categories: dict[int, list[Decimal]],
) -> None:
    """The prize list: the amounts of the general standings' places and of each category's
    (by category id), how tied players share, the currency. All of it or nothing."""
    if sharing not in PrizeSharing.values:
        raise ServiceError(_("Tied players: one of %(choices)s.")
                           % {"choices": ", ".join(PrizeSharing.values)})
    with transaction.atomic():
        t = locked(tournament)
        before = {"general": t.prizes, "sharing": t.prize_sharing, "currency": t.currency}
        t.prizes = check_amounts(_("General standings"), general)
        t.prize_sharing = sharing
        t.currency = currency.strip()
        try:
            t.full_clean(exclude=["arbiters"])
        except ValidationError as error:
            raise invalid_fields(t, error) from error
        t.save(update_fields=["prizes", "prize_sharing", "currency", "updated_at"])
        after = {"general": t.prizes, "sharing": t.prize_sharing, "currency": t.currency}
        rows = {c.pk: c for c in t.categories.select_for_update()}
        for pk, amounts in categories.items():
            row = rows.get(pk)
            if row is None:
                raise ServiceError(_("A category was removed meanwhile: nothing was saved."))
            stored = check_amounts(row.name, amounts)
            before[row.name] = row.prizes
            after[row.name] = stored
            if row.prizes != stored:
                row.prizes = stored
                row.save(update_fields=["prizes"])
        if before != after:
            audit(t, actor, "set prizes", before=before, after=after)
    tournament.refresh_from_db()
