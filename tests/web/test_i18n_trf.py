"""A malformed TRF file said in French (issue 20): the reader's line, column and reason on the
public checker page and on the arbiter's import pages, with no English left, while the
command line and English pages keep the engine's English; and every message the TRF readers
mark for translation has its French, with the same placeholders and record codes."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import SimpleNamespace

import polib
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from pairing.errors import TrfFormatError
from pairing.model import Color, Player, ResultCode, RoundEntry, Tournament as EngineTournament
from pairing.text import Text
from pairing.trf import read_pairings, read_trf, write_trf
from tournaments import checker, sentences
from tournaments.models import Tournament

from .test_i18n import FR, PO, english_left, visible_text

pytestmark = pytest.mark.django_db

PAIRING = Path(settings.BASE_DIR) / "pairing"
TRF_MODULES = [
    PAIRING / "errors.py", PAIRING / "trf.py", PAIRING / "trf_records.py",
    PAIRING / "double_swiss" / "trf.py", PAIRING / "clock" / "trf.py",
    PAIRING / "tiebreaks" / "specs.py", PAIRING / "tiebreaks" / "presets.py",
]
NAMES = ["Aebi, Anna", "Brun, Beat", "Corti, Carla", "Dufour, Dario"]
NOBODY = SimpleNamespace(name="", place="")


def entry(opponent: int, colour: Color, result: ResultCode) -> RoundEntry:
    return RoundEntry(opponent, colour, result)


W, B = Color.WHITE, Color.BLACK
WIN, LOSS, DRAW = ResultCode.WIN, ResultCode.LOSS, ResultCode.DRAW
ROUNDS = {  # two rounds: 1-3 and 2-4, then 2-1 and 4-3
    1: (entry(3, W, WIN), entry(2, B, DRAW)),
    2: (entry(4, W, DRAW), entry(1, W, DRAW)),
    3: (entry(1, B, LOSS), entry(4, B, WIN)),
    4: (entry(2, B, DRAW), entry(3, W, LOSS)),
}


def good_file() -> list[str]:
    """A valid TRF file of four players and two rounds, as lines."""
    players = tuple(
        Player(tpn=tpn, name=NAMES[tpn - 1], rating=2200 - 10 * tpn, rounds=ROUNDS[tpn])
        for tpn in ROUNDS
    )
    text = write_trf(EngineTournament(players=players, total_rounds=5, name="Open de Sion"))
    read_trf(text)  # valid as it is
    return text.splitlines()


def row(lines: list[str], tpn: int) -> int:
    """The index of a player's 001 line."""
    return next(i for i, line in enumerate(lines) if line.startswith(f"001 {tpn:>4}"))


def put(line: str, column: int, text: str) -> str:
    """The line with ``text`` written from ``column`` (1-based) on."""
    return line[: column - 1] + text + line[column - 1 + len(text):]


def at(lines: list[str], tpn: int, column: int, text: str) -> list[str]:
    lines = list(lines)
    i = row(lines, tpn)
    lines[i] = put(lines[i], column, text)
    return lines


def bad_number(lines):
    return at(lines, 2, 49, "2x00")


def misaligned_rank_column(lines):
    return at(lines, 3, 87, "   3")  # the rank one column too far right: into column 90


def duplicate_player(lines):
    return [*lines, lines[row(lines, 2)]]


def no_player(lines):
    return [line for line in lines if not line.startswith("001")]


def point_systems_disagree(lines):
    return ["XXS W=3", "162  W 2.5", *lines]


def round_beyond_xxr(lines):
    return ["XXR 1", *[line for line in lines if not line.startswith("142")]]


def bad_result(lines):
    return at(lines, 1, 99, "Q")


def results_disagree(lines):
    return at(lines, 3, 99, "1")  # 1 and 3 both won their game of round 1


def bye_after_the_last_round(lines):
    return [*lines, "240 H   9    1"]


def points_do_not_match(lines):
    return at(lines, 1, 81, " 2.5")


