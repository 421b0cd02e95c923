"""Pairings changed by hand: a draft (paired by hand, players swapped, paired again, a player
leaving it) or a published round, for a reason of C.04.2 Art. 4.4; each change checked against
the rules, the arbiter accepting what it breaks, audited."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _, gettext_lazy, gettext_noop

from pairing.checker import ARTICLE
from pairing.errors import PairingError
from pairing.model import Board, Color, RoundPairing
from pairing.rules import colour_difference, colour_limits_broken, played_colours
from pairing.text import Text
from tournaments.models import (
    MANUAL_NOTE_LENGTH,
    ByeRequest,
    Game,
    Player,
    Result,
    Round,
    Tournament,
)
from tournaments.sentences import about, engine_said, in_english, listed, say
from tournaments.services.engine_state import build_engine_state, one_line
from tournaments.services.errors import ServiceError
from tournaments.services.players import not_due_to_play, request_bye, withdraw_player
from tournaments.services.rounds import pair_next_round, round_rows, unpair_round
from tournaments.services.write import audit, current_player, locked_round

PAIRING_CHANGE_REASONS = (
    ("4.4.1", gettext_lazy(
        "Accidental pairing of two participants who have already played each other"
    )),
    ("4.4.2", gettext_lazy(
        "The rules of the competition allow the Chief Arbiter to modify the pairings"
    )),
    ("4.4.3", gettext_lazy(
        "Two participants close in the standings are without an opponent and agree to play"
    )),
    ("4.4.4", gettext_lazy(
        "A late entry is admitted; the changes are minimal and agreed by all involved"
    )),
    ("4.4.5", gettext_lazy(
        "Unforeseeable circumstances affect the top boards of the final round"
    )),
)
"""The only situations in which published pairings may be changed (C.04.2 Art. 4.4)."""

_REASON_TEXT = dict(PAIRING_CHANGE_REASONS)
_REQUEST_RESULTS = frozenset(ByeRequest.Kind.values)


@dataclass(frozen=True)
class Preview:
    """What a manual pairing of round k would break, and what the engine would pair instead."""

    errors: tuple[Text, ...]
    """Mistakes that make the pairing impossible to save (a player twice, a player missing)."""
    warnings: tuple[Text, ...]
    """Rules the pairing breaks; it may be saved only if the arbiter accepts them."""
    engine_boards: tuple[tuple[Player, Player], ...]
    engine_bye: Player | None
    engine_error: str = ""


def parse_pairing(text: str) -> tuple[list[tuple[int, int]], int | None]:
    """Read ``white - black`` lines of TPNs, and ``tpn bye`` for the pairing-allocated bye."""
    boards: list[tuple[int, int]] = []
    bye: int | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.replace("-", " ").replace(",", " ").split()
        try:
            if len(words) == 2 and words[1].lower() in {"bye", "pab"}:
                if bye is not None:
                    raise ServiceError(
                        _("Line %(number)s: a second pairing-allocated bye.") % {"number": number}
                    )
                bye = int(words[0])
            elif len(words) == 2:
                boards.append((int(words[0]), int(words[1])))
            else:
                raise ValueError
        except ValueError:
            raise ServiceError(
                _("Line %(number)s (%(line)r): write 'white TPN - black TPN' or 'TPN bye'.")
                % {"number": number, "line": raw.strip()}
            ) from None
    return boards, bye


def pairing_text(rnd: Round) -> str:
    """Return the round's boards and pairing-allocated bye in the form ``parse_pairing`` reads."""
    lines = []
    for game in rnd.games.select_related("white", "black"):
        if game.black_id is not None:
            lines.append(f"{game.white.tpn} - {game.black.tpn}")
        elif game.result == Result.PAIRING_BYE:
            lines.append(f"{game.white.tpn} bye")
    return "\n".join(lines)


def swap_in_text(text: str, tpn_a: int, tpn_b: int) -> str:
    """Return the pairing text with two players exchanged (a swap between boards or colours)."""
    boards, bye = parse_pairing(text)
    swap = {tpn_a: tpn_b, tpn_b: tpn_a}
    listed = {tpn for pair in boards for tpn in pair} | ({bye} if bye else set())
    for tpn in (tpn_a, tpn_b):
        if tpn not in listed:
            raise ServiceError(_("TPN %(tpn)s is not in the pairing.") % {"tpn": tpn})
    lines = [f"{swap.get(w, w)} - {swap.get(b, b)}" for w, b in boards]
    if bye is not None:
        lines.append(f"{swap.get(bye, bye)} bye")
    return "\n".join(lines)


