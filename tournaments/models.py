"""Tournaments, players, rounds, games, requested byes and the audit trail.

Points are stored in tenths of a point, as in ``pairing.model`` (1.5 points is ``15``). Games
reference players, not pairing numbers, so TPNs can be reassigned (C.04.2 Art. 2.3) without
rewriting any round. Every change of state goes through ``tournaments.services``.
"""

from __future__ import annotations

import re
import unicodedata
import uuid
import zoneinfo
from functools import cached_property

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from pairing import systems
from pairing.model import Color, PointSystem, ResultCode
from pairing.outcomes import GameResult, Outcome

TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
"""FIDE titles in the order of C.04.2 Art. 2.2.2; untitled players come after all of them."""

BAKU_NEEDS_STANDARD_SCORING = _(
    "Baku acceleration (C.04.7) applies only with the standard scoring: "
    "1 for a win, 0.5 for a draw, 0 for a loss."
)

TPN_FREEZE_ROUND = systems.TPN_FREEZE_ROUND
"""No TPN may change after this round has been paired (C.04.2 Art. 2.3)."""

MIN_ROUNDS, MAX_ROUNDS = 1, 99
"""How many rounds a tournament may announce."""

MANUAL_NOTE_LENGTH = 300
"""What a note on a pairing made by hand may hold; ``Game.manual`` also keeps its Art. 4.4 code."""

MAX_PLAYERS = 9999
"""TPNs are written in four digits in a TRF file."""

_CONTROL_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Zl", "Zp"})


def validate_one_line(value: str) -> None:
    """Refuse control characters: a line break, a tab or a NUL byte in a name or a code would
    break the line of a TRF file or a CSV export that carries it."""
    for position, char in enumerate(value, start=1):
        if unicodedata.category(char) in _CONTROL_CATEGORIES:
            raise ValidationError(
                _("Must not contain control characters (line breaks, tabs, NUL); found "
                  "U+%(code)04X at character %(position)d."),
                code="control_character",
                params={"code": ord(char), "position": position},
            )


def site_time_zone() -> str:
    """A new tournament's time zone: the site's (``settings.TIME_ZONE``)."""
    return settings.TIME_ZONE


def validate_time_zone(value: str) -> None:
    """Accept an IANA time zone name (``Europe/Zurich``, ``UTC``)."""
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("%(value)s is not a time zone: give its IANA name, e.g. Europe/Zurich."),
            code="time_zone",
            params={"value": value},
        )


ascii_digits = RegexValidator(
    r"\A[0-9]+\Z", _("Digits 0-9 only."), code="ascii_digits"
)
ascii_letters = RegexValidator(
    r"\A[A-Za-z]+\Z", _("Letters A-Z only."), code="ascii_letters"
)


_PERIOD = r"(?:[0-9]+/)?[0-9]+(?:\+[0-9]+)?"
_PERIODS = rf"{_PERIOD}(?::{_PERIOD})*"
TIME_CONTROL_CODE = rf"\A(?:{_PERIODS}|W{_PERIODS}-B{_PERIODS})\Z"
"""TRF-2026 record 222: periods ``[moves/]seconds[+increment]`` joined by ``:``; or one such
list for White and one for Black (Armageddon), ``W...-B...``."""


DEPUTY_LINE = re.compile(r"\A[^()\x00-\x1f]+?(?:\s*\([0-9]{1,11}\))?\Z")
"""A line of ``Tournament.deputy_arbiters``: title and name, then the FIDE ID in brackets."""


class RatingType(models.TextChoices):
    STANDARD = "standard", _("Standard")
    RAPID = "rapid", _("Rapid")
    BLITZ = "blitz", _("Blitz")


class PrizeSharing(models.TextChoices):
    """How players tied on points share prizes (``tournaments.prizes.SHARING``)."""

    NONE = "none", _("Prizes follow the tie-breaks")
    EQUAL = "equal", _("Prizes shared equally among players tied on points")
    HORT = "hort", _("Hort system: half shared equally, half by the tie-breaks")


