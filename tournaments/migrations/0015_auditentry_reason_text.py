"""The audit trail keeps the sentences the services add as data (issue 24).

Entries written before kept them in English only, and the audit page read them back with
regular expressions over the templates below. This migration reads each of those entries once,
the same way, and stores what it finds as data (``reason_text``, and the rows of a round in
``before`` and ``after``), so that the page says every entry in its reader's language without
reading English back. The English ``reason`` stays as it was.
"""

import re

from django.db import migrations, models

TEMPLATES = (
    "%(document)s Art. %(number)s",
    "%(player)s is not a player",
    "%(player)s is paired more than once",
    "%(player)s is not paired",
    "%(player)s is withdrawn or absent in round %(round)s but paired",
    "PAB to %(player)s with an even number of players to pair",
    "%(player)s already had a PAB or scored a win without playing, and cannot get the PAB",
    "%(white)s and %(black)s already played",
    "%(white)s and %(black)s both have an absolute preference for White",
    "%(white)s and %(black)s both have an absolute preference for Black",
    "%(white)s and %(black)s must not be paired in round %(round)s",
    "admitted into round %(number)s, already paired: not yet on a board",
    "half-point byes for the rounds missed: %(rounds)s",
    "TPNs stay frozen: round %(number)s has been paired (C.04.2 Art. 2.3); the new rating counts "
    "for standings and tie-breaks.",
    "TPNs recomputed from the corrected initial order (round %(number)s is not paired yet, "
    "C.04.2 Art. 2.3); paired rounds keep their games.",
    "%(article)s (absolute colour rule): %(tpn)s would have %(what)s",
    "a colour difference of %(difference)+d with White",
    "a colour difference of %(difference)+d with Black",
    "player %(tpn)s is paired twice",
    "player %(tpn)s is not to be paired in match %(number)s",
    "player %(tpn)s is left without a pairing",
    "[C1] %(white)s and %(black)s have already played a match",
    "[C2] %(tpn)s may not receive the pairing-allocated bye",
)
"""The sentences with values the services stored in a reason until this migration."""

CONSTANTS = (
    "before the next pairing",
    "after the next pairing, before the end of the next round",
    "after the end of the next round",
    "TPNs recomputed from the corrected initial order (C.04.2 Art. 2.2, 2.3).",
    "White three times in a row",
    "Black three times in a row",
    "Accidental pairing of two participants who have already played each other",
    "The rules of the competition allow the Chief Arbiter to modify the pairings",
    "Two participants close in the standings are without an opponent and agree to play",
    "A late entry is admitted; the changes are minimal and agreed by all involved",
    "Unforeseeable circumstances affect the top boards of the final round",
    "Withdraws from the tournament (C.04.2 Art. 3.2)",
    "Announced absence for this round (Art. 3.3)",
    "Requested half-point bye",
    "Requested zero-point bye",
    "Requested full-point bye",
    "Pairing-allocated bye",
    "Absent",
    "prohibited pairing (TRF 260/XXP)",
)
"""The sentences without values the services stored."""

LISTED = "%(first)s; %(second)s"
LABELLED = "%(label)s: %(text)s"
NOTED = "%(text)s [%(note)s]"
WARNINGS_ACCEPTED = "%(reason)s | warnings accepted: %(warnings)s"

_VALUES = {
    "document": r"C\.\d\d\.\d", "number": r"\d[\d.]*", "tpn": r"\d+", "player": r"\d+",
    "white": r"\d+", "black": r"\d+", "round": r"\d+", "rounds": r"\d+(?:, \d+)*",
    "difference": r"[-+]\d+",
}
_PLACEHOLDER = re.compile(r"%\((\w+)\)([-+ #0]*\d*[sdr])")
_BRACKETED = re.compile(r"(.*) \[([^\[\]]*)\]", re.DOTALL)


def _patterns():
    found = []
    for template in sorted(TEMPLATES, key=lambda t: -len(_PLACEHOLDER.sub("", t))):
        pattern, kinds, last = "", {}, 0
        for match in _PLACEHOLDER.finditer(template):
            pattern += re.escape(template[last:match.start()])
            pattern += f"(?P<{match[1]}>{_VALUES.get(match[1], '.+?')})"
            kinds[match[1]] = match[2][-1]
            last = match.end()
        pattern += re.escape(template[last:])
        found.append((template, re.compile(pattern, re.DOTALL), kinds))
    return found


