"""Audit entries written before the sentences were kept as data (migration 0015) are read once
into data and said in the reader's language, as the page used to say them."""

from __future__ import annotations

import importlib

import pytest
from django.utils import translation

from tournaments import audit

migration = importlib.import_module("tournaments.migrations.0015_auditentry_reason_text")

OLD = {
    "admitted into round 3, already paired: not yet on a board; half-point byes for the rounds "
    "missed: 1, 2": "admis à la ronde 3, déjà appariée : pas encore sur un échiquier ; "
    "exemptions d’un demi-point pour les rondes manquées : 1, 2",
    "the sheet: 3 [before the next pairing]": "the sheet: 3 [avant l’appariement suivant]",
    "Dupont, Marie: Requested half-point bye":
        "Dupont, Marie : Exemption demandée d’un demi-point",
    "C.04.1 Art. 6 (absolute colour rule): 5 would have a colour difference of +3 with White":
        "C.04.1 art. 6 (règle absolue des couleurs) : 5 aurait une différence de couleurs de +3 "
        "avec les Blancs",
    "Two participants close in the standings are without an opponent and agree to play: Board 4 "
    "| warnings accepted: C.04.3 Art. 2.1.1 [C1]: 1 and 5 already played":
        "Deux participants proches au classement sont sans adversaire et acceptent de jouer : "
        "Board 4 | avertissements acceptés : C.04.3 art. 2.1.1 [C1] : 1 et 5 se sont déjà "
        "rencontrés",
    "liste [TPNs stay frozen: round 4 has been paired (C.04.2 Art. 2.3); the new rating counts "
    "for standings and tie-breaks.]": "liste [Les numéros d’appariement restent figés",
}


@pytest.mark.parametrize("stored", list(OLD))
def test_an_old_reason_is_read_into_data_and_said_in_french(stored):
    data = migration.read(stored)
    assert audit.is_sentence(data)
    assert audit.in_english(data) == stored  # the English is the one stored
    with translation.override("fr"):
        assert audit.shown(data).startswith(OLD[stored])


def test_the_arbiters_own_words_stay_as_they_are():
    for words in ("Round 4 was paired by hand: see the sheet", "3-5 swapped", ""):
        assert migration.read(words) == words


def test_the_rows_of_a_round_are_read_into_data():
    rows = ["3. Dupont - Keller 1/2-1/2", "4. Lee - Roe +/-", "Lee, Ann: Absent", "5. odd row"]
    read = migration.rows(rows)
    assert [audit.is_sentence(r) for r in read] == [True, True, True, False]
    with translation.override("fr"):
        assert [audit.shown(r) for r in read] == [
            "3. Dupont - Keller ½-½", "4. Lee - Roe +/− (forfait des Noirs)",
            "Lee, Ann : Absent", "5. odd row",
        ]
