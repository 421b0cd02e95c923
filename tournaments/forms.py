"""Forms of the arbiter dashboard: they validate input, the services apply it."""

from __future__ import annotations

import json
import re
import zoneinfo

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from pairing.errors import UndecodableFile
from pairing.trf import decode_file
from tournaments import fide_list
from tournaments.models import (
    GAME_RESULTS,
    MANUAL_NOTE_LENGTH,
    MAX_ROUNDS,
    MIN_ROUNDS,
    ByeRequest,
    Player,
    RatingType,
    Result,
    Tournament,
)
from tournaments.player_choices import PlayerField, PlayersField
from tournaments.sentences import engine_said
from tournaments.services.write import page_values

GAME_RESULT_VALUES = frozenset(str(r) for r in GAME_RESULTS)

POINT_FIELDS = (
    "points_win",
    "points_draw",
    "points_loss",
    "points_forfeit_win",
    "points_forfeit_loss",
    "points_pairing_bye",
    "points_half_bye",
    "points_full_bye",
    "points_zero_bye",
)


class LoadedValuesMixin:
    """A model form that also sends the stored values it was loaded with, in a hidden field, so
    that the service writes only what was changed on the page and refuses a change made on a
    page older than the data (optimistic concurrency)."""

    def add_loaded_field(self, names) -> None:
        if self.instance.pk is None:
            return
        self.fields["loaded"] = forms.CharField(
            widget=forms.HiddenInput,
            required=False,
            initial=json.dumps(page_values(self.instance, names), sort_keys=True),
        )

    def loaded_values(self) -> dict[str, str] | None:
        """Return the values the page was loaded with; None when the page did not send them."""
        try:
            values = json.loads(self.cleaned_data.get("loaded") or "null")
        except ValueError:
            return None
        if not isinstance(values, dict):
            return None
        return {str(k): str(v) for k, v in values.items()}


