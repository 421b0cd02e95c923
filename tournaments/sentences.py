"""Sentences and numbers in the reader's language: one home for how the app says things.

One type of sentence for the engine and the web app: ``pairing.text.Text``, the English text
that keeps its template and values. :func:`say` says one in the active language,
:func:`engine_said` an engine error; the audit trail stores a ``Text`` as data
(``Text.as_data``) and says it to each reader in their language. A refusal of the services is
said at once, with Django's ``gettext``. Points are
written one way for people (:func:`format_points`); files (TRF) and the API keep their own
formats, which belong to those formats.

This module sits at the bottom of the app, beside the models: it imports no other module of
``tournaments``.
"""

from __future__ import annotations

from django.utils import formats, translation
from django.utils.translation import gettext, gettext as _, gettext_noop, ngettext

from pairing.text import Text, Translator, points_text

HALF_AS_FRACTION = {"en"}
"""Languages whose chess texts write a half point as ½ (7½); the others write their decimal
number (French: 7,5)."""


def format_points(tenths: int | None) -> str:
    """Show points kept in tenths as the page's language writes them: 15 -> '1½' in English,
    '1,5' in French; 10 -> '1', 5 -> '½' or '0,5', None -> '*'."""
    if tenths is None:
        return "*"
    return points_text(
        tenths,
        half=(translation.get_language() or "en").split("-")[0] in HALF_AS_FRACTION,
        decimal_mark=formats.get_format("DECIMAL_SEPARATOR"),
    )


def number(value) -> str:
    """A number of the engine's (a fraction in a tie-break note, a ``pairing.text.Number``), or
    one already written as text ("0.01"), as the page's language writes it: ``1.5`` / ``1,5``,
    ``0.25`` / ``0,25``, ``2``."""
    from pairing.tiebreaks import format_value

    return formats.number_format(value if isinstance(value, str) else format_value(value))


def translator() -> Translator:
    """The engine's sentences said in the active language (Django's catalogue)."""
    return Translator(gettext=gettext, ngettext=ngettext, points=format_points, number=number)


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


LISTED = gettext_noop("%(first)s; %(second)s")
"""Two sentences one after the other."""
LABELLED = gettext_noop("%(label)s: %(text)s")
"""A sentence after what it is about (a name, a kind)."""
NOTED = gettext_noop("%(text)s [%(note)s]")
"""A sentence with a note (when a correction was notified, what it changed)."""


def listed(texts: list[str]) -> str:
    """The sentences one after the other, as one ``Text`` that says each in its language."""
    if not texts:
        return ""
    joined = texts[0]
    for text in texts[1:]:
        joined = Text(LISTED, first=joined, second=text)
    return joined


def noted(text: str, note: str) -> Text:
    """``text [note]``: the arbiter's words and what the app adds, each said in its language."""
    return Text(NOTED, text=text, note=note)


def about(label: str, text: str) -> Text:
    """``label: text``, kept to be said later in the reader's language (``labelled`` says it
    now)."""
    return Text(LABELLED, label=label, text=text)


def in_english(text) -> str:
    """Return a marked text (lazy, or a ``gettext_noop`` constant) in English: what the
    audit trail stores, whatever the language of the request (it is translated when shown)."""
    with translation.override("en"):
        return str(text)


def labelled(label, text) -> str:
    """Return ``label: text`` as the language writes it (French puts a space before the colon)."""
    return _(LABELLED) % {"label": label, "text": text}


def quoted(text: str) -> str:
    """Return text fit to quote in a message: control characters shown as escapes, cut short."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= 40 else text[:39] + "…"