COLOUR_RULE_BROKEN = gettext_noop("%(article)s (absolute colour rule): %(tpn)s would have %(what)s")
COLOUR_DIFFERENCE = {
    "White": gettext_noop("a colour difference of %(difference)+d with White"),
    "Black": gettext_noop("a colour difference of %(difference)+d with Black"),
}
THREE_IN_A_ROW = {
    "White": gettext_noop("White three times in a row"),
    "Black": gettext_noop("Black three times in a row"),
}


def _article(article: str) -> str:
    """An article as the reader's language writes it ('C.04.1 art. 6' in French)."""
    found = re.fullmatch(r"(C\.\d\d\.\d) Art\. (.+)", article)
    return Text(ARTICLE, document=found[1], number=found[2]) if found else article


def _colour_warnings(state, boards: list[tuple[int, int]], k: int) -> list[Text]:
    """Warn on colours the manual boards give: difference beyond ±2, or three in a row
    (C.04.1 Art. 6 and 7, the absolute colour rules)."""
    players = {p.tpn: p for p in state.players}
    found = []
    for white, black in boards:
        for tpn, colour in ((white, Color.WHITE), (black, Color.BLACK)):
            if tpn not in players:
                continue
            history = (*played_colours(players[tpn].rounds[: k - 1]), colour)
            name = "White" if colour is Color.WHITE else "Black"
            for article in colour_limits_broken(history):
                if article == "C.04.1 Art. 6":
                    what = Text(COLOUR_DIFFERENCE[name], difference=colour_difference(history))
                else:
                    what = Text(THREE_IN_A_ROW[name])
                found.append(
                    Text(COLOUR_RULE_BROKEN, article=_article(article), tpn=tpn, what=what)
                )
    return found


def preview_pairing(rnd: Round, boards: list[tuple[int, int]], bye: int | None) -> Preview:
    """Check a manual pairing of ``rnd`` (TPNs) and compute the engine's pairing for comparison."""
    t = rnd.tournament
    built = build_engine_state(t, pairing_round=rnd.number)
    state = built.tournament
    pairing = RoundPairing(
        round=rnd.number, boards=tuple(Board(w, b) for w, b in boards), bye=bye
    )
    errors, warnings = t.system.check(state, pairing)
    if not t.system.matches:  # the colours of a match alternate, C.04.5 Art. 4.4
        warnings += _colour_warnings(state, boards, rnd.number)
    player = built.player_by_tpn
    engine_boards: tuple = ()
    engine_bye = None
    engine_error = ""
    try:
        proposal = t.system.pair(state)
    except PairingError as error:
        engine_error = engine_said(error)
    else:
        engine_boards = tuple(
            (player[w], player[b]) for w, b in t.system.board_order(state, proposal)
        )
        engine_bye = player[proposal.bye] if proposal.bye is not None else None
    return Preview(tuple(errors), tuple(warnings), engine_boards, engine_bye, engine_error)


