"""Template filters of the tournament pages."""

from django import template
from django.utils import formats

from tournaments import queries
from tournaments.sentences import format_points

register = template.Library()

DATE = "DATE_FORMAT"
"""The one date format of every page, per language (config/formats): 1 Dec 2026, 1 décembre 2026."""


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
    day = formats.date_format(moment, DATE)
    return f"{day}, {formats.date_format(moment, 'H:i')} {moment.tzname()}"


@register.filter
def points(tenths) -> str:
    """Show points stored in tenths as the page's language writes them: 15 -> '1½' or '1,5'."""
    if tenths is None or tenths == "":
        return ""
    return format_points(int(tenths))


@register.filter
def decimal(value) -> str:
    """A value written with a decimal point ('13.5') as the page's language writes it."""
    return queries.format_decimal(value)
