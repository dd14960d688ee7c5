"""Result versions hang on the one table-battle model (issue 22): the company battle's foreign key and its
constraints go, once company 0007 has moved its versions."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("company", "0007_table_battle_rows"),
        ("rules", "0014_table_battle"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="resultversion", name="result_version_company_unique"),
        migrations.RemoveConstraint(model_name="resultversion", name="result_one_confirmed_company"),
        migrations.RemoveConstraint(model_name="resultversion", name="result_of_one_battle"),
        migrations.RemoveField(model_name="resultversion", name="company_battle"),
        migrations.AlterField(
            model_name="resultversion",
            name="battle",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="versions", to="rules.tablebattle"
            ),
        ),
    ]
