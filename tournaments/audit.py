"""The audit trail as people read it: what changed in an entry, not the data it stores.

An ``AuditEntry`` keeps ``before`` and ``after`` as stored by the services (a player's or a
game's fields, the rows of a round, TPNs by player, a name); the page shows only their
differences: the fields that changed, the rows that went and came, a value set or removed.
The CSV export keeps the full data.

What is stored is in one language, English (action codes, field names), and the sentences the
services add are stored as data (``pairing.text.Text``: the template and its values,
``AuditEntry.reason_text``, the rows of a round); the page says them in its reader's language
(``action_label``, ``shown``, field labels and values in ``differences``). The arbiter's own
words stay as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _, pgettext, pgettext_lazy

from pairing.text import Text
from tournaments.sentences import say

ACTIONS = {
    "create tournament": pgettext_lazy("audit action", "create tournament"),
    "update tournament": pgettext_lazy("audit action", "update tournament"),
    "add arbiter": pgettext_lazy("audit action", "add arbiter"),
    "add player": pgettext_lazy("audit action", "add player"),
    "update player": pgettext_lazy("audit action", "update player"),
    "remove player": pgettext_lazy("audit action", "remove player"),
    "renumber players": pgettext_lazy("audit action", "renumber players"),
    "draw initial colour": pgettext_lazy("audit action", "draw initial colour"),
    "admit late entry": pgettext_lazy("audit action", "admit late entry"),
    "withdraw": pgettext_lazy("audit action", "withdraw"),
    "reinstate": pgettext_lazy("audit action", "reinstate"),
    "request bye": pgettext_lazy("audit action", "request bye"),
    "cancel bye": pgettext_lazy("audit action", "cancel bye"),
    "pair round": pgettext_lazy("audit action", "pair round"),
    "unpair round": pgettext_lazy("audit action", "unpair round"),
    "publish round": pgettext_lazy("audit action", "publish round"),
    "unpublish round": pgettext_lazy("audit action", "unpublish round"),
    "finish round": pgettext_lazy("audit action", "finish round"),
    "enter result": pgettext_lazy("audit action", "enter result"),
    "change result": pgettext_lazy("audit action", "change result"),
    "import TRF": pgettext_lazy("audit action", "import TRF"),
    "import event": pgettext_lazy("audit action", "import event"),
    "correct result": pgettext_lazy("audit action", "correct result"),
    "correct colours": pgettext_lazy("audit action", "correct colours"),
    "correct rating": pgettext_lazy("audit action", "correct rating"),
    "change published pairing": pgettext_lazy("audit action", "change published pairing"),
    "manual pairing (draft)": pgettext_lazy("audit action", "manual pairing (draft)"),
    "re-pair draft": pgettext_lazy("audit action", "re-pair draft"),
    "refresh from FIDE list": pgettext_lazy("audit action", "refresh from FIDE list"),
    "add category": pgettext_lazy("audit action", "add category"),
    "change category": pgettext_lazy("audit action", "change category"),
    "remove category": pgettext_lazy("audit action", "remove category"),
    "set prizes": pgettext_lazy("audit action", "set prizes"),
}
"""Every action code the services store, as the reader's language names it."""

RATING_ONLY = " (rating only)"


def action_label(action: str) -> str:
    """An entry's action in the reader's language (an unknown code as it is)."""
    base = action.removesuffix(RATING_ONLY)
    label = str(ACTIONS.get(base, base))
    if base != action:  # a correction notified too late, recorded for rating only (Art. 4.3)
        return _("%(action)s (rating only)") % {"action": label}
    return label


