"""The public checker page: upload a TRF file, read round by round where its pairings differ
from the rules' and why (``tournaments.checker``). No login, nothing stored."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from pairing.model import RuleSet
from tournaments import checker
from tournaments.forms import UploadForm

# The form's own limit is 2 MB; a request much larger is refused before Django reads it.
MAX_REQUEST_BYTES = UploadForm.MAX_BYTES + 100_000


class CheckerForm(UploadForm):
    rules = forms.ChoiceField(
        label=_("Dutch rules"),
        required=False,
        choices=[
            ("", _("as the file says (192 record; else 2026)")),
            (RuleSet.DUTCH_2026.value, "2026"),
            (RuleSet.DUTCH_2017.value, "2017"),
        ],
        help_text=_("Double-Swiss and Clock files are recognised by their 192 record and marker."),
    )

    def rule_set(self) -> RuleSet | None:
        value = self.cleaned_data.get("rules")
        return RuleSet(value) if value else None


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


@require_http_methods(["GET", "HEAD", "POST"])
def check_file(request: HttpRequest) -> HttpResponse:
    report = None
    too_large = ""
    if request.method != "POST":
        form = CheckerForm()
    elif _content_length(request) > MAX_REQUEST_BYTES:
        form = CheckerForm()
        too_large = _("The file is larger than 2 MB.")
    else:
        form = CheckerForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                report = checker.check(form.cleaned_data["file"], rules=form.rule_set())
            except checker.Refused as refusal:
                form.add_error("file", str(refusal))
    context = {
        "form": form, "report": report, "too_large": too_large,
        "max_players": checker.MAX_PLAYERS, "max_rounds": checker.MAX_ROUNDS,
    }
    return render(request, "tournaments/checker.html", context)
