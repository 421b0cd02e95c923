"""Create a tournament from a TRF file, as the dashboard's import does: every round in the file,
finished and public. Prints the new tournament's id.

    manage.py import_trf FILE --owner USERNAME [--encoding latin-1]
"""

from __future__ import annotations

from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand, CommandError

from tournaments import services
from tournaments.forms import UploadForm
from tournaments.management import inputs


class Command(BaseCommand):
    help = "Create a tournament from a TRF file (all rounds, results published); print its id."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--owner", required=True, help="Username of the arbiter who owns the tournament."
        )
        parser.add_argument(
            "--encoding", choices=sorted(UploadForm.ENCODINGS), default="utf-8",
            help="The file's encoding (default utf-8).",
        )

    def handle(self, *args, file: Path, owner: str, encoding: str, **options) -> None:
        raw = inputs.file_bytes(file)
        user = inputs.owner(owner)
        # The dashboard's upload form and service: the same checks and messages.
        upload = UploadForm(
            data={"encoding": encoding}, files={"file": SimpleUploadedFile(file.name, raw)}
        )
        if not upload.is_valid():
            errors = "; ".join(str(e) for field in upload.errors.values() for e in field)
            raise CommandError(f"{file}: {errors}")
        try:
            tournament = services.import_trf(upload.cleaned_data["file"], user)
        except services.ServiceError as error:
            raise CommandError(f"{file}: {error}") from error
        self.stdout.write(str(tournament.pk))
