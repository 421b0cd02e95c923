"""Template filters of the tournament pages."""

from django import template

register = template.Library()


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
