# The nations' missed-turn counters, which processing changes too (campaign.lifecycle), kept for rollback.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0003_input_as_text"),
    ]

    operations = [
        migrations.AddField(
            model_name="turnsnapshot",
            name="nations",
            field=models.JSONField(
                default=list, help_text="Each nation's id and NATION_FIELDS before the turn."
            ),
        ),
    ]