class Tournament(models.Model):
    PairingSystem = models.TextChoices(
        "PairingSystem", [(s.key, (s.code, _(s.label))) for s in systems.SYSTEMS]
    )
    """The systems of ``pairing.systems``, by the code the database stores."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class InitialColor(models.TextChoices):
        WHITE = Color.WHITE.value, _("White")
        BLACK = Color.BLACK.value, _("Black")

    name = models.CharField(_("name"), max_length=120, validators=[validate_one_line])
    place = models.CharField(_("place"), max_length=120, blank=True, validators=[validate_one_line])
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), help_text=_("Number of rounds announced.")
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default=site_time_zone,
        validators=[validate_time_zone],
        help_text=_("Where the event is played: every time is shown in this zone."),
    )
    # The FIDE rating report (TRF records 022-122 and 222; see ``tournaments.report``).
    federation = models.CharField(
        _("federation"), max_length=3, blank=True, validators=[ascii_letters],
        help_text=_("Federation of the event, three letters (TRF 032)."),
    )
    event_type = models.CharField(
        _("type"), max_length=80, blank=True, default="Individual: Swiss-System",
        validators=[validate_one_line], help_text=_("Type of tournament (TRF 092)."),
    )
    rating_type = models.CharField(
        _("rating type"), max_length=8, choices=RatingType.choices, default=RatingType.STANDARD,
        help_text=_("The FIDE rating list the event is rated for."),
    )
    chief_arbiter = models.CharField(
        _("chief arbiter"), max_length=80, blank=True, validators=[validate_one_line],
        help_text=_("Title and name, e.g. IA Anna Schmidt (TRF 102)."),
    )
    chief_arbiter_fide_id = models.CharField(
        _("chief arbiter's FIDE ID"), max_length=11, blank=True, validators=[ascii_digits]
    )
    deputy_arbiters = models.TextField(
        _("deputy arbiters"),
        blank=True,
        help_text=_("One a line: title and name, then the FIDE ID in brackets, e.g. "
                    "FA Jan Novak (312345678) (TRF 112)."),
    )
    time_control = models.CharField(
        _("time control"), max_length=80, blank=True, validators=[validate_one_line],
        help_text=_("As players read it, e.g. 90 min for 40 moves + 30 min, 30 s a move "
                    "(TRF 122)."),
    )
    time_control_code = models.CharField(
        _("time control code"), max_length=60, blank=True,
        validators=[RegexValidator(
            TIME_CONTROL_CODE,
            _("Seconds, as TRF-2026 record 222 writes them: 5400+30, 40/5400+30:1800+30, or "
              "W300-B240."),
        )],
        help_text=_("Encoded for TRF-2026 (record 222): 40/5400+30:1800+30 is 90 min for 40 "
                    "moves, then 30 min, with 30 s a move from move 1."),
    )
    pairing_system = models.CharField(
        _("pairing system"), max_length=8, choices=PairingSystem.choices,
        default=PairingSystem.DUTCH_2026,
        help_text=_("Fixed once round 1 is paired. The Clock system is not FIDE-approved: a "
                    "rated event needs the Qualification Commission's authorisation (C.04.2)."),
    )
    # Point system, in tenths of a point (TRF-2026 record 162).
    points_win = models.SmallIntegerField(default=10)
    points_draw = models.SmallIntegerField(default=5)
    points_loss = models.SmallIntegerField(default=0)
    points_forfeit_win = models.SmallIntegerField(default=10)
    points_forfeit_loss = models.SmallIntegerField(default=0)
    points_pairing_bye = models.SmallIntegerField(default=10)
    points_half_bye = models.SmallIntegerField(default=5)
    points_full_bye = models.SmallIntegerField(default=10)
    points_zero_bye = models.SmallIntegerField(default=0)
    allow_full_point_bye = models.BooleanField(
        _("allow full-point byes"),
        default=False, help_text=_("Whether players may request a full-point bye."),
    )
    baku_acceleration = models.BooleanField(
        _("Baku acceleration"),
        default=False,
        help_text=_("Baku acceleration (C.04.7): virtual points for the top half in the first "
                    "half of the rounds. Standard scoring only; fixed once round 1 is paired."),
    )
    late_entry_half_point_byes = models.BooleanField(
        _("late entries get half-point byes"), default=False,
        help_text=_("A late entry scores a half-point bye for each round missed, where the "
                    "rules of the event say so (C.04.2 Art. 2.4); otherwise nothing."),
    )
    initial_color = models.CharField(
        _("initial colour"),
        max_length=1,
        choices=InitialColor.choices,
        blank=True,
        help_text=_("Colour of TPN 1 in round 1, drawn by lot (C.04.3 Art. 5.1)."),
    )
    initial_color_drawn_at = models.DateTimeField(null=True, blank=True)
    registration_open = models.BooleanField(
        _("public registration open"), default=False,
        help_text=_("Players can ask to play on the event's public registration page."),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    arbiters = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="tournaments")
    tiebreaks = models.TextField(
        _("tie-breaks"),
        blank=True, help_text=_("Tie-breaks in order, one code a line (used by the standings)."),
    )
    # The prize list (``tournaments.prizes``); each category has its own (``Category``).
    prizes = models.JSONField(
        default=list, blank=True,
        help_text="Amounts of places 1..n of the general standings, as strings ('500.00').",
    )
    prize_sharing = models.CharField(
        _("tied players"), max_length=5, choices=PrizeSharing.choices, default=PrizeSharing.NONE
    )
    currency = models.CharField(
        _("currency"), max_length=8, blank=True, validators=[validate_one_line],
        help_text=_("Written after the amounts: €, CHF, EUR."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-start_date", "name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValidationError({"end_date": _("The tournament cannot end before it starts.")})
        if self.rounds is not None and not MIN_ROUNDS <= self.rounds <= MAX_ROUNDS:
            raise ValidationError({"rounds": _("A tournament has between 1 and 99 rounds.")})
        if self.baku_acceleration and (self.points_win, self.points_draw, self.points_loss) != (
            10, 5, 0
        ):
            # C.04.7: Baku acceleration applies only with the standard scoring.
            raise ValidationError({"baku_acceleration": BAKU_NEEDS_STANDARD_SCORING})
        for line in self.deputy_arbiters.splitlines():
            if line.strip() and not DEPUTY_LINE.match(line.strip()):
                raise ValidationError({"deputy_arbiters": _(
                    "“%(line)s”: one arbiter a line, the FIDE ID in brackets at the end."
                ) % {"line": line.strip()}})
        if self.baku_acceleration and not self.system.accelerates:
            raise ValidationError(
                {"baku_acceleration": _("Baku acceleration (C.04.7) belongs to the Dutch system.")}
            )

    @cached_property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The time zone every time of the event is shown in (UTC if the name is unknown)."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    @property
    def system(self) -> systems.PairingSystem:
        """The pairing system (``pairing.systems``): everything that differs between systems,
        from the engine to whether a round is a match of two games."""
        return systems.system(self.pairing_system)

    @property
    def pairing_system_description(self) -> str:
        """One line on how the pairing system pairs, for the public pages."""
        return gettext(self.system.description)

    @property
    def pairing_system_note(self) -> str:
        """What players must know about a pairing system that is not FIDE's (C.04.2)."""
        return gettext(self.system.note) if self.system.note else ""

    @property
    def point_system(self) -> PointSystem:
        return PointSystem(
            win=self.points_win,
            draw=self.points_draw,
            loss=self.points_loss,
            forfeit_win=self.points_forfeit_win,
            forfeit_loss=self.points_forfeit_loss,
            pairing_allocated_bye=self.points_pairing_bye,
            half_point_bye=self.points_half_bye,
            full_point_bye=self.points_full_bye,
            zero_point_bye=self.points_zero_bye,
        )

    @property
    def engine_initial_color(self) -> Color | None:
        return Color(self.initial_color) if self.initial_color else None

    def is_arbiter(self, user) -> bool:
        """Return whether the user may change this tournament."""
        if not user.is_authenticated:
            return False
        return self.arbiters.filter(pk=user.pk).exists()

    def last_round(self) -> Round | None:
        """The last round, without its explanation (read only if used: ``Round.light``)."""
        return self.round_set.light().order_by("-number").first()

    def next_round_number(self) -> int:
        """The number of the round to pair next."""
        last = self.last_round()
        return 1 if last is None else last.number + 1

    def tpns_frozen(self) -> bool:
        """Return whether TPNs are final: round 4 has been paired (C.04.2 Art. 2.3); in the
        Clock system round 1, since the grid of Appendix A is built once from them."""
        return self.round_set.filter(number__gte=self.system.tpns_frozen_from_round).exists()


