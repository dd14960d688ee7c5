# The engine's input kept as the canonical JSON text its fingerprint hashes, not as a parsed JSON column.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0002_turn_history"),
    ]

    operations = [
        migrations.RemoveField(model_name="turnsnapshot", name="turn_input"),
        migrations.AddField(
            model_name="turnsnapshot",
            name="input_json",
            field=models.TextField(
                default="", help_text="The TurnInput and the seed, canonical JSON: what the engine got."
            ),
            preserve_default=False,
        ),
        migrations.RemoveField(model_name="turnpreview", name="turn_input"),
        migrations.AddField(
            model_name="turnpreview",
            name="input_json",
            field=models.TextField(
                default="", help_text="The input previewed, to name what changed before publishing."
            ),
            preserve_default=False,
        ),
    ]
