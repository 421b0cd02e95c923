"""Template filters of the tournament pages."""

from django import template
from django.utils import formats

register = template.Library()

DATE = "j M Y"
"""The one date format of every page (1 Dec 2026; month names in the page's language)."""


@register.filter
def day(value) -> str:
    """A date as every page shows it: 1 Dec 2026."""
    return formats.date_format(value, DATE) if value else ""


@register.filter
def local(value, tournament) -> str:
    """A moment in the tournament's time zone, named: '1 Dec 2026, 14:05 CET'."""
    if value is None or value == "":
        return ""
    moment = value.astimezone(tournament.zone)
    return f"{formats.date_format(moment, DATE + ', H:i')} {moment.tzname()}"


@register.filter
def points(tenths) -> str:
    """Show points stored in tenths: 15 -> '1½', 10 -> '1', 5 -> '½'."""
    if tenths is None or tenths == "":
        return ""
    value = int(tenths)
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value), 10)
    if rest == 0:
        return f"{sign}{whole}"
    if rest == 5:
        return f"{sign}½" if whole == 0 else f"{sign}{whole}½"
    return f"{value / 10:g}"