class PlayerQuerySet(models.QuerySet):
    def playing_in(self, round_number: int) -> PlayerQuerySet:
        """The players paired in that round (``Player.plays_in`` as a query), by TPN."""
        return self.filter(
            Q(withdrawn_from_round__isnull=True) | Q(withdrawn_from_round__gt=round_number),
            arrival_round__lte=round_number,
        ).order_by("tpn")


class Player(models.Model):
    class Sex(models.TextChoices):
        MALE = "m", _("Male")
        FEMALE = "w", _("Female")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(
        _("name"), max_length=100, help_text=_("Family name, given name."),
        validators=[validate_one_line],
    )
    fide_id = models.CharField(
        _("FIDE ID"), max_length=11, blank=True, validators=[ascii_digits]
    )
    title = models.CharField(_("title"), max_length=3, blank=True, validators=[ascii_letters])
    rating = models.PositiveSmallIntegerField(
        _("rating"), null=True, blank=True, validators=[MaxValueValidator(9999)]
    )
    federation = models.CharField(
        _("federation"), max_length=3, blank=True, validators=[ascii_letters]
    )
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    club = models.CharField(_("club"), max_length=100, blank=True, validators=[validate_one_line])
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"),
        null=True, blank=True, validators=[MinValueValidator(1900), MaxValueValidator(2100)],
    )
    tpn = models.PositiveSmallIntegerField(help_text="Tournament pairing number (C.04.2 Art. 2.3).")
    arrival_round = models.PositiveSmallIntegerField(
        default=1, help_text="First round the player is paired in (late entry, C.04.2 Art. 2.4)."
    )
    withdrawn_from_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="First round the player is no longer paired in (3.2)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "tpn"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "tpn"], name="unique_tpn_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.tpn}. {self.name}"

    def initial_order_key(self) -> tuple:
        """Sort key of C.04.2 Art. 2.2: rating (desc), title, then name alphabetically."""
        title = self.title.upper()
        title_rank = TITLE_ORDER.index(title) if title in TITLE_ORDER else len(TITLE_ORDER)
        from tournaments.names import name_key

        return (-(self.rating or 0), title_rank, name_key(self.name), self.pk or 0)

    def plays_in(self, round_number: int) -> bool:
        """Whether the player is paired in that round (arrived, not withdrawn; a query: below)."""
        if round_number < self.arrival_round:
            return False
        return self.withdrawn_from_round is None or round_number < self.withdrawn_from_round

    def takes_request(self, round_number: int) -> bool:
        """Whether a requested bye for that round counts: the player plays it, or has not
        arrived yet (a late entry's half-point bye for a round missed)."""
        return self.plays_in(round_number) or round_number < self.arrival_round


