"""PostgreSQL's unaccent extension, for searches that ignore accents (tournaments.names), where
the role may create it; without it the same letters are folded by translate/replace."""

from django.db import migrations

SQL = "CREATE EXTENSION IF NOT EXISTS unaccent"


def forwards(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    from django.db import DatabaseError, transaction

    try:
        with transaction.atomic(using=connection.alias):
            schema_editor.execute(SQL)
    except DatabaseError as error:
        print(
            f"\n  unaccent not created ({str(error).strip()}); searches fold accents with "
            f"translate() instead. A superuser may run: {SQL};"
        )
    from tournaments.names import forget_unaccent

    forget_unaccent()


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0016_pairingjob"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
