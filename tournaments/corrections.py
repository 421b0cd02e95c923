"""Corrections and changes of C.04.2 Art. 2.3, 4.3 and 4.4, each a guided, audited workflow.

Like ``tournaments.services``, every function locks the tournament row, checks the rules, writes
an ``AuditEntry`` (who, when, before, after, article, reason) and raises ``ServiceError`` with a
readable sentence on refusal. Nothing is overwritten without the old value being kept in the
audit trail; a correction notified too late (Art. 4.3, after the end of the next round) is stored
beside the value the engine reads (``Game.rating_result``, ``Game.rating_colors_swapped``), so
that pairings and standings do not move and the rating report can still use it.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _, gettext_lazy, gettext_noop

from pairing.model import Board, RoundPairing
from tournaments import double_swiss
from tournaments.models import (
    GAME_RESULTS,
    MANUAL_NOTE_LENGTH,
    TPN_FREEZE_ROUND,
    ByeRequest,
    Game,
    Player,
    Result,
    Round,
    Tournament,
    page_value,
)
from tournaments.services import (
    Said,
    ServiceError,
    _audit,
    _current_player,
    _locked,
    _locked_round,
    _player_data,
    _renumber,
    _scores,
    board_order,
    build_engine_state,
    engine_said,
    english,
    in_english,
    not_due_to_play,
    one_line,
    pairing_engine,
)

# ---------------------------------------------------------------------------------------------
# Wrong result (4.3.1), wrong colours (4.3.2): the three timing cases


class Timing(enum.Enum):
    """When a correction of round k is notified, relative to round k+1 (C.04.2 Art. 4.3)."""

    # The values are stored in the audit trail (in English); ``label`` is what a person reads.
    BEFORE_NEXT_PAIRING = gettext_noop("before the next pairing")
    NEXT_ROUND_RUNNING = gettext_noop("after the next pairing, before the end of the next round")
    RATING_ONLY = gettext_noop("after the end of the next round")

    @property
    def label(self) -> str:
        """When the correction was notified, in the request's language."""
        return _(self.value)


TIMING_EFFECT = {
    Timing.BEFORE_NEXT_PAIRING: gettext_lazy(
        "The standings and the next pairing use the corrected data."
    ),
    Timing.NEXT_ROUND_RUNNING: gettext_lazy(
        "The published pairing of the next round stands; the pairing after it uses the "
        "corrected data."
    ),
    Timing.RATING_ONLY: gettext_lazy(
        "The correction is recorded for rating purposes only and does not alter pairings or "
        "standings (C.04.2 Art. 4.3)."
    ),
}


def correction_timing(rnd: Round) -> Timing:
    """Return the timing case of a correction to a game of ``rnd``, or refuse it."""
    if rnd.state == Round.State.DRAFT:
        raise ServiceError(
            _("Round %(number)s is a draft: change its pairing, there is no result to correct.")
            % {"number": rnd.number}
        )
    following = Round.objects.filter(tournament_id=rnd.tournament_id, number=rnd.number + 1).first()
    if following is None:
        return Timing.BEFORE_NEXT_PAIRING
    if following.state == Round.State.DRAFT:
        raise ServiceError(
            _(
                "Round %(number)s is a draft paired with the old data: unpair it, correct the "
                "result, then pair again (C.04.2 Art. 4.3: the next pairing uses the new data)."
            ) % {"number": following.number}
        )
    if following.state == Round.State.PUBLISHED:
        return Timing.NEXT_ROUND_RUNNING
    return Timing.RATING_ONLY


@dataclass(frozen=True)
class CorrectionOutcome:
    timing: Timing
    message: str


def _locked_game(game: Game, loaded: str | None = None) -> tuple[Tournament, Round, Game]:
    """Lock the tournament; return the row as stored now, or refuse when it changed since the
    page was loaded (``loaded``: its ``Game.page_token``) or is gone (the pairing changed)."""
    t = _locked(game.round.tournament)
    current = Game.objects.select_related("round", "white", "black").filter(pk=game.pk).first()
    if current is None:
        raise ServiceError(
            _("Board %(board)s of round %(number)s was re-paired meanwhile: nothing was saved.")
            % {"board": game.board, "number": game.round.number}
        )
    if loaded is not None and loaded != current.page_token():
        raise ServiceError(
            _(
                "Board %(board)s was changed meanwhile by someone else; it now reads "
                "%(game)s. Nothing was saved: check it and correct again if still needed."
            ) % {"board": current.board, "game": _describe(current)}
        )
    return t, current.round, current


