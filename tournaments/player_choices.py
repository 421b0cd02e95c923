"""Fields that pick players of a tournament, at the size of a big open (issue 26): a 5000-player
event's list is 5000 options. Django's widgets render each option through a template of its own
(a second of CPU for a select and a list of checkboxes at 5000 players); these write the same
markup in Python, and the options read only what their labels show (``Player.__str__``: the
pairing number and the name), not whole rows. A chosen player is still read whole."""

from __future__ import annotations

from html import escape

from django import forms
from django.utils.safestring import SafeString, mark_safe


class PlayerChoices(forms.models.ModelChoiceIterator):
    """The players of the field's queryset as options, read with the columns of their label
    (and the tournament's: a tournament's related manager sets it on each row, a deferred one
    would cost a query a row)."""

    def __init__(self, field: forms.ModelChoiceField) -> None:
        super().__init__(field)
        self.queryset = field.queryset.only("tournament", "tpn", "name")


def _attrs(attrs: dict) -> str:
    """The attributes as ``flatatt`` writes them: a true boolean bare, a false or None one left
    out."""
    return "".join(
        f" {name}" if value is True else f' {name}="{escape(str(value))}"'
        for name, value in attrs.items() if value is not False and value is not None
    )


def _groups(widget: dict, option, group: str) -> str:
    """The options of a widget's context, each written by ``option``; a named group's written
    with ``group`` (its name, then its options)."""
    parts = []
    for name, options, _index in widget["optgroups"]:
        written = "".join(option(o) for o in options)
        parts.append(group.format(escape(str(name)), written) if name else written)
    return "".join(parts)


class PlayerSelect(forms.Select):
    """A select of players: Django's markup, written without a template per option."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        options = _groups(
            widget,
            lambda o: f'\n<option value="{escape(str(o["value"]))}"{_attrs(o["attrs"])}>'
            f'{escape(str(o["label"]))}</option>',
            '\n<optgroup label="{}">{}\n</optgroup>',
        )
        return mark_safe(  # every value escaped above
            f'<select name="{escape(widget["name"])}"{_attrs(widget["attrs"])}>{options}\n</select>'
        )


class PlayerCheckboxes(forms.CheckboxSelectMultiple):
    """A checkbox a player, each in its label: Django's markup, without a template per box."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        boxes = _groups(
            widget,
            lambda o: f'<div><label{_attrs({"for": o["attrs"].get("id")})}><input type="checkbox" '
            f'name="{escape(o["name"])}" value="{escape(str(o["value"]))}"{_attrs(o["attrs"])}> '
            f'{escape(str(o["label"]))}</label></div>\n',
            "<div><label>{}</label>\n{}</div>\n",
        )
        outer = {"id": widget["attrs"].get("id"), "class": widget["attrs"].get("class")}
        return mark_safe(f"<div{_attrs(outer)}>\n{boxes}</div>")  # escaped above


class PlayerField(forms.ModelChoiceField):
    """One player, from a select."""

    iterator = PlayerChoices
    widget = PlayerSelect


class PlayersField(forms.ModelMultipleChoiceField):
    """Several players, from checkboxes."""

    iterator = PlayerChoices
    widget = PlayerCheckboxes
