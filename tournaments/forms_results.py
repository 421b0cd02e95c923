"""Forms of results entry: the round's results form (a page of boards, or the boards a script
says were changed) and quick entry (a board's number and its result, as typed in the hall)."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy as _

from tournaments.models import Game, Result, typed_result

# Each label starts with its key of ``RESULT_KEYS`` (-/- is the second "-"), so typing the key in
# a select picks the result, as quick entry reads it.
RESULT_CHOICES = [
    (Result.PENDING.value, "—"),
    (Result.WHITE_WINS.value, "1-0"),
    (Result.BLACK_WINS.value, "0-1"),
    (Result.DRAW.value, "= ½-½"),
    (Result.WHITE_WINS_FORFEIT.value, _("+/- forfeit, White wins")),
    (Result.BLACK_WINS_FORFEIT.value, _("-/+ forfeit, Black wins")),
    (Result.DOUBLE_FORFEIT.value, _("-/- double forfeit")),
    (Result.NOT_PLAYED.value, _("x not played")),
]


MATCH_GAME_CHOICES = [
    *[c for c in RESULT_CHOICES if c[0] != Result.NOT_PLAYED.value],
    (Result.WHITE_HALF_BLACK_ZERO.value, "½-0"),
    (Result.WHITE_ZERO_BLACK_HALF.value, "0-½"),
    (Result.BOTH_LOSE.value, "0-0"),
]
"""The results of one game of a Double-Swiss match (C.04.5 Preface: ½-0, 0-½, 0-0 exist)."""


class ResultsForm(forms.Form):
    """One select per board, named ``g<id>``, in board order so Tab walks down the boards.

    Beside each select a hidden ``was_g<id>`` sends the result the page was loaded with, so that
    only boards changed on this page are written (``services.set_results``).
    """

    def __init__(self, *args, games: list[Game], focus: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.games = [g for g in games if not g.is_bye]
        self.focus = focus  # False: the page's quick entry takes the focus
        for index, game in enumerate(self.games):
            if game.is_match:
                self._match_fields(game, index)
                continue
            field = forms.ChoiceField(
                choices=RESULT_CHOICES, required=False, initial=game.result,
                label=gettext("Board %(board)s") % {"board": game.board},
            )
            if index == 0 and focus:
                field.widget.attrs["autofocus"] = True
            self.fields[f"g{game.pk}"] = field
            self.fields[f"was_g{game.pk}"] = forms.ChoiceField(
                choices=RESULT_CHOICES, required=False, initial=game.result,
                widget=forms.HiddenInput,
                label=gettext("Board %(board)s (as loaded)") % {"board": game.board},
            )

    def _match_fields(self, game: Game, index: int) -> None:
        """A Double-Swiss match: game 1 (``g<id>``) and game 2 (``g<id>_2``), each from its
        own White, so Tab goes game 1, game 2, next board (typing ``1`` then ``=``)."""
        for suffix, value, n in (("", game.result, 1), ("_2", game.second_result, 2)):
            field = forms.ChoiceField(
                choices=MATCH_GAME_CHOICES, required=False, initial=value,
                label=gettext("Board %(board)s, game %(game)s") % {"board": game.board, "game": n},
            )
            if index == 0 and n == 1 and self.focus:
                field.widget.attrs["autofocus"] = True
            self.fields[f"g{game.pk}{suffix}"] = field
            self.fields[f"was_g{game.pk}{suffix}"] = forms.ChoiceField(
                choices=MATCH_GAME_CHOICES, required=False, initial=value,
                widget=forms.HiddenInput,
                label=gettext("Board %(board)s, game %(game)s (as loaded)")
                % {"board": game.board, "game": n},
            )

    def rows(self):
        for game in self.games:
            if game.is_match:
                yield (game, self[f"g{game.pk}"], self[f"was_g{game.pk}"],
                       self[f"g{game.pk}_2"], self[f"was_g{game.pk}_2"])
            else:
                yield game, self[f"g{game.pk}"], self[f"was_g{game.pk}"], None, None

    def _value(self, game: Game, prefix: str) -> str:
        first = self.cleaned_data[f"{prefix}g{game.pk}"]
        if not game.is_match:
            return first
        return f"{first}|{self.cleaned_data[f'{prefix}g{game.pk}_2']}"

    def results(self) -> dict[int, str]:
        """Each board's result; a match's two games as ``game1|game2``."""
        return {game.pk: self._value(game, "") for game in self.games}

    def seen(self) -> dict[int, str]:
        """Return the result each board had when the page was loaded (pending if not sent)."""
        return {game.pk: self._value(game, "was_") for game in self.games}


    @staticmethod
    def posted_ids(data) -> set[int]:
        """The ids of the games whose results a post sends (a page of boards, or only those
        changed on it, as the page's script sends them)."""
        return {int(m.group(1)) for key in data if (m := _POSTED_GAME.match(key))}

    def gone(self) -> dict[int, str]:
        """Games the post sends a change for that are no longer in the round (paired again
        meanwhile, C.04.2 Art. 4.4), with what was sent: ``set_results`` refuses them."""
        known = {game.pk for game in self.games}
        return {
            pk: self.data[f"g{pk}"] for pk in self.posted_ids(self.data) - known
            if self.data.get(f"g{pk}", "") != self.data.get(f"was_g{pk}", "")
        }


_POSTED_GAME = re.compile(r"^g(\d{1,18})(?:_2)?$")


class QuickEntryForm(forms.Form):
    """A board's number, then its result, as read from a result slip: ``25 1``, ``26 =``,
    ``27 0-1``, ``28 +``; a Double-Swiss match takes its two games, ``25 1 =`` (the keys are
    ``tournaments.models.RESULT_KEYS``)."""

    entry = forms.CharField(
        max_length=40, label=_("Board and result"),
        widget=forms.TextInput(attrs={
            "autofocus": True, "autocomplete": "off", "spellcheck": "false", "size": 12,
            "placeholder": "25 1",
        }),
    )

    def clean_entry(self) -> tuple[int, str]:
        """The board's number and the result as ``set_results`` takes it (a match's two games
        as ``game1|game2``)."""
        text = self.cleaned_data["entry"].strip()
        found = _TYPED.match(text)
        if found is None:
            raise ValidationError(
                gettext("%(text)r: type the board's number, then its result (25 1, 26 =).")
                % {"text": text}
            )
        words = found.group(2).split()
        results = [typed_result(word) for word in words]
        if not words or len(words) > 2 or None in results:
            raise ValidationError(
                gettext(
                    "%(text)r is not a result: type 1, 0, = (draw), + or - (forfeit of Black "
                    "or of White), -- (double forfeit), x (not played), or the result as "
                    "written (1-0)."
                ) % {"text": found.group(2)}
            )
        return int(found.group(1)), "|".join(str(r) for r in results)


_TYPED = re.compile(r"^(\d{1,5})\s*(.*)$")
