"""The audit trail as people read it: what changed in an entry, not the data it stores.

An ``AuditEntry`` keeps ``before`` and ``after`` as stored by the services (a player's or a
game's fields, the rows of a round, TPNs by player, a name); the page shows only their
differences: the fields that changed, the rows that went and came, a value set or removed.
The CSV export keeps the full data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


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
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_shown(v)}" for k, v in value.items())
    return str(value)


def _pair(row) -> str:
    """A round's row without its board number ('3. A - B 1-0' -> 'A - B 1-0')."""
    return re.sub(r"\A\d+\. ", "", str(row))


def differences(before, after, names: dict[str, str] | None = None) -> list[Change]:
    """Return what changed from ``before`` to ``after``.

    Dicts: each key whose value differs (a key that is a player's id is shown as the player's
    name, from ``names``). Lists (a round's rows): the rows removed, then the rows added, each
    alone (a row that only moved to another board is left out). Anything else: the value
    before and after, when they differ.
    """
    names = names or {}
    if isinstance(before, dict) or isinstance(after, dict):
        old = before if isinstance(before, dict) else {}
        new = after if isinstance(after, dict) else {}
        changes = []
        for key in [*old, *(k for k in new if k not in old)]:
            if old.get(key) != new.get(key):
                label = names.get(str(key), str(key).replace("_", " "))
                changes.append(Change(label, _shown(old.get(key)), _shown(new.get(key))))
        return changes
    if isinstance(before, list) or isinstance(after, list):
        old_rows, new_rows = before or [], after or []
        if not isinstance(old_rows, list) or not isinstance(new_rows, list):
            return [Change("", _shown(before), _shown(after))]
        # A row that only moved to another board is no change: compare them without it.
        kept_old, kept_new = set(map(_pair, new_rows)), set(map(_pair, old_rows))
        gone = [Change("", str(row), "") for row in old_rows if _pair(row) not in kept_old]
        came = [Change("", "", str(row)) for row in new_rows if _pair(row) not in kept_new]
        return gone + came
    if _shown(before) == _shown(after):
        return []
    return [Change("", _shown(before), _shown(after))]
