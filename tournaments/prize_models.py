"""The categories of an event (women, age groups, rating bands, federations, a club) with the
prizes of their places. Imported by ``tournaments.models``; who belongs and who receives which
prize is ``tournaments.prizes``."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments import prizes

MAX_AGE = 120


def amounts(stored: list) -> tuple[Decimal, ...]:
    """Prize amounts as a JSON field keeps them (strings, place 1 first) as decimals."""
    return tuple(Decimal(str(a)) for a in stored or ())


class Category(models.Model):
    """A category of players, ranked by the event's final standings filtered (never ranked
    again), with the prizes of its places 1..n."""

    class Unrated(models.TextChoices):
        WITH = "with", _("Unrated players belong to it")
        WITHOUT = "without", _("Rated players only")
        ONLY = "only", _("Unrated players only")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="categories"
    )
    position = models.PositiveSmallIntegerField(
        _("order"), default=0,
        help_text=_("Where the category comes in the prize list (the smaller first)."),
    )
    name = models.CharField(
        _("name"), max_length=40, help_text=_("As the prize list names it: U1800, Women, 50+.")
    )
    women = models.BooleanField(_("women only"), default=False)
    age_under = models.PositiveSmallIntegerField(
        _("under the age of"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_AGE)],
        help_text=_("U12: not 12 before 1 January of the event's year, i.e. born in that year "
                    "minus 12 or later (FIDE D.04.07 Art. 6)."),
    )
    age_from = models.PositiveSmallIntegerField(
        _("aged at least"), null=True, blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_AGE)],
        help_text=_("50+: 50 or older in the event's year, i.e. born in that year minus 50 or "
                    "earlier (FIDE D.04.03 Art. 2.1)."),
    )
    rating_from = models.PositiveSmallIntegerField(
        _("rating from"), null=True, blank=True, validators=[MaxValueValidator(9999)],
        help_text=_("Rated this or more."),
    )
    rating_below = models.PositiveSmallIntegerField(
        _("rating below"), null=True, blank=True, validators=[MaxValueValidator(9999)],
        help_text=_("U1800: rated below 1800."),
    )
    unrated = models.CharField(
        _("unrated players"), max_length=8, choices=Unrated.choices, default=Unrated.WITH
    )
    federations = models.CharField(
        _("federations"), max_length=80, blank=True,
        help_text=_("Three-letter codes separated by spaces or commas: FRA, BEL."),
    )
    club = models.CharField(
        _("club"), max_length=100, blank=True,
        help_text=_("The club's name, as the players' list writes it (case and accents aside)."),
    )
    prizes = models.JSONField(
        default=list, blank=True, help_text="Amounts of places 1..n, as strings ('100.00')."
    )

    class Meta:
        ordering = ["tournament", "position", "pk"]
        verbose_name_plural = "categories"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_category_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def federation_codes(self) -> frozenset[str]:
        return frozenset(
            code.upper() for code in self.federations.replace(",", " ").split() if code
        )

    @property
    def criteria(self) -> prizes.Criteria:
        return prizes.Criteria(
            women=self.women,
            age_under=self.age_under,
            age_from=self.age_from,
            rating_from=self.rating_from,
            rating_below=self.rating_below,
            unrated=self.unrated,
            federations=self.federation_codes,
            club=self.club,
        )

    @property
    def amounts(self) -> tuple[Decimal, ...]:
        return amounts(self.prizes)