def _check_reason_applies(t: Tournament, rnd: Round, code: str) -> None:
    """Refuse a reason of Art. 4.4 whose situation the tournament's data contradict."""
    if code == "4.4.5" and rnd.number != t.rounds:
        raise ServiceError(
            _("Art. 4.4.5 is about the final round; round %(number)s of %(rounds)s is not.")
            % {"number": rnd.number, "rounds": t.rounds}
        )
    if code == "4.4.4" and not t.players.filter(arrival_round=rnd.number).exists():
        raise ServiceError(
            _("Art. 4.4.4: no late entry arrives in round %(number)s.") % {"number": rnd.number}
        )
    if code == "4.4.1":
        state = build_engine_state(t, pairing_round=rnd.number).tournament
        tpn_of = {p.pk: p.tpn for p in t.players.all()}
        players = {p.tpn: p for p in state.players}
        if not any(
            any(
                e.opponent == tpn_of[g.black_id] and e.game_was_played
                for e in players[tpn_of[g.white_id]].rounds[: rnd.number - 1]
            )
            for g in rnd.games.exclude(black=None)
        ):
            raise ServiceError(
                _("Art. 4.4.1: no board of round %(number)s pairs two players who already met.")
                % {"number": rnd.number}
            )


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def change_pairing(
    rnd: Round,
    actor,
    *,
    boards: list[tuple[int, int]],
    bye: int | None,
    reason_code: str = "",
    note: str = "",
    accept_warnings: bool = False,
    loaded: str | None = None,
) -> Preview:
    """Replace the boards (and pairing-allocated bye) of a draft or published round by hand.

    A published round may change only for a reason of C.04.2 Art. 4.4 (``reason_code``) and
    only on boards without a result. Every broken rule is a warning that the arbiter must accept.
    Games whose pair is unchanged keep their row (and result); the others are recorded in the
    audit trail before they are replaced, and new rows carry the reason (``Game.manual``).
    ``loaded``: the ``pairing_text`` the page started from; refused if the pairing changed since.
    """
    note = (note or "").strip()
    with transaction.atomic():
        t, rnd = locked_round(rnd)
        if loaded is not None and _lines(loaded) != _lines(pairing_text(rnd)):
            raise ServiceError(
                _(
                    "The pairing of round %(number)s was changed meanwhile by someone else: "
                    "nothing was saved. Start again from the pairing as it is now (shown below)."
                ) % {"number": rnd.number}
            )
        if rnd.state == Round.State.FINISHED:
            raise ServiceError(
                _("Round %(number)s is finished: its pairing cannot change.")
                % {"number": rnd.number}
            )
        published = rnd.state == Round.State.PUBLISHED
        if published and reason_code not in _REASON_TEXT:
            raise ServiceError(
                _("Published pairings change only for a reason of C.04.2 Art. 4.4: pick one.")
            )
        if published and not note:
            raise ServiceError(_("Say what happened (who, which boards) in the note."))
        if published:
            _check_reason_applies(t, rnd, reason_code)
        preview = preview_pairing(rnd, boards, bye)
        if preview.errors:
            raise ServiceError(
                _("The pairing is incomplete: %(errors)s.")
                % {"errors": say(listed(preview.errors))}
            )
        if preview.warnings and not accept_warnings:
            raise ServiceError(
                _("The pairing breaks rules; accept the warnings to save it anyway: %(warnings)s")
                % {"warnings": say(listed(preview.warnings))}
            )
        by_tpn = {p.tpn: p for p in t.players.all()}
        wanted = {(by_tpn[w].pk, by_tpn[b].pk) for w, b in boards}
        games = list(rnd.games.select_related("white", "black"))
        requests = [g for g in games if g.black_id is None and g.result in _REQUEST_RESULTS]
        pab = next((g for g in games if g.result == Result.PAIRING_BYE), None)
        old_boards = [g for g in games if g.black_id is not None]
        for game in old_boards:
            if (game.white_id, game.black_id) not in wanted and game.has_result:
                raise ServiceError(
                    _("Board %(board)s (%(game)s) already has a result: it cannot be re-paired.")
                    % {"board": game.board, "game": game}
                )
        before = round_rows(rnd)
        if len(note) > MANUAL_NOTE_LENGTH:
            raise ServiceError(
                _("The note is longer than %(count)s characters.") % {"count": MANUAL_NOTE_LENGTH}
            )
        label = f"{reason_code} {note}".strip() if published else (note or MANUAL_DRAFT)
        label = " ".join(one_line(label).split())  # Game.manual is one line
        paired = {pk for pair in wanted for pk in pair} | ({by_tpn[bye].pk} if bye else set())
        # Players now on a board lose their pre-set row (its request is kept in the audit trail).
        for game in requests:
            if game.white_id in paired:
                ByeRequest.objects.filter(player_id=game.white_id, round_number=rnd.number).delete()
                game.delete()
        kept = []
        for game in old_boards:
            if (game.white_id, game.black_id) in wanted:
                kept.append(game)
            else:
                game.delete()
        if pab is not None and (bye is None or pab.white_id != by_tpn[bye].pk):
            pab.delete()
            pab = None
        if bye is not None and pab is None:
            Game.objects.create(
                round=rnd, white=by_tpn[bye], result=Result.PAIRING_BYE, manual=label
            )
        Game.objects.filter(pk__in=[g.pk for g in kept]).update(board=None)
        existing = {(g.white_id, g.black_id): g for g in kept}
        state = build_engine_state(t, pairing_round=rnd.number).tournament
        order = t.system.board_order(
            state, RoundPairing(rnd.number, tuple(Board(w, b) for w, b in boards), bye)
        )
        for number, (w, b) in enumerate(order, start=1):
            key = (by_tpn[w].pk, by_tpn[b].pk)
            if key in existing:
                Game.objects.filter(pk=existing[key].pk).update(board=number)
            else:
                Game.objects.create(
                    round=rnd, board=number, white=by_tpn[w], black=by_tpn[b], manual=label,
                    is_match=t.system.matches,
                )
        after = round_rows(rnd)
        if published:
            action, article = "change published pairing", f"C.04.2 {reason_code}"
            reason = about(Text(in_english(_REASON_TEXT[reason_code])), note)
        else:
            action, article, reason = "manual pairing (draft)", "", note
        if preview.warnings:  # stored as data, said to each reader (tournaments.audit)
            reason = Text(WARNINGS_ACCEPTED, reason=reason, warnings=listed(preview.warnings))
        audit(
            t, actor, action, round_number=rnd.number, article=article, reason=reason,
            before=before, after=after,
        )
        t.save(update_fields=["updated_at"])
    return preview