def two_pabs_in_a_round(lines):
    return at(at(lines, 1, 102, "0000 - U"), 2, 102, "0000 - U")


def double_swiss_odd_columns(lines):
    return ["192 FIDE_DOUBLESWISS", "142 3", *lines]


# (the file's defect, line, column, what the French says of it)
CASES = [
    (bad_number, "line of 2", 49, "Elo : nombre attendu, trouvé '2x00'"),
    (misaligned_rank_column, "line of 3", 85, "colonne des points ou du rang mal alignée"),
    (duplicate_player, "last", 5, "numéro d’appariement 2 répété (ligne"),
    (no_player, 1, 1, "aucun enregistrement de joueur (001) : ce n’est pas un fichier de tournoi"),
    (point_systems_disagree, 2, 6,
     "162 W compte 2,5 pour « gain », mais la ligne 1 (XXS) compte 3"),
    (round_beyond_xxr, "line of 1", 102,
     "plus de rondes que le nombre déclaré (1, XXR/142)"),
    (bad_result, "line of 1", 99, "ronde 1 : résultat invalide 'Q'"),
    (results_disagree, "line of 1", 99,
     "ronde 1 : le résultat de l’adversaire 3 ne concorde pas"),
    (bye_after_the_last_round, "last", 14,
     "exemption à la ronde 9, après la dernière ronde"),
    (points_do_not_match, "line of 1", 81,
     "les points 2,5 ne correspondent pas aux résultats (1,5)"),
    (two_pabs_in_a_round, "line of 2", 109,
     "ronde 2 : deuxième exemption attribuée par l’appariement (déjà attribuée à 1)"),
    (double_swiss_odd_columns, 2, 5, "142 : un fichier double suisse a deux colonnes par match"),
]
IDS = [case[0].__name__ for case in CASES]


def malformed(defect) -> str:
    """The file with its defect."""
    return "\n".join(defect(good_file())) + "\n"


def line_of(defect, where) -> int:
    lines = defect(good_file())
    if where == "last":
        return len(lines)
    if isinstance(where, str):
        return row(lines, int(where.rsplit(" ", 1)[1])) + 1
    return where


def refusal(text: str) -> TrfFormatError:
    from pairing.double_swiss import is_double_swiss, read_double_swiss

    with pytest.raises(TrfFormatError) as raised:
        (read_double_swiss if is_double_swiss(text) else read_trf)(text)
    return raised.value


@pytest.mark.parametrize(("defect", "where", "column", "said"), CASES, ids=IDS)
def test_the_reader_finds_each_defect_where_the_page_will_say_it(defect, where, column, said):
    text = malformed(defect)
    error = refusal(text)
    assert (error.line, error.column) == (line_of(defect, where), column), str(error)
    assert isinstance(error.args[0], Text) and isinstance(error.reason, Text)
    assert str(error) == f"line {error.line}, column {error.column}: {error.reason}"
    with translation.override("fr"):
        french = sentences.error_said(error)
    assert french.startswith(f"ligne {error.line}, colonne {column} : "), french
    assert said in french, french
    assert english_left(french, NOBODY) == [], french


def french_words_only(text: str) -> list[str]:
    """The English words left in a French text (the quoted file's text taken out)."""
    return english_left(re.sub(r"'[^']*'", " ", text), NOBODY)


@pytest.mark.parametrize(("defect", "where", "column", "said"), CASES, ids=IDS)
def test_the_checker_says_each_defect_in_french(client, defect, where, column, said):
    text = malformed(defect)
    page = client.post(
        "/check/", {"file": SimpleUploadedFile("event.trf", text.encode())}, **FR
    ).content.decode()
    shown = visible_text(page)
    line = line_of(defect, where)
    assert f"Ce n’est pas un fichier TRF que le moteur sait lire : ligne {line}, colonne " \
        f"{column} : " in shown, shown
    assert said in shown, shown
    assert french_words_only(shown) == [], shown