class PointsField(forms.DecimalField):
    """Points typed as ``1``, ``0.5`` or ``1,5``; stored in tenths."""

    def __init__(self, **kwargs):
        super().__init__(max_digits=4, decimal_places=1, min_value=-9, max_value=99, **kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = value.replace(",", ".")
        return super().to_python(value)

    def clean(self, value):
        number = super().clean(value)
        return None if number is None else int(number * 10)

    def prepare_value(self, value):
        if isinstance(value, int):
            # A number input's value is written with a point in every language (HTML); the
            # browser shows it as its language writes numbers (0,5 in French).
            return f"{value / 10:g}"
        return value


REPORT_FIELDS = (
    "federation",
    "event_type",
    "rating_type",
    "chief_arbiter",
    "chief_arbiter_fide_id",
    "deputy_arbiters",
    "time_control",
    "time_control_code",
)
"""Fields of the FIDE rating report (TRF 032-122, 222), in a fieldset of their own."""


EVENT_TYPES = {"Individual: Swiss-System": _("Individual: Swiss-System")}
"""Types of tournament as the FIDE rating report writes them (TRF 092, stored in English),
with what the form shows in the reader's language."""


class EventTypeField(forms.CharField):
    """The type of tournament: a known type is shown in the reader's language and stored as
    FIDE writes it, whatever language it was typed in; any other text is kept as typed."""

    def prepare_value(self, value):
        return str(EVENT_TYPES.get(value, value)) if isinstance(value, str) else value

    def to_python(self, value):
        value = super().to_python(value)
        typed = " ".join(value.split()).casefold()
        for english, label in EVENT_TYPES.items():
            said = {english.casefold()}
            for code, _name in settings.LANGUAGES:
                with translation.override(code):
                    said.add(" ".join(str(label).split()).casefold())
            if typed in said:
                return english
        return value


TIME_ZONE_CHOICES = [(name, name.replace("_", " ")) for name in sorted(
    zoneinfo.available_timezones() - {"localtime", "Factory"}
)]


class TournamentForm(LoadedValuesMixin, forms.ModelForm):
    class Meta:
        model = Tournament
        fields = (
            "name",
            "place",
            "start_date",
            "end_date",
            "rounds",
            "pairing_system",
            "time_zone",
            *REPORT_FIELDS,
            *POINT_FIELDS,
            "allow_full_point_bye",
            "baku_acceleration",
            "late_entry_half_point_byes",
            "tiebreaks",
        )
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
            "tiebreaks": forms.Textarea(attrs={"rows": 3}),
            "time_zone": forms.Select(choices=TIME_ZONE_CHOICES),
            "deputy_arbiters": forms.Textarea(attrs={"rows": 2}),
        }
        field_classes = {"event_type": EventTypeField}
        labels = {
            "place": _("City / place"),
            "federation": _("Federation"),
            "event_type": _("Type of tournament"),
            "chief_arbiter": _("Chief arbiter"),
            "deputy_arbiters": _("Deputy arbiters"),
            "time_control": _("Time control"),
            "time_control_code": _("Time control, encoded (TRF 222)"),
            "points_win": _("Win"),
            "points_draw": _("Draw"),
            "points_loss": _("Loss"),
            "points_forfeit_win": _("Forfeit win"),
            "points_forfeit_loss": _("Forfeit loss"),
            "points_pairing_bye": _("Pairing-allocated bye"),
            "points_half_bye": _("Requested half-point bye"),
            "points_full_bye": _("Requested full-point bye"),
            "points_zero_bye": _("Zero-point bye / absence"),
            "baku_acceleration": _("Baku acceleration (C.04.7)"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in POINT_FIELDS:
            old = self.fields[name]
            self.fields[name] = PointsField(label=old.label, initial=old.initial)
        # The browser refuses what the service would (Tournament.clean).
        self.fields["rounds"].widget.attrs.update(min=MIN_ROUNDS, max=MAX_ROUNDS)
        if self.instance.pk is not None and self.instance.round_set.exists():
            # C.04.7: the acceleration is fixed once round 1 is paired (the service refuses too).
            self.fields["baku_acceleration"].disabled = True
            self.fields["baku_acceleration"].help_text = _(
                "Round 1 has been paired: Baku acceleration can no longer be changed."
            )
        if self.instance.pk is None:
            from pairing.tiebreaks import DEFAULT_PRESET, PRESETS

            self.fields["tiebreaks"].initial = PRESETS[DEFAULT_PRESET].codes
        self.fields["tiebreaks"].help_text = _(
            "FIDE codes in order, separated by commas, e.g. BH/C1,BH,DE,WIN,WON,BPG,BWG,PS "
            "(C.07). Empty: points only."
        )
        self.fields["rating_type"].required = False
        self.add_loaded_field(self.Meta.fields)
        # A page or program that does not send it keeps the tournament's time zone.
        self.fields["time_zone"].required = False

    def clean_time_zone(self) -> str:
        return self.cleaned_data["time_zone"] or self.instance.time_zone or settings.TIME_ZONE

    def clean_tiebreaks(self) -> str:
        from pairing.tiebreaks import TieBreakSpecError, format_specs, parse_specs

        text = self.cleaned_data["tiebreaks"]
        try:
            return format_specs(parse_specs(text.replace("\n", ",")))
        except TieBreakSpecError as error:
            raise forms.ValidationError(format_html(
                "{} {}", _("Not a tie-break list of C.07:"), engine_said(error)
            )) from error

    def fields_for_service(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}

    def clean_rating_type(self) -> str:
        # Not required: a form from before the rating report (or a script) means standard.
        return self.cleaned_data["rating_type"] or RatingType.STANDARD

    def report_fields(self):
        return [self[name] for name in REPORT_FIELDS]

    def event_fields(self):
        others = {*REPORT_FIELDS, *POINT_FIELDS, "allow_full_point_bye", "baku_acceleration",
                  "late_entry_half_point_byes"}
        return [f for f in self.visible_fields() if f.name not in others]


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ("name", "rating", "title", "federation", "fide_id", "sex", "birth_year", "club")


class PlayerEditForm(LoadedValuesMixin, PlayerForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_loaded_field(self.Meta.fields)
        if self.instance.pk is not None and self.instance.tournament.tpns_frozen():
            # Once TPNs are frozen a rating changes only by a correction with its reason (4.3.3).
            self.fields["rating"].disabled = True
            self.fields["rating"].help_text = _(
                "Round 4 has been paired: use Correct the rating (C.04.2 Art. 4.3.3) below."
            )

    def fields_for_service(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class LateEntryForm(PlayerForm):
    arrival_round = forms.IntegerField(
        label=_("Arrival round"), min_value=1, help_text=_("First round the player is paired in.")
    )
    into_paired_round = forms.BooleanField(
        required=False,
        label=_("Into the round already paired"),
        help_text=_("Then re-pair the draft, or change the published pairing "
                    "(C.04.2 Art. 4.4.4)."),
    )


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
"""Control characters that no CSV or TRF text holds (tab and line feed are allowed)."""


# A character of UTF-8 written in two bytes or more (rare in a Latin-1 text: "Ã©").
UTF8_SEQUENCE = re.compile(rb"[\xc2-\xf4][\x80-\xbf]")  # a lead byte, then a continuation


class UploadForm(forms.Form):
    """A text file (CSV or TRF), decoded as the arbiter says (UTF-8 or Latin-1), else in the
    encoding detected (``fide_list.detect_encoding``: UTF-8, else charset-normalizer's guess).

    ``cleaned_data["file"]`` is the text, with every line ending (CR LF, CR) made a LF.
    """

    ENCODINGS = {"utf-8": "utf-8-sig", "latin-1": "cp1252"}

    file = forms.FileField()  # labelled by its page: its errors come without a prefix
    encoding = forms.ChoiceField(
        label=_("Encoding"),
        required=False,
        initial="",
        choices=[
            ("", _("Detect")), ("utf-8", "UTF-8"), ("latin-1", "Latin-1 (Windows-1252)"),
        ],
        help_text=_("Detected from the file unless chosen here."),
    )

    MAX_BYTES = 2_000_000

    @classmethod
    def detected(cls, raw: bytes) -> str:
        """The codec of a file whose encoding the arbiter left to be detected. A file that
        holds UTF-8's sequences of several bytes but is not UTF-8 is a damaged UTF-8 file, read
        as UTF-8 to be refused with the place of the damage (not misread as Latin-1)."""
        if UTF8_SEQUENCE.search(raw):
            return cls.ENCODINGS["utf-8"]
        try:
            found = fide_list.detect_encoding(raw)
        except fide_list.FideListError:
            raise forms.ValidationError({"file": _(
                "The file's encoding was not recognised: save it as UTF-8, or choose its "
                "encoding."
            )}) from None
        return cls.ENCODINGS["utf-8"] if found == "utf-8" else found

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is None or self.errors:
            return cleaned
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError({"file": _("The file is larger than 2 MB.")})
        raw = upload.read()
        if b"\0" in raw:
            line = raw[: raw.index(b"\0")].count(b"\n") + 1
            raise forms.ValidationError(
                {"file": _("This is not a text file (a NUL byte on line %(line)s): upload the CSV "
                           "or TRF file itself.") % {"line": line}}
            )
        encoding = cleaned.get("encoding") or ""
        try:
            text = decode_file(raw, self.ENCODINGS.get(encoding) or self.detected(raw))
        except UndecodableFile as error:
            hint = (
                _("Save it as UTF-8, or choose Latin-1 if it was written that way.")
                if encoding != "latin-1"
                else _("It is not a Latin-1 (Windows-1252) text file either.")
            )
            raise forms.ValidationError(
                {"file": _("The file is not valid %(encoding)s (line %(line)s, byte %(byte)s). "
                           "%(hint)s") % {
                    "encoding": dict(self.fields["encoding"].choices)[encoding or "utf-8"],
                    "line": error.line, "byte": error.byte, "hint": hint,
                }}
            ) from None
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        bad = _CONTROL.search(text)
        if bad is not None:
            line = text.count("\n", 0, bad.start()) + 1
            raise forms.ValidationError(
                {"file": _("This is not a text file: control character U+%(code)04X on line "
                           "%(line)s.") % {"code": ord(bad.group()), "line": line}}
            )
        cleaned["file"] = text
        return cleaned


class ArchiveUploadForm(forms.Form):
    """An event archive (``manage.py export_event``, the dashboard's download): its bytes."""

    file = forms.FileField()

    MAX_BYTES = 50_000_000
    """A 400-player, 15-round event with its audit trail is a few megabytes."""

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 50 MB."))
        return upload.read()


class ByeRequestForm(forms.Form):
    player = PlayerField(queryset=Player.objects.none(), label=_("Player"))
    round_number = forms.IntegerField(min_value=1, label=_("Round"))
    kind = forms.ChoiceField(choices=ByeRequest.Kind.choices, label=_("Kind"))

    def __init__(self, *args, tournament: Tournament, next_round: int, **kwargs):
        kwargs.setdefault("auto_id", "id_bye_%s")  # unique ids beside the dashboard's other forms
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = tournament.players.order_by("tpn")
        self.fields["round_number"].initial = next_round
        self.fields["round_number"].max_value = tournament.rounds
        kinds = ByeRequest.Kind.choices
        if not tournament.allow_full_point_bye:
            kinds = [(k, label) for k, label in kinds if k != ByeRequest.Kind.FULL]
        self.fields["kind"].choices = kinds


class WithdrawForm(forms.Form):
    from_round = forms.IntegerField(min_value=1, label=_("From round"))


class ArbiterForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))


# Corrections and changes (C.04.2 Art. 2.3, 4.3, 4.4), applied by ``tournaments.services``.

REASON_WIDGET = forms.Textarea(attrs={"rows": 2, "cols": 60})


class LoadedTokenForm(forms.Form):
    """A form that sends back what its page showed (``loaded``), for the stale-page check."""

    loaded = forms.CharField(widget=forms.HiddenInput, required=False)

    def loaded_value(self) -> str | None:
        return self.cleaned_data.get("loaded") if "loaded" in self.data else None


class ResultCorrectionForm(LoadedTokenForm):
    result = forms.ChoiceField(
        label=_("Correct result"),
        choices=[(value, label) for value, label in Result.choices if value in GAME_RESULT_VALUES],
    )
    reason = forms.CharField(label=_("Reason"), widget=REASON_WIDGET, max_length=500)


class ColourCorrectionForm(LoadedTokenForm):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "id_colours_%s")  # beside the result form on one page
        super().__init__(*args, **kwargs)

    reason = forms.CharField(label=_("Reason"), widget=REASON_WIDGET, max_length=500)


class RatingCorrectionForm(LoadedTokenForm):
    rating = forms.IntegerField(
        label=_("Correct rating"), min_value=0, max_value=3500, required=False
    )
    reason = forms.CharField(label=_("Reason"), widget=REASON_WIDGET, max_length=500)


class PairingChangeForm(LoadedTokenForm):
    text = forms.CharField(
        label=_("Pairing"),
        widget=forms.Textarea(attrs={"rows": 12, "cols": 24}),
        # HTML (the page shows it as such): the keyword "bye" of the syntax is English.
        help_text=_('One board a line as <code>white TPN - black TPN</code>; '
                    '<code>TPN <span lang="en">bye</span></code> for the pairing-allocated bye. '
                    "Requested byes and absences stay as they are."),
    )
    reason_code = forms.ChoiceField(
        label=_("Reason (C.04.2 Art. 4.4)"), required=False, choices=[]
    )
    note = forms.CharField(
        label=_("Note"), required=False, max_length=MANUAL_NOTE_LENGTH, widget=REASON_WIDGET
    )
    accept_warnings = forms.BooleanField(label=_("I accept the warnings below"), required=False)
    swap_a = forms.IntegerField(label=_("Swap TPN"), required=False, min_value=1)
    swap_b = forms.IntegerField(label=_("with TPN"), required=False, min_value=1)

    def __init__(self, *args, reasons=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason_code"].choices = [("", "—")] + [
            (code, f"{code} {text}") for code, text in reasons
        ]


class LeaveDraftForm(forms.Form):
    player = PlayerField(queryset=Player.objects.none(), label=_("Player"))
    kind = forms.ChoiceField(label=_("What happens"), choices=())

    def __init__(self, *args, tournament, round_number, kinds, **kwargs):
        kwargs.setdefault("auto_id", "id_leave_%s")  # beside the form for several players
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = tournament.players.playing_in(round_number)
        self.fields["kind"].choices = kinds


# Several players at once (``tournaments.services.bulk``).


class BulkPlayersForm(forms.Form):
    """The players ticked in the dashboard's list, and what happens to them from which round."""

    players = forms.ModelMultipleChoiceField(queryset=Player.objects.none(), label=_("Players"))
    action = forms.ChoiceField(label=_("Action"), choices=())
    round_number = forms.IntegerField(min_value=1, label=_("Round"))

    def __init__(self, *args, tournament: Tournament, next_round: int, **kwargs):
        from tournaments.services.bulk import BULK_ACTIONS

        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = tournament.players.order_by("tpn")
        self.fields["round_number"].initial = next_round
        self.fields["action"].choices = [
            (code, label) for code, label in BULK_ACTIONS.items()
            if code != ByeRequest.Kind.FULL or tournament.allow_full_point_bye
        ]


class LeaveDraftManyForm(forms.Form):
    players = PlayersField(queryset=Player.objects.none(), label=_("Players"))
    kind = forms.ChoiceField(label=_("What happens"), choices=())

    def __init__(self, *args, tournament, round_number, kinds, **kwargs):
        kwargs.setdefault("auto_id", "id_many_%s")  # beside the form for one player
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = tournament.players.playing_in(round_number)
        self.fields["kind"].choices = kinds
