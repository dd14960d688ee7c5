"""A company battle's state and archive flag are its table battle's (0007 moved them); its world snapshot
gets a name of its own beside the engine's TurnSnapshot."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("company", "0007_table_battle_rows"),
        ("rules", "0015_versions_of_table_battles"),
    ]

    operations = [
        migrations.AlterField(
            model_name="battle",
            name="table",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE, related_name="company", to="rules.tablebattle"
            ),
        ),
        migrations.RemoveField(model_name="battle", name="status"),
        migrations.RemoveField(model_name="battle", name="archived"),
        migrations.RenameModel(old_name="TurnSnapshot", new_name="WorldSnapshot"),
    ]
