# Issue 16: one version row per tournament, raised by every change (tournaments.versioning).

import django.db.models.deletion
from django.db import migrations, models
from django.utils import timezone


def create_versions(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    PublicVersion = apps.get_model("tournaments", "PublicVersion")
    now = timezone.now()
    PublicVersion.objects.bulk_create(
        [PublicVersion(tournament_id=pk, changed_at=now) for pk in Tournament.objects.values_list("pk", flat=True)],
        batch_size=500,
    )


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0010_fide_player_name_start_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="PublicVersion",
            fields=[
                (
                    "tournament",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="public_version",
                        serialize=False,
                        to="tournaments.tournament",
                    ),
                ),
                ("number", models.PositiveBigIntegerField(default=1)),
                ("changed_at", models.DateTimeField()),
            ],
        ),
        migrations.RunPython(create_versions, migrations.RunPython.noop),
    ]
