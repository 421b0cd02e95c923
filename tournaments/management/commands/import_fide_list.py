"""Load FIDE's rating list: ``manage.py import_fide_list players_list.zip``.

TXT or XML, zipped or not (https://ratings.fide.com/download_lists.phtml); the file is read as
a stream and replaces the list loaded before, all or nothing, once it has been read whole. A
file that is not a list is refused on one line naming the line of the file, and so is an empty
list, or one with fewer than half the players of that loaded, unless ``--force``.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments import fide_list


class Command(BaseCommand):
    help = "Load FIDE's rating list (TXT or XML, zipped or not) into the players' search table."

    def add_arguments(self, parser):
        parser.add_argument("file", help="players_list.zip, players_list_foa.txt, *_xml.zip, ...")
        parser.add_argument(
            "--force", action="store_true",
            help="replace the list loaded even with an empty one or one less than half its size",
        )
        parser.add_argument(
            "--encoding", help="the encoding of a TXT list, e.g. latin-1 (detected by default)"
        )

    def handle(self, *args, file, force, encoding, verbosity, **options):
        def progress(players: int, read: int, total: int | None) -> None:
            share = f" ({read / total:.0%})" if total else ""
            self.stderr.write(f"{players} players read{share}")

        try:
            loaded = fide_list.import_list(
                file, force=force, encoding=encoding,
                progress=progress if verbosity >= 2 else None,
            )
        except (OSError, fide_list.FideListError) as error:
            raise CommandError(f"{file}: {error}") from None
        self.stdout.write(
            f"{loaded.players} players loaded in {loaded.seconds:.1f} s from {file} "
            f"(replacing {loaded.replaced})."
        )
        if loaded.encoding not in (None, "ascii", "utf-8") and encoding is None:
            self.stdout.write(self.style.WARNING(
                f"The file is not UTF-8: its text was read as {loaded.encoding} (detected); "
                "check a few names, or give --encoding."
            ))