FIELDS = {
    "name": pgettext_lazy("audit field", "name"),
    "tpn": pgettext_lazy("audit field", "tpn"),
    "rating": pgettext_lazy("audit field", "rating"),
    "title": pgettext_lazy("audit field", "title"),
    "federation": pgettext_lazy("audit field", "federation"),
    "fide_id": pgettext_lazy("audit field", "fide id"),
    "sex": pgettext_lazy("audit field", "sex"),
    "birth_year": pgettext_lazy("audit field", "birth year"),
    "club": pgettext_lazy("audit field", "club"),
    "arrival_round": pgettext_lazy("audit field", "arrival round"),
    "withdrawn_from_round": pgettext_lazy("audit field", "withdrawn from round"),
    "board": pgettext_lazy("audit field", "board"),
    "white": pgettext_lazy("audit field", "white"),
    "black": pgettext_lazy("audit field", "black"),
    "white_tpn": pgettext_lazy("audit field", "white tpn"),
    "black_tpn": pgettext_lazy("audit field", "black tpn"),
    "result": pgettext_lazy("audit field", "result"),
    "rating_result": pgettext_lazy("audit field", "rating result"),
    "rating_colors_swapped": pgettext_lazy("audit field", "rating colors swapped"),
    "players": pgettext_lazy("audit field", "players"),
    "rounds": pgettext_lazy("audit field", "rounds"),
    "exported_at": pgettext_lazy("audit field", "exported at"),
    "place": pgettext_lazy("audit field", "place"),
    "start_date": pgettext_lazy("audit field", "start date"),
    "end_date": pgettext_lazy("audit field", "end date"),
    "time_zone": pgettext_lazy("audit field", "time zone"),
    "event_type": pgettext_lazy("audit field", "event type"),
    "rating_type": pgettext_lazy("audit field", "rating type"),
    "chief_arbiter": pgettext_lazy("audit field", "chief arbiter"),
    "chief_arbiter_fide_id": pgettext_lazy("audit field", "chief arbiter fide id"),
    "deputy_arbiters": pgettext_lazy("audit field", "deputy arbiters"),
    "time_control": pgettext_lazy("audit field", "time control"),
    "time_control_code": pgettext_lazy("audit field", "time control code"),
    "pairing_system": pgettext_lazy("audit field", "pairing system"),
    "points_win": pgettext_lazy("audit field", "points win"),
    "points_draw": pgettext_lazy("audit field", "points draw"),
    "points_loss": pgettext_lazy("audit field", "points loss"),
    "points_forfeit_win": pgettext_lazy("audit field", "points forfeit win"),
    "points_forfeit_loss": pgettext_lazy("audit field", "points forfeit loss"),
    "points_pairing_bye": pgettext_lazy("audit field", "points pairing bye"),
    "points_half_bye": pgettext_lazy("audit field", "points half bye"),
    "points_full_bye": pgettext_lazy("audit field", "points full bye"),
    "points_zero_bye": pgettext_lazy("audit field", "points zero bye"),
    "allow_full_point_bye": pgettext_lazy("audit field", "allow full point bye"),
    "baku_acceleration": pgettext_lazy("audit field", "baku acceleration"),
    "late_entry_half_point_byes": pgettext_lazy("audit field", "late entry half point byes"),
    "initial_color": pgettext_lazy("audit field", "initial color"),
    "tiebreaks": pgettext_lazy("audit field", "tiebreaks"),
    "status": pgettext_lazy("audit field", "status"),
}
"""The keys the services store in ``before`` / ``after``, as the reader's language names them."""

_FLAGS = {"allow_full_point_bye", "baku_acceleration", "late_entry_half_point_byes",
          "rating_colors_swapped"}


def _choices() -> dict[str, dict[str, str]]:
    """Coded values of the stored fields, by field: their labels (translated when read)."""
    from tournaments.models import Tournament

    return {
        key: dict(Tournament._meta.get_field(key).flatchoices)
        for key in ("pairing_system", "rating_type", "initial_color", "status")
    }


RESULT_FIELDS = frozenset({"result", "rating_result", "second_result"})
"""The stored fields that hold a ``Result`` code (``1/2-1/2``, ``+/-``)."""


def result_label(code: str) -> str:
    """A stored result in the reader's language: ``1/2-1/2`` as ``½-½``; both games of a
    Double-Swiss match (``1-0|1/2-1/2``) as ``1-0 · ½-½``; anything else as it is."""
    from tournaments.models import Result

    labels = dict(Result.choices)
    if "|" in code:
        return " · ".join(str(labels.get(part, part)) if part else "–" for part in code.split("|"))
    return str(labels[code]) if code and code in labels else code


def _values_of(action: str) -> dict[str, str]:
    """Coded values an action stores alone (a bye's kind, a colour, a round's state)."""
    from tournaments.models import ByeRequest, Round, Tournament

    kinds = {
        "draw initial colour": Tournament.InitialColor,
        "request bye": ByeRequest.Kind,
        "cancel bye": ByeRequest.Kind,
        "unpublish round": Round.State,
    }.get(action)
    return dict(kinds.choices) if kinds else {}


_RESULT_ACTIONS = frozenset({"enter result", "change result"})
"""Actions that store a result code alone, before and after."""


def in_language(changes: list[Change], action: str) -> list[Change]:
    """The changes of an entry with ``action`` with their coded values named and the sentences
    the services stored translated (a bye row of a round, for instance)."""
    if action == "add arbiter":  # a username
        return changes
    values = _values_of(action)

    def name(value) -> str:
        if action in _RESULT_ACTIONS and isinstance(value, str):
            return result_label(value)
        return str(values[value]) if isinstance(value, str) and value in values else shown(value)

    return [c if c.what else Change(c.what, name(c.old), name(c.new)) for c in changes]