class RoundQuerySet(models.QuerySet):
    def light(self) -> RoundQuerySet:
        """Rounds without the engine's explanation, read only when used: a 5000-player round's
        is megabytes of JSON, decoded at each read of the row (a result saved reads it twice)."""
        return self.defer("explanation", "explanation_data")


class Round(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", _("Draft (not published)")
        PUBLISHED = "published", _("Published")
        FINISHED = "finished", pgettext_lazy("state of a round", "Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAFT)
    explanation = models.TextField(blank=True, help_text="The engine's account of the pairing.")
    explanation_data = models.JSONField(
        null=True, blank=True,
        help_text="The Dutch engine's explanation as data (RoundExplanation.as_dict(), plus the "
        "players' ids by TPN); none for other systems and rounds not paired by the engine.",
    )
    paired_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            # Two arbiters pairing at once can never create the same round twice.
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


_GAME_LABELS = {
    GameResult.WHITE_WINS: "1-0",
    GameResult.DRAW: "½-½",
    GameResult.BLACK_WINS: "0-1",
    GameResult.WHITE_WINS_FORFEIT: _("+/− (Black forfeits)"),
    GameResult.BLACK_WINS_FORFEIT: _("−/+ (White forfeits)"),
    GameResult.DOUBLE_FORFEIT: _("−/− (double forfeit)"),
    GameResult.NOT_PLAYED: _("Not played (annulled)"),
    GameResult.WHITE_HALF_BLACK_ZERO: "½-0",
    GameResult.WHITE_ZERO_BLACK_HALF: "0-½",
    GameResult.BOTH_LOSE: "0-0",
}

BYE_ROWS = (
    ("PAIRING_BYE", "PAB", Outcome.PAIRING_ALLOCATED_BYE, _("Pairing-allocated bye")),
    ("HALF_BYE", "H", Outcome.HALF_POINT_BYE, _("Requested half-point bye")),
    ("FULL_BYE", "F", Outcome.FULL_POINT_BYE, _("Requested full-point bye")),
    ("ZERO_BYE", "Z", Outcome.ZERO_POINT_BYE, _("Requested zero-point bye")),
    ("ABSENT", "A", Outcome.ABSENT, _("Absent")),
)
"""What a row without Black holds: its name, the value the database stores, the outcome, the
label. With ``GameResult`` (a board's result, stored as its value, ``1-0``) the one table from
the engine's vocabulary (``pairing.outcomes``) to the database."""

Result = models.TextChoices(
    "Result",
    [
        ("PENDING", ("", "—")),
        *((game.name, (game.value, _GAME_LABELS[game])) for game in GameResult),
        *((name, (value, label)) for name, value, _outcome, label in BYE_ROWS),
    ],
)
Result.__doc__ = """What one row of a round holds: a board's result (``GameResult``), or the bye or
absence of a row without Black (``BYE_ROWS``); pending while a game has no result yet."""

GAME_RESULTS = frozenset(Result(game.value) for game in GameResult if not game.in_a_match_only)
"""The results of a game (a match's games have ``MATCH_GAME_RESULTS``)."""
MATCH_GAME_RESULTS = frozenset(
    Result(game.value) for game in GameResult if game is not GameResult.NOT_PLAYED
)
"""The results of one game of a Double-Swiss match, from that game's White (no annulled game:
byes apply only to matches, never to individual games, Preface)."""
BYE_RESULTS = frozenset(Result(value) for _name, value, _outcome, _label in BYE_ROWS)
BYE_OUTCOMES: dict[str, Outcome] = {value: outcome for _n, value, outcome, _l in BYE_ROWS}
"""The outcome of a row without Black, by its stored value."""
BYE_VALUES: dict[Outcome, str] = {outcome: value for value, outcome in BYE_OUTCOMES.items()}
"""The stored value of a row without Black, by its outcome."""


def outcomes_of(result: str) -> tuple[Outcome, Outcome | None]:
    """The outcome of each side of a row: White's and Black's of a game, or a bye's alone."""
    if result in BYE_OUTCOMES:
        return BYE_OUTCOMES[result], None
    return GameResult(result).outcomes


_RESULT_LABELS = dict(Result.choices)

RESULT_KEYS = {
    "1": GameResult.WHITE_WINS,
    "0": GameResult.BLACK_WINS,
    "=": GameResult.DRAW,
    "+": GameResult.WHITE_WINS_FORFEIT,
    "-": GameResult.BLACK_WINS_FORFEIT,
    "--": GameResult.DOUBLE_FORFEIT,
    "x": GameResult.NOT_PLAYED,
}
"""The keys an arbiter types for a board's result, read from White's side (quick entry, and the
first letter of each choice of the results form); a result may also be typed as it is written
(``1-0``, ``1/2-1/2`` or ``½-½``, ``+/-``, ``-/-``, ``0-0``: ``typed_result``)."""


def typed_result(text: str) -> Result | None:
    """The result ``text`` names (a key of ``RESULT_KEYS``, or a result as written, ½ or 1/2,
    − or -), or None: ``=`` is ½-½, ``½-0`` a match game's ½-0, ``2`` nothing."""
    text = text.strip().lower().replace("½", "1/2").replace("−", "-")
    game = RESULT_KEYS.get(text)
    if game is None:
        game = next((g for g in GameResult if g.value == text), None)
    return None if game is None else Result(game.value)


def pending_game(path: str = "") -> Q:
    """Games still without a result (a match: without both); ``path`` leads to them: ``games__``."""
    return Q(**{f"{path}result": Result.PENDING}) | Q(**{
        f"{path}is_match": True, f"{path}black__isnull": False,
        f"{path}second_result": Result.PENDING})


class Game(models.Model):
    """One row of a round: a board (White against Black) or a bye/absence (no Black)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    board = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Board number; empty for byes and absences."
    )
    white = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="games_as_white")
    black = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="games_as_black"
    )
    result = models.CharField(max_length=8, choices=Result.choices, blank=True, default="")
    is_match = models.BooleanField(
        default=False,
        help_text="A Double-Swiss match (C.04.5): ``result`` is game 1, where White is White, "
        "``second_result`` game 2, where Black is White.",
    )
    second_result = models.CharField(
        max_length=8, choices=Result.choices, blank=True, default="",
        help_text="Game 2 of a Double-Swiss match, from game 2's White (this row's Black).",
    )
    # C.04.2 Art. 4.3: a correction notified after the end of the next round is kept for rating
    # only. The engine and the standings keep reading ``result`` and the colours above.
    rating_result = models.CharField(
        max_length=8,
        choices=Result.choices,
        blank=True,
        default="",
        help_text="Result for rating purposes only (late correction, Art. 4.3); empty: none.",
    )
    rating_colors_swapped = models.BooleanField(
        default=False,
        help_text="For rating purposes only, Black had the white pieces (late Art. 4.3.2).",
    )
    manual = models.CharField(
        max_length=MANUAL_NOTE_LENGTH + 20,
        blank=True,
        validators=[validate_one_line],
        help_text="Why this row was paired by hand (Art. 4.4 reason or draft note); empty: engine.",
    )

    class Meta:
        ordering = ["round", models.F("board").asc(nulls_last=True), "white__tpn"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "board"],
                name="unique_board_per_round",
                condition=Q(board__isnull=False),
            ),
            models.UniqueConstraint(fields=["round", "white"], name="unique_white_per_round"),
            models.UniqueConstraint(fields=["round", "black"], name="unique_black_per_round"),
        ]

    # Django's get_FOO_display builds a dictionary of all the choices at each call: 0.15 s of
    # a 500-board page. The labels stay lazy: each is said in the reader's language.
    def get_result_display(self) -> str:
        return _RESULT_LABELS.get(self.result, self.result)

    def get_second_result_display(self) -> str:
        return _RESULT_LABELS.get(self.second_result, self.second_result)

    def get_rating_result_display(self) -> str:
        return _RESULT_LABELS.get(self.rating_result, self.rating_result)

    def __str__(self) -> str:
        if self.black_id is None:
            return f"{self.white.name}: {self.get_result_display()}"
        return f"{self.board}. {self.white.name} - {self.black.name} {self.result or '*'}"

    @property
    def is_bye(self) -> bool:
        return self.black_id is None

    @property
    def has_result(self) -> bool:
        if self.is_match and self.black_id is not None:
            return self.result != Result.PENDING and self.second_result != Result.PENDING
        return self.result != Result.PENDING

    @property
    def match_result(self) -> str:
        """The two games of a match as one value, ``game1|game2`` (what result entry sends)."""
        return f"{self.result}|{self.second_result}"

    def game_codes(self) -> tuple[tuple[ResultCode, ResultCode], tuple[ResultCode, ResultCode]]:
        """The TRF result letters of both games of a match, each (this row's White, Black)."""
        first = tuple(o.code for o in GameResult(self.result).outcomes)
        black, white = (o.code for o in GameResult(self.second_result).outcomes)  # game 2: this
        return first, (white, black)  # row's Black has White

    def clean(self) -> None:
        if self.black_id is None and self.result not in BYE_RESULTS:
            raise ValidationError(
                {"result": _("A row without Black must be a bye or an absence.")}
            )
        if self.black_id is not None and self.result not in GAME_RESULTS | {Result.PENDING}:
            raise ValidationError({"result": _("A game cannot have a bye as its result.")})

    def page_token(self) -> str:
        """Return what a correction page shows of this row (colours and results), so that a
        correction made from a page older than the row is refused."""
        return (
            f"{self.white_id}/{self.black_id}/{self.result}/{self.rating_result}/"
            f"{int(self.rating_colors_swapped)}"
        )

    def outcomes(self) -> tuple[Outcome, Outcome | None] | None:
        """What White and Black got (a bye row: its outcome and None); None while pending."""
        if self.black_id is not None and self.result == Result.PENDING:
            return None
        return outcomes_of(self.result)

    def result_codes(self) -> tuple[ResultCode, ResultCode | None] | None:
        """Return the TRF result letters for White and Black, None while the result is pending."""
        outcomes = self.outcomes()
        if outcomes is None:
            return None
        white, black = outcomes
        return white.code, black.code if black is not None else None


class ByeRequest(models.Model):
    """A requested bye or an announced absence for a round not yet paired (C.04.2 Art. 3.3)."""

    class Kind(models.TextChoices):
        HALF = Result.HALF_BYE.value, _("Half-point bye")
        FULL = Result.FULL_BYE.value, _("Full-point bye")
        ZERO = Result.ZERO_BYE.value, _("Zero-point bye")
        ABSENT = Result.ABSENT.value, _("Absent")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="bye_requests")
    round_number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=1, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_number", "player__tpn"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "round_number"], name="one_request_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player.name}: {self.get_kind_display()} in round {self.round_number}"


class RegistrationEntry(models.Model):
    """A player's request to play, sent from the event's public registration page, waiting for
    an arbiter's approval (``tournaments.services.registration``)."""

    class State(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(
        _("name"), max_length=100, help_text=_("Family name, given name."),
        validators=[validate_one_line],
    )
    fide_id = models.CharField(_("FIDE ID"), max_length=11, blank=True, validators=[ascii_digits])
    federation = models.CharField(
        _("federation"), max_length=3, blank=True, validators=[ascii_letters]
    )
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"), validators=[MinValueValidator(1900), MaxValueValidator(2100)],
    )
    email = models.EmailField(_("e-mail"))
    language = models.CharField(max_length=8, blank=True, help_text="Of the mails sent.")
    state = models.CharField(max_length=8, choices=State.choices, default=State.WAITING)
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_state_display()})"