PATTERNS = _patterns()


def text(template, **values):
    return {"text": template, "count": None, "values": values}


def read(stored):
    """What an English sentence of the services becomes as data (``pairing.text.Text``), or
    the string itself when it holds none (a name, the arbiter's words)."""
    if not isinstance(stored, str) or not stored:
        return stored
    if stored in CONSTANTS:
        return text(stored)
    for template, pattern, kinds in PATTERNS:
        match = pattern.fullmatch(stored)
        if match:
            return text(template, **{
                key: int(value) if kinds[key] == "d" else read(value)
                for key, value in match.groupdict().items()
            })
    if " | warnings accepted: " in stored:
        head, tail = stored.split(" | warnings accepted: ", 1)
        return text(WARNINGS_ACCEPTED, reason=read(head), warnings=read(tail))
    bracketed = _BRACKETED.fullmatch(stored)
    if bracketed:
        return text(NOTED, text=read(bracketed[1]), note=read(bracketed[2]))
    if "; " in stored:
        first, *rest = stored.split("; ")
        joined = read(first)
        for part in rest:
            joined = text(LISTED, first=joined, second=read(part))
        return joined
    if ": " in stored:
        head, tail = stored.split(": ", 1)
        said = read(tail)
        if said != tail or read(head) != head:
            return text(LABELLED, label=read(head), text=said)
    return stored


def _has_sentence(value) -> bool:
    return isinstance(value, dict)


BOARD_ROW = "%(board)s. %(white)s - %(black)s %(result)s"
RESULT_LABELS = {
    "1-0": "1-0", "1/2-1/2": "½-½", "0-1": "0-1", "+/-": "+/− (Black forfeits)",
    "-/+": "−/+ (White forfeits)", "-/-": "−/− (double forfeit)", "0/0": "Not played (annulled)",
    "1/2-0": "½-0", "0-1/2": "0-½", "0-0": "0-0",
}
"""The labels of the results a board's row held, as ``Result`` named them."""
_BOARD = re.compile(r"(?P<board>\d+)\. (?P<white>.+?) - (?P<black>.+) (?P<result>\S+)", re.DOTALL)


def row(stored):
    """A round's row: a board (``3. A - B 1/2-1/2``) or a row without Black (``A: Absent``)."""
    if not isinstance(stored, str):
        return stored
    board = _BOARD.fullmatch(stored)
    if board and (board["result"] in RESULT_LABELS or board["result"] == "*"):
        result = board["result"]
        return text(
            BOARD_ROW, board=int(board["board"]), white=board["white"], black=board["black"],
            result=text(RESULT_LABELS[result]) if result != "*" else "*",
        )
    return read(stored) if ": " in stored else stored


def rows(value):
    if isinstance(value, list):
        return [row(r) for r in value]
    return value


def forward(apps, schema_editor):
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    for entry in AuditEntry.objects.iterator():
        if entry.action in ("enter result", "change result"):  # the board, as its row
            reason = row(entry.reason)
        else:
            reason = read(entry.reason)
        before, after = rows(entry.before), rows(entry.after)
        changed = []
        if _has_sentence(reason):
            entry.reason_text = reason
            changed.append("reason_text")
        if before != entry.before:
            entry.before = before
            changed.append("before")
        if after != entry.after:
            entry.after = after
            changed.append("after")
        if changed:
            entry.save(update_fields=changed)


def backward(apps, schema_editor):
    """The rows of a round back to English (the reason keeps its English anyway)."""
    AuditEntry = apps.get_model("tournaments", "AuditEntry")

    def english(value):
        if isinstance(value, dict) and set(value) == {"text", "count", "values"}:
            return value["text"] % {k: english(v) for k, v in value["values"].items()}
        if isinstance(value, list):
            return [english(v) for v in value]
        return value

    for entry in AuditEntry.objects.iterator():
        entry.before, entry.after = english(entry.before), english(entry.after)
        entry.save(update_fields=["before", "after"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0014_field_names_marked_for_translation"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="reason_text",
            field=models.JSONField(
                blank=True,
                help_text="The reason as a sentence kept as data (pairing.text.Text.as_data), "
                "said to each reader in their language; empty when the reason is the arbiter's "
                "words alone.",
                null=True,
            ),
        ),
        migrations.RunPython(forward, backward),
    ]
