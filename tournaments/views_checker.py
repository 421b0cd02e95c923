"""The public checker page: upload a TRF file, read round by round where its pairings differ
from the rules' and why (``tournaments.checker``). No login. A file the engine cannot read is
refused at once; the others are checked by a worker (``tournaments.check_jobs``), and the visitor
is sent to a page that waits for the report."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from pairing.model import RuleSet
from tournaments import check_jobs, checker
from tournaments.forms import UploadForm
from tournaments.models import CheckJob

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
    too_large = ""
    status = 200
    if request.method != "POST":
        form = CheckerForm()
    elif _content_length(request) > MAX_REQUEST_BYTES:
        form = CheckerForm()
        too_large = _("The file is larger than 2 MB.")
    else:
        form = CheckerForm(request.POST, request.FILES)
        if form.is_valid():
            text, rules = form.cleaned_data["file"], form.rule_set()
            try:
                checker.read(text, rules)
                job = check_jobs.request_check(text, rules, check_jobs.client_address(request))
            except checker.Refused as refusal:
                form.add_error("file", str(refusal))
            except check_jobs.Refusal as refusal:
                form.add_error(None, str(refusal))
                status = refusal.status
            else:
                check_jobs.start(job)
                return redirect("check-job", pk=job.pk)
    context = {
        "form": form, "too_large": too_large,
        "max_players": checker.MAX_PLAYERS, "max_rounds": checker.MAX_ROUNDS,
        "cpu_seconds": check_jobs.seconds_said(check_jobs.cpu_seconds()),
    }
    return render(request, "tournaments/checker.html", context, status=status)


@never_cache
@require_http_methods(["GET", "HEAD"])
def check_job(request: HttpRequest, pk) -> HttpResponse:
    """A check's page: it reloads itself while the check waits or runs, then shows the report."""
    job = get_object_or_404(CheckJob, pk=pk)
    lost = check_jobs.is_lost(job)
    return render(request, "tournaments/check_job.html", {
        "job": job,
        "working": job.state in check_jobs.ACTIVE and not lost,
        "lost": lost,
        "ahead": check_jobs.ahead_of(job) if job.state == CheckJob.State.WAITING else 0,
    })