WARNINGS_ACCEPTED = gettext_noop("%(reason)s | warnings accepted: %(warnings)s")
MANUAL_DRAFT = gettext_noop("manual (draft)")
"""``Game.manual`` of a draft board paired by hand without a note: stored in English (the TRF
export writes it), shown through ``tournaments.audit.shown`` (the ``stored_text`` filter)."""


def repair_draft(rnd: Round, actor) -> Round:
    """Throw a draft away and let the engine pair the round again, in one transaction."""
    with transaction.atomic():
        t, rnd = locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is published: it cannot be re-paired.")
                % {"number": rnd.number}
            )
        before = round_rows(rnd)
        unpair_round(rnd, actor)
        new = pair_next_round(t, actor)
        audit(
            t, actor, "re-pair draft", round_number=new.number, before=before,
            after=round_rows(new),
        )
    return new


DRAFT_LEAVE_KINDS = (
    ("withdraw", gettext_lazy("Withdraws from the tournament (C.04.2 Art. 3.2)")),
    (ByeRequest.Kind.ABSENT.value, gettext_lazy("Announced absence for this round (Art. 3.3)")),
    (ByeRequest.Kind.HALF.value, gettext_lazy("Requested half-point bye")),
    (ByeRequest.Kind.ZERO.value, gettext_lazy("Requested zero-point bye")),
    (ByeRequest.Kind.FULL.value, gettext_lazy("Requested full-point bye")),
)


def leave_draft(rnd: Round, actor, *, player: Player, kind: str) -> Round:
    """A player of a draft round withdraws or will not play it: take them out and re-pair.

    The draft is unpaired, the withdrawal (3.2) or the requested bye / absence (3.3) recorded
    for this round, and the engine pairs the round again; all or nothing, each step audited.
    """
    if kind not in dict(DRAFT_LEAVE_KINDS):
        raise ServiceError(_("Unknown choice %(choice)r.") % {"choice": kind})
    with transaction.atomic():
        t, rnd = locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _(
                    "Round %(number)s is published: enter a forfeit, or change the pairing "
                    "under C.04.2 Art. 4.4."
                ) % {"number": rnd.number}
            )
        player = current_player(t, player)
        if not player.plays_in(rnd.number):
            raise ServiceError(not_due_to_play(player, rnd.number))
        before = round_rows(rnd)
        number = rnd.number
        unpair_round(rnd, actor)
        if kind == "withdraw":
            withdraw_player(player, actor, from_round=number)
        else:
            request_bye(player, actor, round_number=number, kind=kind)
        new = pair_next_round(t, actor)
        audit(
            t, actor, "re-pair draft", round_number=number, player=player,
            reason=about(player.name, Text(in_english(dict(DRAFT_LEAVE_KINDS)[kind]))),
            before=before, after=round_rows(new),
        )
    return new
