"""One table-battle model for every table system (issue 22): tabletop's battle becomes `TableBattle`, with
the states and the archive flag a company battle needs; company_d20's battles get one each
(company 0006), and their result versions move onto it (rules 0015)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0014_alter_border_region_a"),
        ("rules", "0013_turn_write_storage"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="battle", name="battle_key_unique"),
        migrations.RenameModel(old_name="Battle", new_name="TableBattle"),
        migrations.AddField(
            model_name="tablebattle",
            name="archived",
            field=models.BooleanField(default=False, help_text="Its turn was rolled back past it."),
        ),
        migrations.AlterField(
            model_name="tablebattle",
            name="turn",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="table_battles", to="campaign.turn"
            ),
        ),
        migrations.AlterField(
            model_name="tablebattle",
            name="key",
            field=models.CharField(
                help_text='The battle\'s key in its system, like "region:B".', max_length=120
            ),
        ),
        migrations.AlterField(
            model_name="tablebattle",
            name="position",
            field=models.PositiveIntegerField(default=0, help_text="Its place in the turn's battle order."),
        ),
        migrations.AlterField(
            model_name="tablebattle",
            name="sheet",
            field=models.JSONField(
                blank=True, default=dict, help_text="The system's sheet (tabletop's A5); empty while waiting."
            ),
        ),
        migrations.AlterField(
            model_name="tablebattle",
            name="state",
            field=models.CharField(
                choices=[
                    ("open", "Open"),
                    ("waiting", "Waiting"),
                    ("resolved", "Resolved"),
                    ("gone", "no longer a battle"),
                    ("void", "Void"),
                ],
                default="open",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="tablebattle",
            constraint=models.UniqueConstraint(
                condition=models.Q(("archived", False)), fields=("turn", "key"), name="battle_key_unique"
            ),
        ),
    ]
