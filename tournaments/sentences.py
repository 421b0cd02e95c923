"""Sentences and numbers in the reader's language: one home for how the app says things.

The engine writes its sentences as ``pairing.text.Text`` (English, with the template and its
values); :func:`say` says one in the active language, :func:`engine_said` says an engine error.
The services say theirs with Django's ``gettext`` at the moment they refuse something, and
keep what the audit trail stores in English (:class:`Said`, :func:`in_english`). Points are
written one way for people (:func:`format_points`); files (TRF) and the API keep their own
formats, which belong to those formats.

This module sits at the bottom of the app, beside the models: it imports no other module of
``tournaments``.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils import formats, translation
from django.utils.translation import gettext, gettext as _, ngettext

from pairing.text import Text, Translator

HALF_AS_FRACTION = {"en"}
"""Languages whose chess texts write a half point as ½ (7½); the others write their decimal
number (French: 7,5)."""


def format_points(tenths: int | None) -> str:
    """Show points kept in tenths as the page's language writes them: 15 -> '1½' in English,
    '1,5' in French; 10 -> '1', 5 -> '½' or '0,5', None -> '*'."""
    if tenths is None:
        return "*"
    sign = "-" if tenths < 0 else ""
    whole, rest = divmod(abs(tenths), 10)
    if rest == 0:
        return f"{sign}{whole}"
    if rest == 5 and (translation.get_language() or "en").split("-")[0] in HALF_AS_FRACTION:
        return f"{sign}{whole or ''}½"
    return formats.number_format(Decimal(tenths) / 10, decimal_pos=1)


def _number(value) -> str:
    """A number of the engine's (a fraction in a tie-break note, a ``pairing.text.Number``) as
    the page's language writes it: ``1.5`` / ``1,5``, ``0.25`` / ``0,25``, ``2``."""
    from pairing.tiebreaks import format_value

    return formats.number_format(value if isinstance(value, str) else format_value(value))


def translator() -> Translator:
    """The engine's sentences said in the active language (Django's catalogue)."""
    return Translator(gettext=gettext, ngettext=ngettext, points=format_points, number=_number)


def say(text: str) -> str:
    """One sentence the engine wrote (a marked constant or a ``pairing.text.Text``), in the
    active language."""
    return translator().text(text)


def error_said(error: Exception) -> str | None:
    """The engine's reason for a ``PairingError`` in the active language, or None when it was
    written in English only (``str(error)`` then)."""
    message = error.args[0] if len(error.args) == 1 else None
    return say(message) if isinstance(message, Text) else None


def engine_said(error: Exception) -> str:
    """The engine's reason (a ``PairingError``: a TRF file, a tie-break list, a pairing) in the
    request's language where the engine wrote it as a ``pairing.text.Text``, else as written."""
    return error_said(error) or str(error)


class Said(str):
    """A sentence in the request's language that keeps its English (``english``): what is
    shown now, and what the audit trail stores (``tournaments.audit`` translates it when shown).

    ``Said(gettext_noop("... %(name)s ..."), name=value)``: a value may be ``Said`` itself.
    """

    english: str

    def __new__(cls, template: str, **params):
        shown = _(template) % params if params else _(template)
        said = super().__new__(cls, shown)
        said.english = (
            template % {key: english(value) for key, value in params.items()}
            if params else template
        )
        return said

    @classmethod
    def shown_as(cls, shown: str, in_english: str) -> Said:
        """A sentence said elsewhere (the engine's, through :func:`say`)."""
        said = super().__new__(cls, shown)
        said.english = in_english
        return said


def english(text):
    """The English of a ``Said`` sentence; any other value as it is."""
    return getattr(text, "english", text)


def in_english(text) -> str:
    """Return a marked text (lazy, or a ``gettext_noop`` constant) in English: what the
    audit trail stores, whatever the language of the request (it is translated when shown)."""
    with translation.override("en"):
        return str(text)


def labelled(label, text) -> str:
    """Return ``label: text`` as the language writes it (French puts a space before the colon)."""
    return _("%(label)s: %(text)s") % {"label": label, "text": text}


def quoted(text: str) -> str:
    """Return text fit to quote in a message: control characters shown as escapes, cut short."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= 40 else text[:39] + "…"
