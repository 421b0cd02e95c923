"""The form of an event's public registration page (tournaments.views_registration)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import RegistrationEntry


class EntryForm(forms.ModelForm):
    """A player's entry on the event's public registration page. ``website`` is a trap for
    robots: hidden from people (and from screen readers), filled only by a program."""

    website = forms.CharField(required=False, label=_("Leave this field empty"))

    class Meta:
        model = RegistrationEntry
        fields = ("name", "fide_id", "federation", "birth_year", "email")
        help_texts = {"fide_id": _("Looked up in FIDE's rating list: name, federation and "
                                   "birth year are taken from it.")}

    def is_robot(self) -> bool:
        return bool(self.data.get("website"))
