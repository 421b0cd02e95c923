"""``{{ note|said }}``: a sentence of the engine (a tie-break note, a reason) in the page's
language (``pairing.text``; English stays as the engine wrote it)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def said(text):
    """The engine's sentence in the active language; anything else unchanged."""
    from tournaments.sentences import say

    return say(text) if isinstance(text, str) else text


@register.filter
def explanation_text(rnd):
    """``{{ round|explanation_text }}``: the round's explanation as text, the Clock and
    Double-Swiss lines in the page's language (``tournaments.explain.text``)."""
    from tournaments.explain import text

    return text(rnd)