def _describe(game: Game) -> str:
    black = game.black.name if game.black else ""
    text = f"{game.white.name} – {black} {game.result or _('pending')}"
    if game.rating_result or game.rating_colors_swapped:
        result = game.rating_result or game.result
        if game.rating_colors_swapped:
            text += " " + _("(for rating: colours exchanged, %(result)s)") % {"result": result}
        else:
            text += " " + _("(for rating: %(result)s)") % {"result": result}
    return text


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(
            _("Give the reason for the correction (who notified what, and when).")
        )
    return reason


def _game_data(game: Game) -> dict:
    return {
        "board": game.board,
        "white": game.white.name,
        "black": game.black.name if game.black_id else None,
        "white_tpn": game.white.tpn,
        "black_tpn": game.black.tpn if game.black_id else None,
        "result": game.result,
        "rating_result": game.rating_result,
        "rating_colors_swapped": game.rating_colors_swapped,
    }


def _record_game_correction(
    t: Tournament, rnd: Round, game: Game, actor, action: str, article: str, reason: str,
    timing: Timing, before: dict,
) -> CorrectionOutcome:
    """Audit a corrected game (inside the caller's transaction) and say what it changes."""
    _audit(
        t, actor, f"{action} (rating only)" if timing is Timing.RATING_ONLY else action,
        round_number=rnd.number, article=article,
        reason=f"{reason} [{timing.value}]", before=before, after=_game_data(game),
    )
    t.save(update_fields=["updated_at"])
    return CorrectionOutcome(
        timing,
        _("Notified %(when)s: %(effect)s")
        % {"when": timing.label, "effect": TIMING_EFFECT[timing]},
    )


def correct_result(
    game: Game, actor, *, result: str, reason: str, loaded: str | None = None
) -> CorrectionOutcome:
    """Correct a result written down incorrectly (C.04.2 Art. 4.3.1).

    ``loaded``: the row's ``Game.page_token`` as the page showed it; refused if it changed.
    """
    reason = _clean_reason(reason)
    with transaction.atomic():
        t, rnd, game = _locked_game(game, loaded)
        if game.is_bye:
            raise ServiceError(
                _("%(name)s has a bye: there is no game result to correct.")
                % {"name": game.white.name}
            )
        if game.is_match:
            raise ServiceError(_match_not_corrected(game))
        if result not in GAME_RESULTS:
            raise ServiceError(_("%(value)r is not a game result.") % {"value": result})
        timing = correction_timing(rnd)
        before = _game_data(game)
        if timing is Timing.RATING_ONLY:
            current = game.rating_result or game.result
            if result == current:
                raise ServiceError(
                    _("Board %(board)s already has %(result)s for rating.")
                    % {"board": game.board, "result": result}
                )
            game.rating_result = "" if result == game.result else result
            game.save(update_fields=["rating_result"])
        else:
            if result == game.result:
                raise ServiceError(
                    _("Board %(board)s already has the result %(result)s.")
                    % {"board": game.board, "result": result}
                )
            game.result = result
            game.save(update_fields=["result"])
        return _record_game_correction(
            t, rnd, game, actor, "correct result", "C.04.2 4.3.1", reason, timing, before
        )


def _match_not_corrected(game: Game) -> str:
    return _(
        "Board %(board)s is a Double-Swiss match: correct its two games on the round's result "
        "page while the next round is not paired (a correction after that is not supported for "
        "matches yet)."
    ) % {"board": game.board}


_MIRROR = {
    Result.WHITE_WINS: Result.BLACK_WINS,
    Result.BLACK_WINS: Result.WHITE_WINS,
    Result.WHITE_WINS_FORFEIT: Result.BLACK_WINS_FORFEIT,
    Result.BLACK_WINS_FORFEIT: Result.WHITE_WINS_FORFEIT,
}


def correct_colours(
    game: Game, actor, *, reason: str, loaded: str | None = None
) -> CorrectionOutcome:
    """Record that a game was played with the wrong colours (C.04.2 Art. 4.3.2).

    White and Black are exchanged; the result keeps its winner (1-0 becomes 0-1). ``loaded``:
    the row's ``Game.page_token`` as the page showed it; refused if it changed.
    """
    reason = _clean_reason(reason)
    with transaction.atomic():
        t, rnd, game = _locked_game(game, loaded)
        if game.is_bye:
            raise ServiceError(
                _("%(name)s has a bye: no colours to correct.") % {"name": game.white.name}
            )
        if game.is_match:
            raise ServiceError(_match_not_corrected(game))
        if game.result == Result.NOT_PLAYED or game.result in {
            Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT,
        }:
            raise ServiceError(
                _("Board %(board)s was not played: its colours do not count (C.04.2 Art. 3.4).")
                % {"board": game.board}
            )
        timing = correction_timing(rnd)
        before = _game_data(game)
        if timing is Timing.RATING_ONLY:
            game.rating_colors_swapped = not game.rating_colors_swapped
            game.save(update_fields=["rating_colors_swapped"])
        else:
            game.white_id, game.black_id = game.black_id, game.white_id
            game.result = _MIRROR.get(game.result, game.result)
            game.save(update_fields=["white", "black", "result"])
            game = Game.objects.select_related("white", "black").get(pk=game.pk)
        return _record_game_correction(
            t, rnd, game, actor, "correct colours", "C.04.2 4.3.2", reason, timing, before
        )


