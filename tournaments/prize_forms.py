"""Forms of the categories and the prize list: they read the arbiter's input, the services
(``tournaments.services.prizes``) apply it."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Category, PrizeSharing, Tournament
from tournaments.prize_models import amounts
from tournaments.services.prizes import CATEGORY_FIELDS

AMOUNT = re.compile(r"\A[0-9]{1,9}(?:\.[0-9]{1,2})?\Z")


def parse_amounts(text: str) -> list[Decimal]:
    """Amounts of places 1, 2, 3 ... separated by spaces, commas or semicolons; cents after a
    point. A wrong one is named with its position.

    >>> parse_amounts("500, 300 ;200.50")
    [Decimal('500'), Decimal('300'), Decimal('200.50')]
    """
    found = []
    for position, token in enumerate(re.split(r"[\s,;]+", text.strip()), start=1):
        if not token:
            continue
        if not AMOUNT.match(token):
            raise forms.ValidationError(
                _("“%(token)s” (amount %(position)s) is not an amount: digits, and the cents "
                  "after a point (12.50)."),
                code="amount", params={"token": token, "position": position},
            )
        try:
            found.append(Decimal(token))
        except InvalidOperation as error:  # pragma: no cover - the pattern admits decimals only
            raise forms.ValidationError(str(error)) from error
    return found


def written(stored: list) -> str:
    """Stored amounts as the form shows them: '500 300 200'."""
    return " ".join(
        str(a.quantize(Decimal(1)) if a == a.to_integral_value() else a) for a in amounts(stored)
    )


class AmountsField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", _("Places 1, 2, 3 ... in order, e.g. 500 300 200."))
        super().__init__(**kwargs)

    def clean(self, value):
        return parse_amounts(super().clean(value) or "")


class CategoryForm(forms.ModelForm):
    class Meta:
        model = Category
        fields = CATEGORY_FIELDS


class PrizesForm(forms.Form):
    """The whole prize list: the general standings' places, each category's, how ties share."""

    general = AmountsField(label=_("General standings"))
    sharing = forms.ChoiceField(
        label=_("Tied players"), choices=PrizeSharing.choices, widget=forms.RadioSelect,
        help_text=_("A player receives one prize only: the most valuable; with equal values, "
                    "the general standings first, then the categories in their order."),
    )
    currency = forms.CharField(
        label=_("Currency"), required=False, max_length=8,
        help_text=_("Written after the amounts: €, CHF, EUR."),
    )

    def __init__(self, tournament: Tournament, categories: list[Category], *args, **kwargs):
        kwargs.setdefault("initial", {
            "general": written(tournament.prizes), "sharing": tournament.prize_sharing,
            "currency": tournament.currency,
            **{f"category_{c.pk}": written(c.prizes) for c in categories},
        })
        super().__init__(*args, **kwargs)
        self.categories = categories
        for c in categories:
            self.fields[f"category_{c.pk}"] = AmountsField(label=c.name)

    def category_fields(self):
        return [self[f"category_{c.pk}"] for c in self.categories]

    def for_service(self) -> dict:
        data = self.cleaned_data
        return {
            "general": data["general"], "sharing": data["sharing"],
            "currency": data["currency"],
            "categories": {c.pk: data[f"category_{c.pk}"] for c in self.categories},
        }
