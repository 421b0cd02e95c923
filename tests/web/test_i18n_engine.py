"""The engine's own sentences in French (issue 20): the player card's "Why this pairing?", the
arbiter's table per bracket, the checker's report and the tie-break notes, with no English
left; and every sentence the engine marks for translation has its French entry."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from pairing.dutch.explanation import RoundExplanation
from pairing.trf import read_trf
from tournaments import checker, explain, sentences, services
from tournaments.models import Game, Result
from tournaments.services import pairing_changes

from .conftest import make_tournament
from .test_clock import clock_event, play as play_clock
from .test_double_swiss import play as play_match
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
    return html.split(start, 1)[1].split(">", 1)[1].split(end, 1)[0]


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
    assert "art. 3.3.3, 4.2" in seen["across groups"]
    assert "moitié" in seen["own group"] and "(art. 4.2)" in seen["own group"]
    english = client.get(reverse("public-player", args=[t.pk, pk[why.bye]])).content.decode()
    assert "You received the pairing-allocated bye: the lowest score" in english
    assert 'lang="en"' not in part(page, '<section class="why"', "</section>")


def test_the_candidates_passed_over_are_said_in_french():
    from pairing.dutch.engine import COLOURS, MET_BEFORE, NOT_LOOKED_FOR, WORSE
    from pairing.dutch.explanation import BracketReport, Choice

    why = RoundExplanation(round=3, brackets=(BracketReport(
        score=20, residents=(1, 2, 3, 4, 5, 6), s1=(1, 2, 3), s2=(4, 5, 6),
        choices=(Choice(1, 6, ((4, MET_BEFORE), (5, COLOURS))), Choice(2, 4, ((5, WORSE),)),
                 Choice(3, 5, ((6, NOT_LOOKED_FOR),))),
    ),), scores=dict.fromkeys(range(1, 7), 20))

    assert why.for_player(1) == [
        "In the 2-point group you were in the upper half (S1) and met 6 (Art. 4.2). Passed over 4: "
        f"{MET_BEFORE}. Passed over 5: {COLOURS}."]
    with translation.override("fr"):
        said = [why.for_player(tpn, sentences.translator()) for tpn in (1, 2, 3)]
    assert said[0] == [
        "Dans le groupe de score 2, vous étiez dans la moitié supérieure (S1) et avez rencontré 6 "
        "(art. 4.2). Candidats écartés : 4 — déjà rencontré ([C1]). Candidats écartés : 5 — les "
        "préférences de couleur sont mieux respectées sans cette paire ([C12])."]
    # a round stored before the criterion was named keeps its sentence, in French too
    assert said[1][0].endswith(
        "Candidats écartés : 5 — les critères de qualité [C4]-[C21] sont mieux respectés sans "
        "cette paire.")
    # a reason the explanation did not look for says so
    assert said[2][0].endswith(
        "Candidats écartés : 6 — écartée par un critère de [C4]-[C21] ou par l’ordre des "
        "art. 4.2-4.4 ; lequel n’a pas été recherché, la ronde écartant plus de candidats que "
        "l’explication n’en examine.")


def test_the_points_after_a_score_as_each_language_says_them():
    said = {}
    for language in ("en", "fr"):
        with translation.override(language):
            said[language] = [explain.Person("A", 1, "", t).unit for t in (0, 5, 10, 15, 20)]
    assert said == {"en": ["pts", "pts", "pt", "pts", "pts"], "fr": ["pt", "pt", "pt", "pt", "pts"]}


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
# The checker


def rematch_in_round_2(arbiter):
    """Round 1 played; round 2 changed by hand so that two players of round 1 meet again."""
    t = played(arbiter, players=9, rounds=4, played_rounds=1)
    first = Game.objects.filter(round__tournament=t, round__number=1).exclude(black=None).first()
    a, b = first.white.tpn, first.black.tpn
    rnd = services.pair_next_round(t, arbiter)
    boards, bye = pairing_changes.parse_pairing(pairing_changes.pairing_text(rnd))
    left = [p for pair in boards for p in pair if p not in (a, b)]
    left += [bye] if bye not in (None, a, b) else []
    boards = [(a, b)] + [(left[i], left[i + 1]) for i in range(0, len(left) - 1, 2)]
    pairing_changes.change_pairing(rnd, arbiter, boards=boards,
                                   bye=left[-1] if len(left) % 2 else None, accept_warnings=True)
    services.publish_round(rnd, arbiter)
    games = [g for g in rnd.games.order_by("board") if g.board is not None]
    services.set_results(rnd, arbiter, {g.pk: "1-0" for g in games})
    services.finish_round(rnd, arbiter)
    return t, (a, b)


def test_the_checkers_report_in_french(client, arbiter):
    t, (a, b) = rematch_in_round_2(arbiter)
    trf = SimpleUploadedFile("event.trf", services.export_trf(t).encode())

    page = client.post("/check/", {"file": trf}, follow=True, **FR).content.decode()
    report = visible_text(part(page, '<section class="check-report"', "</section>"))

    assert "Rondes appariées selon les règles : 1 sur 2" in report, report
    assert "Ronde 2 : autres paires" in report and "Selon les règles, à la place :" in report
    assert "L’appariement du fichier enfreint :" in report
    assert re.search(rf"C\.04\.3 art\. 2\.1\.1 \[C1\] : ({a} et {b}|{b} et {a}) se sont déjà "
                     "rencontrés", report), report
    assert "Pourquoi les règles apparient ainsi la ronde 2" in report and "Résidents" in report
    assert french(report, t) == [], report
    assert 'lang="en"' not in part(page, '<section class="check-report"', "</section>")


def test_why_the_engine_cannot_pair_a_round_in_french(arbiter):
    from pairing.dutch import pair_round
    from pairing.errors import NoValidPairing

    t = played(arbiter, players=2, rounds=3, played_rounds=1)  # they met in round 1
    state = services.build_engine_state(t).tournament
    with pytest.raises(NoValidPairing) as raised:
        pair_round(state)
    with translation.override("fr"):
        check = checker._failed(2, raised.value)
    assert check.failure == "aucun appariement de la ronde ne respecte les critères absolus " \
        "[C1]-[C3] (art. 1.9.3)", check
    assert not check.error
    assert str(raised.value) == (
        "no round-pairing complies with the absolute criteria [C1]-[C3] (Art. 1.9.3)")


def test_the_clock_and_double_swiss_explanations_in_french(arbiter):
    from pairing.clock import pair_round as clock_round
    from pairing.double_swiss import pair_match, read_double_swiss

    clock = clock_event(arbiter, players=9, rounds=5)
    services.draw_initial_color(clock, arbiter, random.Random(2))
    for _ in range(3):
        play_clock(services.pair_next_round(clock, arbiter), arbiter, random.Random(3))
    double = make_tournament(arbiter, players=9, rounds=4, pairing_system="dswiss")
    services.draw_initial_color(double, arbiter, rng=random.Random(1))
    for _ in range(2):
        play_match(services.pair_next_round(double, arbiter), arbiter, random.Random(4))
    lines = [*clock_round(read_trf(services.export_trf(clock)), explain=True).explanation,
             *pair_match(read_double_swiss(services.export_trf(double)), explain=True).explanation]
    assert len(lines) > 10 and any("backtrack" in line or "passes over" in line for line in lines)

    with translation.override("fr"):
        said = [sentences.say(line) for line in lines]

    left = {line: english_left(line, double) for line in said}
    assert {line: words for line, words in left.items() if words} == {}
    assert any(line.startswith("joueur qui choisit : position ") for line in said)
    assert any(line.startswith("couleurs (annexe B) :") for line in said)
    assert any(line.startswith("groupe de score de tête ") for line in said)
    scores = [line for line in said if line.startswith(("joueur qui choisit", "groupe de score"))]
    assert all(re.search(r" \d+,\d ", line) for line in scores), scores  # 2,5 not 2.5
    with translation.override("en"):
        assert [sentences.say(line) for line in lines] == lines


def test_a_clock_or_double_swiss_round_keeps_its_lines_to_say_them_in_french(arbiter):
    clock = clock_event(arbiter, players=7, rounds=4)
    services.draw_initial_color(clock, arbiter, random.Random(2))
    play_clock(services.pair_next_round(clock, arbiter), arbiter, random.Random(3))
    double = make_tournament(arbiter, players=7, rounds=4, pairing_system="dswiss")
    services.draw_initial_color(double, arbiter, rng=random.Random(1))
    for t in (clock, double):
        rnd = services.pair_next_round(t, arbiter)
        rnd.refresh_from_db()  # the lines as the database gives them back (JSON)
        with translation.override("en"):
            assert explain.text(rnd) == rnd.explanation
        with translation.override("fr"):
            french_text = explain.text(rnd)
        assert len(french_text.splitlines()) == len(rnd.explanation.splitlines())
        assert french_text != rnd.explanation and english_left(french_text, t) == []
        assert not re.search(r"\d\.\d (points|:)", french_text), french_text  # 2,5 not 2.5
        rnd.explanation_data = None  # a round paired before the lines were kept
        with translation.override("fr"):
            assert explain.text(rnd) == rnd.explanation


# ---------------------------------------------------------------------------------------------
# The tie-break notes

ALL_TIEBREAKS = "DE,WIN,WON,BPG,BWG,PS,REP,BH/C1,AOB,FB,SB,KS,ARO,TPR,PTP,APRO"


def test_the_tie_break_notes_in_french(client, arbiter):
    t = make_tournament(arbiter, players=7, rounds=4, tiebreaks=ALL_TIEBREAKS)
    services.draw_initial_color(t, arbiter, random.Random(0))
    for results in ((Result.DRAW, Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS),
                    (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)):
        rnd = services.publish_round(services.pair_next_round(t, arbiter), arbiter)
        boards = list(rnd.games.filter(board__isnull=False).order_by("board"))
        services.set_results(rnd, arbiter, {g.pk: r for g, r in zip(boards, results)})
        services.finish_round(rnd, arbiter)
    notes = []
    for player in t.players.all():
        url = reverse("public-player-tiebreaks", args=[t.pk, player.pk])
        page = client.get(url, **FR).content.decode()
        text = visible_text(part(page, "<main>", "</main>"))
        codes = re.sub(r"\b(WIN|WON)\b", " ", text)  # the tie-breaks' codes (C.07)
        assert french(codes, t) == [], (player.name, text)
        assert 'lang="en"' not in part(page, "<main>", "</main>")
        notes.append(text)
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "opponent scored" in english and "threshold" in english
    said = " ".join(notes)
    for note in ("l’adversaire a marqué", "seuil ", "Elo ", "virtuel = min(propre ",
                 "dernière ronde 2 : chaque partie appariée comptée comme nulle",
                 "partie gagnée sur l’échiquier", "joueurs à égalité de points",
                 "exemption attribuée par l’appariement", "gain par forfait"):
        assert note in said, note


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


def articles(text: str) -> list[str]:
    """The FIDE articles and criteria a sentence cites (French writes "art.")."""
    return re.findall(r"(?:Art\. |art\. )?([\d.]+\d|\[C\d+\]|C\.\d\d)", text)


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
            assert articles(form) == articles(msgid), (msgid, form)