@pytest.mark.parametrize(("defect", "where", "column", "said"), CASES, ids=IDS)
def test_the_arbiters_import_says_each_defect_in_french(client, staff, defect, where, column,
                                                       said):
    text = malformed(defect)
    client.force_login(staff)
    response = client.post(
        reverse("arbiter-tournament-import"),
        {"file": SimpleUploadedFile("event.trf", text.encode())}, follow=True, **FR,
    )
    assert response.status_code == 200 and not Tournament.objects.exists()
    shown = [str(m) for m in response.context["messages"]]
    line = line_of(defect, where)
    assert len(shown) == 1 and shown[0].startswith(
        f"Fichier TRF : ligne {line}, colonne {column} : "), shown
    assert said in shown[0], shown
    assert french_words_only(shown[0]) == [], shown
    assert shown[0] in visible_text(response.content.decode())


def test_the_players_upload_says_a_defect_in_french(client, arbiter):
    from tournaments import services

    t = services.create_tournament(arbiter, name="Club", rounds=5)
    client.force_login(arbiter)
    lines = bad_number([line for line in good_file() if line.startswith(("012", "001"))])
    players = [line[:91].rstrip() for line in lines]  # a player list: no rounds
    response = client.post(
        reverse("arbiter-players-upload", args=[t.pk]),
        {"file": SimpleUploadedFile("players.trf", "\n".join(players).encode())},
        follow=True, **FR,
    )
    shown = [str(m) for m in response.context["messages"]]
    assert shown == [
        f"Fichier TRF : ligne {row(players, 2) + 1}, colonne 49 : Elo : nombre attendu, "
        "trouvé '2x00'"
    ], shown
    assert not t.players.exists()


