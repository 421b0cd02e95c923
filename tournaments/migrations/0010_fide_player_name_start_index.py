"""The index for names typed from their start in byte order ("C"), which also gives the order of
the answer (the text_pattern_ops index of 0008 could not, so 20 names needed a sort of all)."""

from django.db import migrations

NEW = (
    "CREATE INDEX IF NOT EXISTS fideplayer_name_start ON tournaments_fideplayer "
    '((UPPER("name"::text) COLLATE "C"))'
)
OLD = (
    "CREATE INDEX IF NOT EXISTS fideplayer_name_prefix ON tournaments_fideplayer "
    '(UPPER("name"::text) text_pattern_ops)'
)


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS fideplayer_name_prefix")
        schema_editor.execute(NEW)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS fideplayer_name_start")
        schema_editor.execute(OLD)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0009_round_explanation_data"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
