"""``{% public_qr t %}``: an inline SVG QR code to the tournament's public page (issue 16).

For the arbiter's dashboard and the printed pairings; made with segno, no image file.
"""

from __future__ import annotations

import segno
from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe

register = template.Library()


def public_url(request, tournament) -> str:
    return request.build_absolute_uri(reverse("public-tournament", args=[tournament.pk]))


@register.simple_tag(takes_context=True)
def public_qr(context, tournament, scale: int = 4) -> str:
    url = public_url(context["request"], tournament)
    code = segno.make(url, error="m")
    # segno escapes the title; the SVG is its own markup, safe to inline.
    return mark_safe(code.svg_inline(scale=scale, border=2, title=url))  # noqa: S308


@register.simple_tag(takes_context=True)
def public_link(context, tournament) -> str:
    return public_url(context["request"], tournament)