def test_english_pages_keep_the_readers_english(client, staff):
    text = malformed(bad_number)
    line = line_of(bad_number, "line of 2")
    english = f"line {line}, column 49: rating: expected a number, found '2x00'"
    assert str(refusal(text)) == english
    page = client.post(
        "/check/", {"file": SimpleUploadedFile("event.trf", text.encode())},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert f"This is not a TRF file the engine reads: {english}." in visible_text(
        page.content.decode())
    client.force_login(staff)
    response = client.post(
        reverse("arbiter-tournament-import"),
        {"file": SimpleUploadedFile("event.trf", text.encode())}, follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert [str(m) for m in response.context["messages"]] == [f"TRF file: {english}"]


def test_the_engine_output_reader_is_said_in_french_too():
    cases = {
        "": "ligne 1, colonne 1 : liste d’appariements vide",
        "2\n1 2\n": "ligne 1, colonne 1 : paires annoncées : 2, données : 1",
        "1\nx 2\n": "ligne 2, colonne 1 : Blancs : nombre attendu, trouvé 'x'",
        "1\n1 2 3\n": "ligne 2, colonne 1 : « blancs noirs » attendu, trouvé '1 2 3'",
        "2\n1 0\n2 0\n": "ligne 3, colonne 1 : deuxième exemption attribuée par l’appariement",
    }
    for text, french in cases.items():
        with pytest.raises(TrfFormatError) as raised:
            read_pairings(text, 1)
        with translation.override("fr"):
            assert sentences.error_said(raised.value) == french


def test_what_the_engine_cannot_do_with_a_file_is_said_in_french(client):
    from pairing.clock.engine import MasterColourMissing, clock_grid

    lines = good_file()
    baku = "\n".join(["192 FIDE_DUTCH_2025_BAKU", *[x for x in lines if x[:3] != "142"]]) + "\n"
    with translation.override("fr"):
        report = checker.check(baku)
        assert {r.failure for r in report.rounds} == {
            "C.04.7 : l’accélération de Bakou demande le nombre de rondes du tournoi (XXR ou 142)"}
        assert not any(r.error for r in report.rounds)
    page = client.post(
        "/check/", {"file": SimpleUploadedFile("baku.trf", baku.encode())}, follow=True, **FR
    ).content.decode()
    assert "l’accélération de Bakou demande le nombre de rondes" in visible_text(page)
    assert 'lang="en"' not in page.split('<section class="check-report"', 1)[1]

    # A clock file before its first round: no XXC, no 152, and no game to read the colour from.
    unplayed = EngineTournament(players=tuple(
        Player(tpn=tpn, name=NAMES[tpn - 1], rating=2200 - 10 * tpn) for tpn in ROUNDS))
    with pytest.raises(MasterColourMissing) as raised:
        clock_grid(read_trf(write_trf(unplayed)))
    with translation.override("fr"):
        assert sentences.error_said(raised.value) == (
            "pas de couleur maîtresse (annexe A [d]) : le fichier doit contenir 152 W|B ou XXC "
            "white1|black1")


TIEBREAK_CODES = {  # a tie-break list as written, and what French says is wrong with it
    "BH/C1,XX": "départage inconnu 'XX' dans 'XX'",
    "BH/C1/M1": "BH : « moins » et « médian » ne se combinent pas",
    "DE/C1": "DE : le modificateur « moins » (/C) n’est pas défini pour ce départage",
    "DE/M1": "DE : le modificateur « médian » (/M) n’est pas défini pour ce départage",
    "TPN/P": "TPN : le modificateur /P n’est pas défini pour ce départage",
    "BH/L1": "BH : le modificateur de limite n’est défini que pour KS",
    "BH/R": "BH : le modificateur /R n’est défini que pour TPN et RTNG",
    "BH/P/P": "'BH/P/P' : modificateur /P donné deux fois",
    "BH/Cx": "'BH/Cx' : modificateur invalide /CX",
    "BH/C0": "'BH/C0' : /C0 ne retranche rien",
    "BH/Q": "'BH/Q' : modificateur inconnu /Q",
}


def test_a_wrong_tie_break_code_is_said_in_french():
    from pairing.tiebreaks import TieBreakSpecError, parse_specs
    from pairing.tiebreaks.presets import parse_212

    for codes_written, french in TIEBREAK_CODES.items():
        with pytest.raises(TieBreakSpecError) as raised:
            parse_specs(codes_written)
        with translation.override("fr"):
            assert sentences.error_said(raised.value) == french, codes_written
    with pytest.raises(TieBreakSpecError) as raised:
        parse_212("212 BH,PTS")
    assert str(raised.value) == (
        "212: standings that rank a tie-break above points (PTS not first) are not supported")
    with translation.override("fr"):
        assert sentences.error_said(raised.value) == (
            "212 : un classement qui place un départage avant les points (PTS pas en premier) "
            "n’est pas pris en charge")


def test_a_files_wrong_tie_break_record_is_refused_in_french(client, staff):
    text = "\n".join(["202 BH/C1,XX", *good_file()]) + "\n"
    client.force_login(staff)
    for language, said in (("fr", "Fichier TRF : départages : départage inconnu 'XX' dans 'XX'"),
                           ("en", "TRF file: tie-breaks: unknown tie-break 'XX' in 'XX'")):
        response = client.post(
            reverse("arbiter-tournament-import"),
            {"file": SimpleUploadedFile("event.trf", text.encode())}, follow=True,
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert [str(m) for m in response.context["messages"]] == [said]
    assert not Tournament.objects.exists()


def test_a_fault_of_the_engine_is_said_in_french_too():
    """A pairing the engine would answer against its own checker (a bug, never an answer):
    what it breaks, in the reader's language on the checker page."""
    from pairing.checker import check_round
    from pairing.dutch.engine import _refuse_what_the_rules_forbid
    from pairing.errors import EngineFault
    from pairing.model import Board, RoundPairing, RuleSet

    state = read_trf("\n".join(good_file()) + "\n")
    again = RoundPairing(3, (Board(1, 3), Board(2, 4)))  # the pairs of round 1 once more
    with pytest.raises(EngineFault) as raised:
        _refuse_what_the_rules_forbid(state, again, RuleSet.DUTCH_2026)
    broken = check_round(state, again, rules=RuleSet.DUTCH_2026)
    assert len(broken) == 2 and str(raised.value) == "; ".join(map(str, broken))
    with translation.override("fr"):
        check = checker._failed(3, raised.value)
    assert not check.error and check.failure.count(" ; ") == 1, check
    assert check.failure.count("C.04.3 art. 2.1.1 [C1] : ") == 2, check
    assert french_words_only(check.failure) == [], check


# ---------------------------------------------------------------------------------------------
# Every marked TRF message has its French


def raise_sites() -> list[ast.Call]:
    """Every ``TrfFormatError(...)`` call of the pairing package."""
    calls = []
    for path in sorted(PAIRING.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "TrfFormatError":
                calls.append(node)
    return calls


def test_every_trf_error_gives_its_reason_as_a_text():
    sites = raise_sites()
    assert len(sites) >= 80, len(sites)
    for call in sites:
        reason = call.args[2]
        assert isinstance(reason, ast.Call) and getattr(reason.func, "id", "") == "Text", \
            ast.unparse(call)


def test_every_refusal_the_checker_can_meet_is_a_text():
    """What the checker page and the arbiter's pages show of the engine's refusals can be said
    in French: each is raised with a ``Text`` (an ``EngineFault`` is built of them, tested
    above)."""
    from pairing.acceleration import BakuNeedsRoundCount, BakuNeedsStandardScoring

    said = {"NoValidPairing", "UnsupportedFeature", "MasterColourMissing", "TieBreakSpecError"}
    raised = []
    # The random tournament generator (python -m pairing -g) is the command line's alone: its
    # refusals are never shown on a page, and are said in English as the command line is.
    for path in sorted(set(PAIRING.rglob("*.py")) - {PAIRING / "generator.py"}):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                    and getattr(node.exc.func, "id", "") in said:
                raised.append(node.exc)
                first = node.exc.args[0]
                assert isinstance(first, ast.Call) and getattr(first.func, "id", "") == "Text", \
                    f"{path}: {ast.unparse(node)}"
    assert len(raised) >= 25, len(raised)
    for error in (BakuNeedsRoundCount(), BakuNeedsStandardScoring()):
        assert isinstance(error.args[0], Text)


def marked(paths) -> list[tuple[str, str | None]]:
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            name = getattr(getattr(node, "func", None), "id", "")
            if isinstance(node, ast.Call) and name in ("gettext_noop", "ngettext_lazy"):
                args = [a.value for a in node.args]
                found.append((args[0], args[1] if name == "ngettext_lazy" else None))
    return found


def codes(text: str) -> list[str]:
    """The record codes, placeholders and numbers a message must keep as they are."""
    return sorted(re.findall(
        r"%\(\w+\)[sd]|\b(?:\d{3}|XX[A-Z]|BB\?|FIDE_DOUBLESWISS|UTF-16|white1|black1)\b|"
        r"\b\d+(?:\.\d+)?\b", text))


def test_every_trf_message_has_its_french():
    messages = marked(TRF_MODULES)
    assert len(messages) >= 100, len(messages)
    po = {e.msgid: e for e in polib.pofile(str(PO)) if not e.msgctxt}
    for msgid, plural in messages:
        entry = po.get(msgid)
        assert entry is not None and entry.translated() and not entry.fuzzy, msgid
        assert entry.msgid_plural == (plural or ""), msgid
        forms = list(entry.msgstr_plural.values()) if plural else [entry.msgstr]
        for form in forms:
            assert codes(form) == codes(msgid), (msgid, form)
            words = re.sub(r"%\(\w+\)[sd]|XXC rank|'[^']*'", " ", form)
            assert english_left(words, NOBODY) == [], (msgid, form)
            assert " :" in form or ":" not in msgid, (msgid, form)  # French spacing
