"""The fields that pick players (``tournaments.player_choices``, issue 26): the markup Django's
own widgets write, without a template per option, and the players of a round asked of the
database as ``Player.plays_in`` says (``PlayerQuerySet.playing_in``)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django import forms

from tournaments import services
from tournaments.forms import LeaveDraftForm, LeaveDraftManyForm
from tournaments.player_choices import PlayerCheckboxes, PlayerField, PlayerSelect, PlayersField

pytestmark = pytest.mark.django_db


class _Markup(HTMLParser):
    """Tags with their attributes (in any order) and text (white space aside)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[tuple] = []

    def handle_starttag(self, tag, attrs):
        self.parts.append(("<", tag, tuple(sorted(attrs))))

    def handle_endtag(self, tag):
        self.parts.append((">", tag))

    def handle_data(self, data):
        if data.split():
            self.parts.append(("text", " ".join(data.split())))


def _markup(html: str) -> list[tuple]:
    reader = _Markup()
    reader.feed(str(html))
    return reader.parts


@pytest.fixture
def players(arbiter):
    t = services.create_tournament(arbiter, name="Choices", rounds=5)
    services.register_players(t, arbiter, [
        services.clean_player_fields({"name": name, "rating": 2000 - i})
        for i, name in enumerate(["Ann", 'Bo <b>"&\'', "Cy", "Di"])
    ])
    return t


def _django_form(t, multiple: bool, data=None):
    class Django(forms.Form):
        if multiple:
            chosen = forms.ModelMultipleChoiceField(
                t.players.order_by("tpn"), widget=forms.CheckboxSelectMultiple
            )
        else:
            chosen = forms.ModelChoiceField(t.players.order_by("tpn"))

    return Django(data, auto_id="id_x_%s")


def _our_form(t, multiple: bool, data=None):
    class Ours(forms.Form):
        chosen = (PlayersField if multiple else PlayerField)(t.players.order_by("tpn"))

    return Ours(data, auto_id="id_x_%s")


@pytest.mark.parametrize("multiple", [False, True])
def test_the_player_widgets_write_the_markup_of_djangos(players, multiple):
    ids = [p.pk for p in players.players.order_by("tpn")]
    for data in (None, {"chosen": [ids[1], ids[3]] if multiple else ids[1]}):
        ours = str(_our_form(players, multiple, data)["chosen"])
        theirs = str(_django_form(players, multiple, data)["chosen"])
        assert _markup(ours) == _markup(theirs)
        assert "&lt;b&gt;&quot;&amp;&#x27;" in ours
    assert isinstance(_our_form(players, multiple).fields["chosen"].widget,
                      PlayerCheckboxes if multiple else PlayerSelect)


def test_the_widgets_write_option_groups_as_django_does():
    choices = [("Group <1>", [(1, "One"), (2, "Two")]), (3, "Three")]
    for ours, theirs in ((PlayerSelect, forms.Select),
                         (PlayerCheckboxes, forms.CheckboxSelectMultiple)):
        written = [
            _markup(widget(choices=choices).render("n", [2], {"id": "id_n"}))
            for widget in (ours, theirs)
        ]
        assert written[0] == written[1]


def test_the_players_of_a_round_are_those_paired_in_it(players):
    players.players.filter(tpn=2).update(withdrawn_from_round=3)
    players.players.filter(tpn=3).update(arrival_round=2)
    for number in range(1, 5):
        expected = [p.pk for p in players.players.order_by("tpn") if p.plays_in(number)]
        assert [p.pk for p in players.players.playing_in(number)] == expected
        for form in (LeaveDraftForm, LeaveDraftManyForm):
            fields = form(tournament=players, round_number=number, kinds=[]).fields
            field = next(iter(fields.values()))
            assert list(field.queryset.values_list("pk", flat=True)) == expected
