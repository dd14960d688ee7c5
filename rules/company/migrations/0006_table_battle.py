"""Each company battle gets its table battle (rules.TableBattle, issue 22): the link first; 0007 makes the
rows and moves the versions, 0008 drops what moved. Each step is a migration of its own: PostgreSQL alters
no table while a step's row changes still have checks pending."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("company", "0005_table_turn_log"),
        ("rules", "0014_table_battle"),
    ]

    operations = [
        migrations.AddField(
            model_name="battle",
            name="table",
            field=models.OneToOneField(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="company",
                to="rules.tablebattle",
            ),
        ),
    ]
