"""The engine's sentences, said in English here and in the reader's language by the web app.

Deferred translation, as Python's ``gettext`` documentation describes it: each sentence is a
format string with named placeholders (``%(player)s``), marked where it is written with
``gettext_noop`` (or ``ngettext_lazy`` when it depends on a count), two names Django's
``makemessages`` extracts. The engine never imports Django: it renders through a
``Translator``, English by default (the command line and the tests read exactly that), and the
web app passes one built on Django's ``gettext`` and ``ngettext``.

A sentence made once and shown later (a checker's violation, a tie-break note) is a ``Text``:
a ``str`` holding the English rendering, which also remembers its template and values so that
``Translator.say`` can render it again in another language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = [
    "ENGLISH", "Number", "Plural", "Text", "Translator", "concat", "gettext_noop",
    "ngettext_lazy",
]


def gettext_noop(message: str) -> str:
    """Mark a sentence for translation; it stays as it is until a ``Translator`` says it."""
    return message


@dataclass(frozen=True)
class Plural:
    """A sentence with a singular and a plural form, chosen by a count."""

    singular: str
    plural: str


def ngettext_lazy(singular: str, plural: str) -> Plural:
    """Mark a sentence that depends on a count (its forms are chosen when it is said)."""
    return Plural(singular, plural)


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _identity(message: str) -> str:
    return message


def points_text(score: int, *, half: bool = True, decimal_mark: str = ".") -> str:
    """A score (tenths of a point) as people write it: the one way for pages, explanations and
    the engine's sentences (TRF files and the API have formats of their own).

    >>> points_text(15), points_text(20), points_text(23), points_text(5), points_text(-5)
    ('1½', '2', '2.3', '½', '-½')
    >>> points_text(15, half=False, decimal_mark=",")   # where halves are written as decimals
    '1,5'
    """
    sign = "-" if score < 0 else ""
    whole, tenth = divmod(abs(score), 10)
    if tenth == 0:
        return f"{sign}{whole}"
    if tenth == 5 and half:
        return f"{sign}{whole if whole else ''}½"
    return f"{sign}{whole}{decimal_mark}{tenth}"


def english_points(score: int) -> str:
    """1.5 points as ``1½``, 2 as ``2``, 2.3 as ``2.3``: how arbiters write scores."""
    return points_text(score)


@dataclass(frozen=True)
class Translator:
    """How sentences are said: the catalogue's ``gettext`` and ``ngettext``, and how scores
    (in tenths of a point) and other numbers are written. ``ENGLISH`` is the engine's own."""

    gettext: Callable[[str], str] = _identity
    ngettext: Callable[[str, str, int], str] = _english_plural
    points: Callable[[int], str] = english_points
    number: Callable[[object], str] = str
    """For the values of a ``Text`` that are numbers: fractions (tie-break notes) and
    ``Number`` (a decimal as the engine writes it, ``2.5``)."""

    def say(
        self, template: str | Plural, count: int | None = None, /, **values: object
    ) -> str:
        """The sentence in this language, its placeholders filled with ``values``."""
        if isinstance(template, Plural):
            if count is None:
                raise ValueError("a plural sentence needs its count")
            pattern = self.ngettext(template.singular, template.plural, count)
        else:
            pattern = self.gettext(template)
        if not values:
            return pattern
        return pattern % {name: self.value(v) for name, v in values.items()}

    def value(self, v: object) -> object:
        """A placeholder's value: a ``Text`` said again, a fraction as a number."""
        if isinstance(v, Text):
            return v.said(self)
        if isinstance(v, (Fraction, Number)):
            return self.number(v)
        return v

    def text(self, text: str) -> str:
        """Any sentence the engine wrote: a ``Text`` said again, else a marked constant."""
        if isinstance(text, Text):
            return text.said(self)
        return self.gettext(text) if text else text


ENGLISH = Translator()


class Number(str):
    """A decimal number as the engine writes it (``2.5``, ``1.0``), which a ``Translator``
    writes as its language does (``2,5``)."""

    __slots__ = ()


class Text(str):
    """A sentence made now and perhaps said later in another language: the English text, with
    its template and values."""

    template: str | Plural
    # Shadows str.count (a Text's plural number); Text.count(sub) cannot be called.
    count: int | None  # type: ignore[assignment]
    values: dict[str, object]

    def __new__(
        cls, template: str | Plural, count: int | None = None, /, **values: object
    ) -> Text:
        if isinstance(template, Plural):
            english = ENGLISH.say(template, count, **values)
        else:
            english = template % values if values else template
        self = super().__new__(cls, english)
        self.template, self.count, self.values = template, count, values
        return self

    def said(self, translator: Translator) -> str:
        return translator.say(self.template, self.count, **self.values)

    def as_data(self) -> dict[str, object]:
        """The sentence as JSON-ready data, to be said again later (``Text.from_data``)."""
        t = self.template
        return {
            "text": [t.singular, t.plural] if isinstance(t, Plural) else t,
            "count": self.count,
            "values": {name: _value_data(v) for name, v in self.values.items()},
        }

    @classmethod
    def from_data(cls, data: dict[str, Any] | str) -> str:
        """The inverse of ``as_data`` (a plain string stays one)."""
        if not isinstance(data, dict):
            return data
        if "number" in data:
            return Number(data["number"])
        text = data["text"]
        template = Plural(*text) if isinstance(text, list) else text
        values = {name: cls.from_data(v) for name, v in data["values"].items()}
        return cls(template, data["count"], **values)

    def __reduce__(self) -> tuple[Callable[..., Text], tuple[object, ...]]:
        return (_text, (self.template, self.count, self.values))


CONCAT = "%(first)s%(second)s"
"""Not marked: a ``Text`` put after an indent or another ``Text`` (``concat``)."""


def concat(first: str, second: str) -> Text:
    """``first + second`` that stays a ``Text`` (each part said in its own language)."""
    return Text(CONCAT, first=first, second=second)


def _value_data(v: object) -> object:
    if isinstance(v, Text):
        return v.as_data()
    if isinstance(v, Number):
        return {"number": str(v)}
    if v is None or isinstance(v, (int, str)):
        return str(v) if isinstance(v, str) else v
    return str(v)


def as_data(line: str) -> dict[str, object] | str:
    """A sentence as JSON-ready data: a ``Text`` with its template and values, else itself."""
    return line.as_data() if isinstance(line, Text) else str(line)


def _text(template: str | Plural, count: int | None, values: dict[str, object]) -> Text:
    return Text(template, count, **values)