class AuditEntry(models.Model):
    """One change of state: who, when, what, before and after (the audit trail of issue 4)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=40)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True)
    article = models.CharField(max_length=40, blank=True, help_text="Rule article applied.")
    reason = models.TextField(blank=True)
    """In English: the arbiter's words and what the services added to them."""
    reason_text = models.JSONField(
        null=True, blank=True,
        help_text="The reason as a sentence kept as data (pairing.text.Text.as_data), said to "
        "each reader in their language; empty when the reason is the arbiter's words alone.",
    )
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "at", "pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"


class PairingJob(models.Model):
    """A round being paired by a worker (``tournaments.services.pairing_jobs``): what the arbiter
    sees while the engine works, and the draft it made. One job of a tournament at a time is
    waiting or running."""

    class State(models.TextChoices):
        WAITING = "waiting", _("Waiting for a worker")
        RUNNING = "running", _("Pairing")
        DONE = "done", _("Paired")
        FAILED = "failed", _("Not paired")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairing_jobs"
    )
    round_number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.WAITING)
    stage = models.JSONField(
        null=True, blank=True,
        help_text="What the worker is doing, a sentence kept as data (pairing.text.Text).",
    )
    failure = models.JSONField(
        null=True, blank=True, help_text="Why the round was not paired, a sentence as data.",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    """The worker says it is alive at least this often (``pairing_jobs.HEARTBEAT``)."""
    finished_at = models.DateTimeField(null=True, blank=True)
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        constraints = [
            # Two clicks, two arbiters, two servers: one round paired at a time.
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(state__in=["waiting", "running"]),
                name="one_pairing_job_at_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.round_number}: {self.state}"


class CheckJob(models.Model):
    """A file of the public checker (``/check/``) checked by a worker of the task queue
    (``tournaments.check_jobs``): the uploaded text until it is checked, then the report as the
    visitor reads it. Anonymous: reached by its random id only; deleted after
    ``CHECKER_KEEP_SECONDS``."""

    class State(models.TextChoices):
        WAITING = "waiting", _("Waiting for its turn")
        RUNNING = "running", _("Being checked")
        DONE = "done", _("Checked")
        FAILED = "failed", _("Not checked")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    state = models.CharField(max_length=8, choices=State.choices, default=State.WAITING)
    text = models.TextField(blank=True, help_text="The uploaded file, until it is checked.")
    rules = models.CharField(max_length=16, blank=True, help_text="The Dutch rules chosen, if any.")
    language = models.CharField(max_length=8, help_text="The language of the report.")
    address = models.CharField(
        max_length=45, blank=True,
        help_text="The client's address as django-axes reads it: the per-address rate limit.",
    )
    requested_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    report = models.TextField(blank=True, help_text="The report, as HTML in its language.")
    failure = models.TextField(blank=True, help_text="Why the file was not checked.")

    class Meta:
        ordering = ["requested_at"]
        indexes = [models.Index(fields=["address", "requested_at"], name="check_job_address")]

    def __str__(self) -> str:
        return f"check {self.pk}: {self.state}"


class FidePlayer(models.Model):
    """One player of FIDE's published rating list (``manage.py import_fide_list``), with the
    list's fields; ratings are 0 or empty when the player has none of that kind."""

    fide_id = models.PositiveBigIntegerField("FIDE ID", primary_key=True)
    name = models.CharField(max_length=100)
    federation = models.CharField(max_length=3, blank=True)
    sex = models.CharField(max_length=1, blank=True)
    title = models.CharField(max_length=3, blank=True)
    w_title = models.CharField("women's title", max_length=3, blank=True)
    o_title = models.CharField("other titles", max_length=40, blank=True)
    foa_title = models.CharField("FIDE Online Arena title", max_length=3, blank=True)
    standard_rating = models.PositiveSmallIntegerField(null=True, blank=True)
    standard_games = models.PositiveSmallIntegerField(null=True, blank=True)
    standard_k = models.PositiveSmallIntegerField(null=True, blank=True)
    rapid_rating = models.PositiveSmallIntegerField(null=True, blank=True)
    rapid_games = models.PositiveSmallIntegerField(null=True, blank=True)
    rapid_k = models.PositiveSmallIntegerField(null=True, blank=True)
    blitz_rating = models.PositiveSmallIntegerField(null=True, blank=True)
    blitz_games = models.PositiveSmallIntegerField(null=True, blank=True)
    blitz_k = models.PositiveSmallIntegerField(null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    flag = models.CharField(max_length=3, blank=True, help_text="i inactive, w woman, wi both.")

    class Meta:
        ordering = ["name"]
        # The search indexes (trigram, prefix) are made by tournaments.fide_list on PostgreSQL.
        indexes = [models.Index(fields=["name"], name="fideplayer_name")]

    def __str__(self) -> str:
        return f"{self.name} ({self.fide_id})"

    def rating(self, rating_type: str) -> int | None:
        """The rating of that kind (``RatingType``), None when the player has none."""
        return getattr(self, f"{rating_type}_rating") or None

    @property
    def best_title(self) -> str:
        return self.title or self.w_title


class PublicVersion(models.Model):
    """How often a tournament's data changed: the key of its cached pages and its ETags.

    The services' write path raises it once in each transaction that changes the tournament
    (``tournaments.services.write``, ``tournaments.versioning``); pages and API bodies are
    cached by it (issue 16).
    """

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="public_version"
    )
    number = models.PositiveBigIntegerField(default=1)
    changed_at = models.DateTimeField()
    standings_number = models.PositiveBigIntegerField(null=True, blank=True)
    """The last version that could change the standings (None: the current one): a result in a
    round still incomplete keeps them, as they count complete rounds only (issue 26)."""
    standings_changed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament_id} v{self.number}"


# The categories and their prizes have their own module, read with the models (Django finds a
# model where the app's models import it).
from tournaments.prize_models import Category as Category  # noqa: E402
