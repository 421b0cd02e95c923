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


@register.filter
def signed(value, places: int = 1) -> str:
    """A rating change with its sign, as the page's language writes numbers: +12.8, −2,8."""
    if value is None or value == "":
        return ""
    number = round(float(value), int(places))
    if number == 0:
        return formats.number_format(0, int(places)) if int(places) else "0"
    text = formats.number_format(abs(number), int(places))
    return f"+{text}" if number > 0 else f"−{text}"


@register.filter
def hundredths(value) -> str:
    """A probability or a score (a fraction) with two decimals: 0.64, 0,64."""
    if value is None or value == "":
        return ""
    return formats.number_format(float(value), 2)


@register.filter
def score(value) -> str:
    """A game's score (a fraction: 1, 1/2, 0) as the page writes points: 1, ½ or 0,5."""
    if value is None or value == "":
        return ""
    return format_points(int(value * 10))


@register.filter
def whole(value) -> str:
    """A number rounded to the whole, as the page's language writes it: 1872."""
    if value is None or value == "":
        return ""
    return formats.number_format(round(float(value)), 0)