# ---------------------------------------------------------------------------------------------
# Rating corrected (4.3.3, 2.3)


def correct_rating(
    player: Player, actor, *, rating: int | None, reason: str, loaded: str | None = None
) -> str:
    """Correct a player's rating; return what happened to the TPNs, in a sentence.

    Standings and rating-based tie-breaks read the rating, so they follow at once. TPNs are
    recomputed from the initial order (Art. 2.2) only while round 4 is not paired (Art. 2.3).
    ``loaded``: the rating as the page showed it (``page_value``); refused if it changed.
    """
    reason = _clean_reason(reason)
    if rating is not None and not 0 <= rating <= 3500:
        raise ServiceError(_("%(rating)s is not a rating.") % {"rating": rating})
    with transaction.atomic():
        t = _locked(player.tournament)
        player = _current_player(t, player)
        if loaded is not None and loaded != page_value(player.rating):
            raise ServiceError(
                _(
                    "%(name)s's rating was changed meanwhile by someone else to %(rating)s: "
                    "nothing was saved. Check it and correct again."
                ) % {"name": player.name, "rating": player.rating or _("unrated")}
            )
        if rating == player.rating:
            raise ServiceError(
                _("%(name)s already has the rating %(rating)s.")
                % {"name": player.name, "rating": rating}
            )
        before = _player_data(player)
        player.rating = rating
        player.save(update_fields=["rating"])
        if t.tpns_frozen():
            effect = Said(TPNS_STAY_FROZEN, number=TPN_FREEZE_ROUND)
        elif t.round_set.exists():
            _renumber(t)
            effect = Said(TPNS_RECOMPUTED_ROUNDS_KEPT, number=TPN_FREEZE_ROUND)
        else:
            _renumber(t)
            effect = Said(TPNS_RECOMPUTED)
        player.refresh_from_db()
        _audit(
            t, actor, "correct rating", player=player, article="C.04.2 4.3.3, 2.3",
            reason=f"{reason} [{effect.english}]", before=before, after=_player_data(player),
        )
        t.save(update_fields=["updated_at"])
    return effect


TPNS_STAY_FROZEN = gettext_noop(
    "TPNs stay frozen: round %(number)s has been paired (C.04.2 Art. 2.3); the new rating counts "
    "for standings and tie-breaks."
)
TPNS_RECOMPUTED_ROUNDS_KEPT = gettext_noop(
    "TPNs recomputed from the corrected initial order (round %(number)s is not paired yet, "
    "C.04.2 Art. 2.3); paired rounds keep their games."
)
TPNS_RECOMPUTED = gettext_noop(
    "TPNs recomputed from the corrected initial order (C.04.2 Art. 2.2, 2.3)."
)


# ---------------------------------------------------------------------------------------------
# Pairings changed by hand: a draft (manual pairing, swap, re-pair) or a published round (4.4)

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

    errors: tuple[str, ...]
    """Mistakes that make the pairing impossible to save (a player twice, a player missing)."""
    warnings: tuple[str, ...]
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
    from pairing.checker import ARTICLE

    found = re.fullmatch(r"(C\.\d\d\.\d) Art\. (.+)", article)
    return Said(ARTICLE, document=found[1], number=found[2]) if found else article


def _colour_warnings(state, boards: list[tuple[int, int]], k: int) -> list[str]:
    """Warn on colours the manual boards give: difference beyond ±2, or three in a row
    (C.04.1 Art. 6 and 7, the absolute colour rules)."""
    from pairing.model import Color
    from pairing.rules import colour_difference, colour_limits_broken, played_colours

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
                    what = Said(COLOUR_DIFFERENCE[name], difference=colour_difference(history))
                else:
                    what = Said(THREE_IN_A_ROW[name])
                found.append(
                    Said(COLOUR_RULE_BROKEN, article=_article(article), tpn=tpn, what=what)
                )
    return found


