"""Places in a turn's submission order are drawn from a sequence on PostgreSQL (orders/sql.py, lock 3).

It starts after every place already taken, so that the orders of a turn open now keep their order."""

from django.db import migrations

SEQUENCE = "orders_order_place"


def sequence_create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # SQLite counts places on the turn (Turn.orders_placed)
    schema_editor.execute(f"CREATE SEQUENCE {SEQUENCE} AS bigint")
    schema_editor.execute(
        f"SELECT setval('{SEQUENCE}', GREATEST((SELECT MAX(sequence) FROM orders_order), 0) + 1, false)"
    )


def sequence_drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP SEQUENCE {SEQUENCE}")


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0005_alter_order_turn"),
    ]

    operations = [migrations.RunPython(sequence_create, sequence_drop)]
