"""PostgreSQL storage for what every turn writes (issue 15); nothing on SQLite.

- The large values, the result (3 MB at 10,000 regions), the input snapshot (3 MB) and the battle
  reports (5 MB), are compressed with lz4 rather than the default pglz: PostgreSQL spends about half as
  much CPU storing them. Only where the server was built with lz4.
- The stack table keeps 15 % of each page free, so that a turn's change of a count (a quarter of the
  stacks) is a HOT update that touches no index: a third of the time of the UPDATE on a full page.

Both apply to rows written from now on; nothing is rewritten.
"""

from django.db import migrations

# (app, model, field) of the large values.
COMPRESSED = [
    ("campaign", "Turn", "result"),
    ("rules", "TurnSnapshot", "input_json"),
    ("rules", "Report", "data"),
]
STACK_FILLFACTOR = 85


def _lz4_available(cursor) -> bool:
    cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
    row = cursor.fetchone()
    return bool(row and row[0])


def _storage_set(apps, schema_editor, *, compression: str, fillfactor: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    qn = schema_editor.quote_name
    with schema_editor.connection.cursor() as cursor:
        if _lz4_available(cursor):
            for app, model, field in COMPRESSED:
                meta = apps.get_model(app, model)._meta
                column = meta.get_field(field).column
                schema_editor.execute(
                    f"ALTER TABLE {qn(meta.db_table)} ALTER COLUMN {qn(column)} SET COMPRESSION {compression}"
                )
    stack = qn(apps.get_model("campaign", "Stack")._meta.db_table)
    schema_editor.execute(f"ALTER TABLE {stack} {fillfactor}")


def forwards(apps, schema_editor):
    _storage_set(apps, schema_editor, compression="lz4", fillfactor=f"SET (fillfactor = {STACK_FILLFACTOR})")


def backwards(apps, schema_editor):
    _storage_set(apps, schema_editor, compression="default", fillfactor="RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0014_alter_border_region_a"),
        ("rules", "0012_choice_labels"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