def preview_pairing(rnd: Round, boards: list[tuple[int, int]], bye: int | None) -> Preview:
    """Check a manual pairing of ``rnd`` (TPNs) and compute the engine's pairing for comparison."""
    from pairing.checker import check_round
    from pairing.errors import PairingError
    from tournaments.explain import say

    t = rnd.tournament
    pair_round = pairing_engine(t)
    built = build_engine_state(t, pairing_round=rnd.number)
    state = built.tournament
    pairing = RoundPairing(
        round=rnd.number, boards=tuple(Board(w, b) for w, b in boards), bye=bye
    )
    errors, warnings = [], []
    if t.is_double_swiss:  # the Dutch checker reads one column a round; a match has two
        errors, warnings = double_swiss.manual_pairing_problems(state, pairing)
    else:
        for violation in check_round(state, pairing):  # the engine's, said in the reader's
            (errors if violation.kind.structural else warnings).append(  # language
                Said.shown_as(say(violation.text), str(violation))
            )
        warnings += _colour_warnings(state, boards, rnd.number)
    player = built.player_by_tpn
    engine_boards: tuple = ()
    engine_bye = None
    engine_error = ""
    try:
        proposal = pair_round(state)
    except PairingError as error:
        engine_error = engine_said(error)
    else:
        score = _scores(state, rnd.number)
        engine_boards = tuple(
            (player[w], player[b]) for w, b in board_order(proposal, score)
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


def _round_rows(rnd: Round) -> list[str]:
    from tournaments.services import _round_data

    return _round_data(rnd)


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
        t, rnd = _locked_round(rnd)
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
                _("The pairing is incomplete: %(errors)s.") % {"errors": "; ".join(preview.errors)}
            )
        if preview.warnings and not accept_warnings:
            raise ServiceError(
                _("The pairing breaks rules; accept the warnings to save it anyway: %(warnings)s")
                % {"warnings": "; ".join(preview.warnings)}
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
        before = _round_rows(rnd)
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
        score = _scores(state, rnd.number)
        order = board_order(
            RoundPairing(rnd.number, tuple(Board(w, b) for w, b in boards), bye), score
        )
        for number, (w, b) in enumerate(order, start=1):
            key = (by_tpn[w].pk, by_tpn[b].pk)
            if key in existing:
                Game.objects.filter(pk=existing[key].pk).update(board=number)
            else:
                Game.objects.create(
                    round=rnd, board=number, white=by_tpn[w], black=by_tpn[b], manual=label,
                    is_match=t.is_double_swiss,
                )
        after = _round_rows(rnd)
        if published:
            action, article = "change published pairing", f"C.04.2 {reason_code}"
            reason = f"{in_english(_REASON_TEXT[reason_code])}: {note}"
        else:
            action, article, reason = "manual pairing (draft)", "", note
        if preview.warnings:  # stored in English, translated when shown (tournaments.audit)
            reason += f" | {WARNINGS_ACCEPTED}: " + "; ".join(map(english, preview.warnings))
        _audit(
            t, actor, action, round_number=rnd.number, article=article, reason=reason,
            before=before, after=after,
        )
        t.save(update_fields=["updated_at"])
    return preview


WARNINGS_ACCEPTED = gettext_noop("warnings accepted")
MANUAL_DRAFT = gettext_noop("manual (draft)")
"""``Game.manual`` of a draft board paired by hand without a note: stored in English (the TRF
export writes it), shown through ``tournaments.audit.shown`` (the ``stored_text`` filter)."""


def repair_draft(rnd: Round, actor) -> Round:
    """Throw a draft away and let the engine pair the round again, in one transaction."""
    from tournaments.services import pair_next_round, unpair_round

    with transaction.atomic():
        t, rnd = _locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _("Round %(number)s is published: it cannot be re-paired.")
                % {"number": rnd.number}
            )
        before = _round_rows(rnd)
        unpair_round(rnd, actor)
        new = pair_next_round(t, actor)
        _audit(
            t, actor, "re-pair draft", round_number=new.number, before=before,
            after=_round_rows(new),
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
    from tournaments.services import pair_next_round, request_bye, unpair_round, withdraw_player

    if kind not in dict(DRAFT_LEAVE_KINDS):
        raise ServiceError(_("Unknown choice %(choice)r.") % {"choice": kind})
    with transaction.atomic():
        t, rnd = _locked_round(rnd)
        if rnd.state != Round.State.DRAFT:
            raise ServiceError(
                _(
                    "Round %(number)s is published: enter a forfeit, or change the pairing "
                    "under C.04.2 Art. 4.4."
                ) % {"number": rnd.number}
            )
        player = _current_player(t, player)
        if not player.plays_in(rnd.number):
            raise ServiceError(not_due_to_play(player, rnd.number))
        before = _round_rows(rnd)
        number = rnd.number
        unpair_round(rnd, actor)
        if kind == "withdraw":
            withdraw_player(player, actor, from_round=number)
        else:
            request_bye(player, actor, round_number=number, kind=kind)
        new = pair_next_round(t, actor)
        _audit(
            t, actor, "re-pair draft", round_number=number, player=player,
            reason=f"{player.name}: {in_english(dict(DRAFT_LEAVE_KINDS)[kind])}",
            before=before, after=_round_rows(new),
        )
    return new
