"""Pairings changed by hand (draft: manual, swap, re-pair; published: C.04.2 Art. 4.4)."""

from __future__ import annotations

import pytest

from tests.web.test_corrections import play_round, start
from tournaments import services
from tournaments.models import AuditEntry, Result, Round
from tournaments.services import pairing_changes

pytestmark = pytest.mark.django_db


def tpn_pairs(rnd: Round) -> list[tuple[int, int]]:
    return [
        (g.white.tpn, g.black.tpn)
        for g in rnd.games.select_related("white", "black")
        if g.black_id is not None
    ]


def rematch_text(rnd1: Round, rnd2: Round) -> tuple[str, tuple[int, int]]:
    """Return a pairing of round 2 that repeats board 1 of round 1, and that pair."""
    w, b = tpn_pairs(rnd1)[0]
    others = sorted({t for pair in tpn_pairs(rnd2) for t in pair} - {w, b})
    lines = [f"{w} - {b}"] + [f"{others[i]} - {others[i + 1]}" for i in range(0, len(others), 2)]
    return "\n".join(lines), (w, b)


def test_swap_in_a_draft_is_saved_with_the_audit_entry(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    text = pairing_changes.pairing_text(rnd)
    (a, _), (c, _) = tpn_pairs(rnd)[:2]
    boards, bye = pairing_changes.parse_pairing(pairing_changes.swap_in_text(text, a, c))
    pairing_changes.change_pairing(
        rnd, arbiter, boards=boards, bye=bye, note="swap", accept_warnings=True
    )
    assert sorted(tpn_pairs(rnd)) == sorted(boards)
    entry = AuditEntry.objects.get(action="manual pairing (draft)")
    assert entry.before != entry.after and entry.actor == arbiter
    assert any(g.manual == "swap" for g in rnd.games.all())


def test_manual_rematch_in_a_draft_warns_and_needs_acceptance(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    text, pair = rematch_text(rnd1, rnd2)
    boards, bye = pairing_changes.parse_pairing(text)
    preview = pairing_changes.preview_pairing(rnd2, boards, bye)
    assert any("already played" in w for w in preview.warnings)
    assert len(preview.engine_boards) == 4  # what the engine pairs instead
    with pytest.raises(services.ServiceError, match="accept the warnings"):
        pairing_changes.change_pairing(rnd2, arbiter, boards=boards, bye=bye)
    assert pair not in tpn_pairs(rnd2)
    pairing_changes.change_pairing(rnd2, arbiter, boards=boards, bye=bye, accept_warnings=True)
    assert pair in tpn_pairs(rnd2)
    assert "already played" in AuditEntry.objects.get(action="manual pairing (draft)").reason


def test_colour_warnings_three_in_a_row_and_difference(arbiter):
    t = start(arbiter, players=4)
    rnd1 = play_round(t, arbiter)
    rnd2 = play_round(t, arbiter)
    rnd3 = services.pair_next_round(t, arbiter)
    # Find a player who had White twice, if any; otherwise one with the same colour twice.
    colours = {}
    for rnd in (rnd1, rnd2):
        for w, b in tpn_pairs(rnd):
            colours.setdefault(w, []).append("w")
            colours.setdefault(b, []).append("b")
    same = next(tpn for tpn, c in colours.items() if c[0] == c[1])
    others = sorted(set(colours) - {same})
    if colours[same][0] == "w":
        boards = [(same, others[0]), (others[1], others[2])]
    else:
        boards = [(others[0], same), (others[1], others[2])]
    preview = pairing_changes.preview_pairing(rnd3, boards, None)
    assert any(f"{same} would have" in w and "three times" in w for w in preview.warnings)
    assert any(f"{same} would have a colour difference" in w for w in preview.warnings)


def test_a_missing_or_doubled_player_is_refused(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    boards = tpn_pairs(rnd)[:-1]
    with pytest.raises(services.ServiceError, match="not paired"):
        pairing_changes.change_pairing(rnd, arbiter, boards=boards, bye=None, accept_warnings=True)


def test_repair_draft_pairs_again_and_is_audited(arbiter):
    t = start(arbiter)
    rnd = services.pair_next_round(t, arbiter)
    pairs = tpn_pairs(rnd)
    new = pairing_changes.repair_draft(rnd, arbiter)
    assert new.number == 1 and new.state == Round.State.DRAFT and tpn_pairs(new) == pairs
    assert Round.objects.filter(tournament=t).count() == 1
    assert AuditEntry.objects.filter(action="re-pair draft", round_number=1).count() == 1


def test_published_pairing_changes_only_for_an_article_4_4_reason(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    text, pair = rematch_text(rnd1, rnd2)
    boards, bye = pairing_changes.parse_pairing(text)
    with pytest.raises(services.ServiceError, match="4.4"):
        pairing_changes.change_pairing(rnd2, arbiter, boards=boards, bye=bye, accept_warnings=True)
    # With a reason of Art. 4.4 and the warnings accepted, the change is saved.
    pairing_changes.change_pairing(
        rnd2, arbiter, boards=boards, bye=bye, reason_code="4.4.2",
        note="organiser's rules allow it", accept_warnings=True,
    )
    assert pair in tpn_pairs(rnd2)
    entry = AuditEntry.objects.get(action="change published pairing")
    assert entry.article == "C.04.2 4.4.2" and "already played" in entry.reason
    assert entry.before and entry.after and entry.before != entry.after
    rnd2.refresh_from_db()
    assert rnd2.state == Round.State.PUBLISHED


def test_published_board_with_a_result_cannot_be_repaired(arbiter):
    t = start(arbiter)
    play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    games = [g for g in rnd2.games.all() if not g.is_bye]
    services.set_results(rnd2, arbiter, {games[0].pk: Result.DRAW})
    text = pairing_changes.swap_in_text(
        pairing_changes.pairing_text(rnd2), games[0].white.tpn, games[1].white.tpn
    )
    boards, bye = pairing_changes.parse_pairing(text)
    with pytest.raises(services.ServiceError, match="already has a result"):
        pairing_changes.change_pairing(
            rnd2, arbiter, boards=boards, bye=bye, reason_code="4.4.2", note="x",
            accept_warnings=True,
        )


def test_parse_pairing_rejects_garbage():
    with pytest.raises(services.ServiceError, match="Line 2"):
        pairing_changes.parse_pairing("1 - 2\nthree - four")
    assert pairing_changes.parse_pairing("1 - 2\n3 bye\n") == ([(1, 2)], 3)


def test_an_article_4_4_reason_must_fit_the_situation(arbiter):
    t = start(arbiter)
    rnd1 = play_round(t, arbiter)
    rnd2 = services.pair_next_round(t, arbiter)
    services.publish_round(rnd2, arbiter)
    boards, bye = pairing_changes.parse_pairing(pairing_changes.pairing_text(rnd2))
    for code, message in (
        ("4.4.5", "final round"),
        ("4.4.4", "no late entry"),
        ("4.4.1", "already met"),
    ):
        with pytest.raises(services.ServiceError, match=message):
            pairing_changes.change_pairing(
                rnd2, arbiter, boards=boards, bye=bye, reason_code=code, note="n",
                accept_warnings=True,
            )
    # An accidental rematch, published, is then undone under 4.4.1.
    text, pair = rematch_text(rnd1, rnd2)
    rematch, _ = pairing_changes.parse_pairing(text)
    pairing_changes.change_pairing(
        rnd2, arbiter, boards=rematch, bye=bye, reason_code="4.4.2", note="n",
        accept_warnings=True,
    )
    pairing_changes.change_pairing(
        rnd2, arbiter, boards=boards, bye=bye, reason_code="4.4.1", note="rematch found",
    )
    assert pair not in tpn_pairs(rnd2)
    assert AuditEntry.objects.filter(article="C.04.2 4.4.1").count() == 1