@dataclass(frozen=True)
class Change:
    """One line of an entry's differences: ``what`` went from ``old`` to ``new`` ('' when
    there was none, or there is none now)."""

    what: str
    old: str
    new: str


def _shown(value) -> str:
    if value is None or value == "":
        return ""
    if value is True:
        return _("yes")
    if value is False:
        return pgettext("a value that is false", "no")
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_shown(v)}" for k, v in value.items())
    return str(value)


def _pair(row) -> str:
    """A round's row without its board number ('3. A - B 1-0' -> 'A - B 1-0')."""
    return re.sub(r"\A\d+\. ", "", str(in_english(row)))


def differences(before, after, names: dict[str, str] | None = None) -> list[Change]:
    """Return what changed from ``before`` to ``after``.

    Dicts: each key whose value differs (a key that is a player's id is shown as the player's
    name, from ``names``). Lists (a round's rows): the rows removed, then the rows added, each
    alone (a row that only moved to another board is left out). Anything else: the value
    before and after, when they differ.
    """
    names = names or {}
    if is_sentence(before) or is_sentence(after):
        return [] if before == after else [Change("", before or "", after or "")]
    if isinstance(before, dict) or isinstance(after, dict):
        old = before if isinstance(before, dict) else {}
        new = after if isinstance(after, dict) else {}
        changes = []
        for key in [*old, *(k for k in new if k not in old)]:
            if old.get(key) != new.get(key):
                label = names.get(str(key)) or str(FIELDS.get(key, str(key).replace("_", " ")))
                changes.append(Change(label, _value(key, old.get(key)), _value(key, new.get(key))))
        return changes
    if isinstance(before, list) or isinstance(after, list):
        old_rows, new_rows = before or [], after or []
        if not isinstance(old_rows, list) or not isinstance(new_rows, list):
            return [Change("", _shown(before), _shown(after))]
        # A row that only moved to another board is no change: compare them without it.
        kept_old, kept_new = set(map(_pair, new_rows)), set(map(_pair, old_rows))
        gone = [Change("", row, "") for row in old_rows if _pair(row) not in kept_old]
        came = [Change("", "", row) for row in new_rows if _pair(row) not in kept_new]
        return gone + came
    if _shown(before) == _shown(after):
        return []
    return [Change("", _shown(before), _shown(after))]


def _value(key, value) -> str:
    """A stored field's value as the reader's language writes it: a choice by its label, a flag
    (stored as ``True`` or as the text ``"True"``) as yes or no."""
    if key in _FLAGS and value in ("True", "False"):
        value = value == "True"
    if key in RESULT_FIELDS and isinstance(value, str):
        return result_label(value)
    choices = _choices().get(key, {})
    if isinstance(value, str) and value in choices:
        return str(choices[value])
    return _shown(value)


# ---------------------------------------------------------------------------------------------
# Sentences stored as data, said in the reader's language


def is_sentence(value) -> bool:
    """Whether a stored value is a sentence kept as data (``pairing.text.Text.as_data``)."""
    return isinstance(value, dict) and set(value) == {"text", "count", "values"}


def shown(value):
    """A value the audit trail stored, in the reader's language: a sentence kept as data said
    anew, a constant the services stored in English (``manual (draft)``) translated, anything
    else (a name, the arbiter's own words) as written."""
    if is_sentence(value):
        return say(Text.from_data(value))
    if isinstance(value, str) and value:
        return _(value)
    return value


def in_english(value):
    """A stored value with each sentence in English, as the CSV export writes it."""
    if is_sentence(value):
        return str(Text.from_data(value))
    if isinstance(value, list):
        return [in_english(v) for v in value]
    if isinstance(value, dict):
        return {k: in_english(v) for k, v in value.items()}
    return value


def reason(entry) -> str:
    """An entry's reason in the reader's language (the arbiter's own words as written)."""
    return shown(entry.reason_text) if entry.reason_text is not None else shown(entry.reason)


def subject(entry) -> str:
    """The board and players an entry about one game speaks of (its ``before`` or ``after``
    holds the game's data: a correction), as the reader's language says them; else ''."""
    data = entry.after if isinstance(entry.after, dict) else entry.before
    if not isinstance(data, dict) or not data.get("board") or not data.get("black"):
        return ""
    return _("Board %(board)s: %(white)s – %(black)s") % {
        "board": data["board"], "white": data.get("white", ""), "black": data["black"],
    }
