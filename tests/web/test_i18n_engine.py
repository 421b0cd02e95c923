"""The engine's own sentences in French (issue 20): the player card's "Why this pairing?", the
arbiter's table per bracket, the checker's report and the tie-break notes, with no English
left; and every sentence the engine marks for translation has its French entry."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse

from pairing.dutch.explanation import RoundExplanation
from tournaments import services

from .test_explain import played
from .test_i18n import FR, PO, english_left, visible_text

pytestmark = pytest.mark.django_db

PAIRING = Path(settings.BASE_DIR) / "pairing"


def french(text: str, t) -> list[str]:
    """The English words left in a French text, once the players' names are taken out."""
    for name in t.players.values_list("name", flat=True):
        text = text.replace(name, " ")
    return english_left(text, t)


def part(html: str, start: str, end: str) -> str:
    """The page's part that opens with ``start`` and closes at the first ``end`` after it."""
    assert start in html, start
    return html.split(start, 1)[1].split(end, 1)[0]


def test_the_player_card_says_why_in_french(client, arbiter):
    t = played(arbiter, players=9, rounds=4, played_rounds=2)
    rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
    why = RoundExplanation.from_dict(rnd.explanation_data)
    pk = {int(tpn): p for tpn, p in rnd.explanation_data["players"].items()}
    down = {d.tpn for b in why.brackets for d in b.downfloats}
    across = {tpn for b in why.brackets for c in b.choices for tpn in (c.tpn, c.opponent)
              if why.scores[c.tpn] != why.scores[c.opponent]}
    own = {tpn for b in why.brackets for c in b.choices for tpn in (c.tpn, c.opponent)} - across
    assert why.bye is not None and down and across and own, why  # every kind of sentence
    cases = {"bye": why.bye, "moved down": min(down - {why.bye}, default=why.bye),
             "across groups": min(across), "own group": min(own)}
    seen = {}
    for case, tpn in cases.items():
        page = client.get(reverse("public-player", args=[t.pk, pk[tpn]]), **FR).content.decode()
        card = visible_text(part(page, '<section class="why"', "</section>"))
        round_part = card.split(f"Ronde {rnd.number}", 1)[1].split("Ronde ", 1)[0]
        assert round_part.strip(), (case, card)
        assert french(card, t) == [], (case, card)
        seen[case] = round_part
    assert "Vous avez reçu l’exemption attribuée par l’appariement" in seen["bye"]
    assert "Vous avez flotté vers le groupe suivant" in seen["moved down"]
    assert "Art. 3.3.3, 4.2" in seen["across groups"]
    assert "moitié" in seen["own group"] and "(Art. 4.2)" in seen["own group"]
    english = client.get(reverse("public-player", args=[t.pk, pk[why.bye]])).content.decode()
    assert "You received the pairing-allocated bye: the lowest score" in english
    assert 'lang="en"' not in part(page, '<section class="why"', "</section>")


def test_the_arbiters_table_per_bracket_in_french(client, arbiter):
    t = played(arbiter, players=9, rounds=4, played_rounds=2)
    rnd = services.pair_next_round(t, arbiter)
    client.force_login(arbiter)

    page = client.get(reverse("arbiter-round", args=[t.pk, rnd.number]), **FR).content.decode()
    table = visible_text(part(page, '<div class="why-round">', "</div>"))

    assert "Groupe de score" in table and "Résidents" in table and "rencontre" in table
    assert "Exemption attribuée par l’appariement :" in table
    assert french(table, t) == [], table
    english = client.get(reverse("arbiter-round", args=[t.pk, rnd.number])).content.decode()
    assert "Residents" in english and "Pairing-allocated bye:" in english


# ---------------------------------------------------------------------------------------------
# Every marked sentence has its French


def marked_sentences() -> list[tuple[str, str | None]]:
    """(msgid, msgid_plural) of every ``gettext_noop``/``ngettext_lazy`` call in ``pairing``."""
    found = []
    for path in sorted(PAIRING.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in ("gettext_noop", "ngettext_lazy"):
                continue
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            assert len(args) == len(node.args) and args, f"{path}: {ast.unparse(node)}"
            found.append((args[0], args[1] if name == "ngettext_lazy" else None))
    return found


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"%\(\w+\)[sd]", text))


def test_every_engine_sentence_has_its_french():
    marked = marked_sentences()
    assert len(marked) >= 20, marked
    po = {e.msgid: e for e in polib.pofile(str(PO)) if not e.msgctxt}
    for msgid, plural in marked:
        entry = po.get(msgid)
        assert entry is not None and entry.translated() and not entry.fuzzy, msgid
        assert entry.msgid_plural == (plural or ""), msgid
        french_forms = entry.msgstr_plural.values() if plural else [entry.msgstr]
        for form in french_forms:
            assert placeholders(form) == placeholders(msgid), (msgid, form)
            assert re.findall(r"Art\. [\d.]+|\[C\d+\]|C\.\d\d", form) == re.findall(
                r"Art\. [\d.]+|\[C\d+\]|C\.\d\d", msgid), (msgid, form)  # articles kept
