# Which kinds of order there are is each battle system's to say (its registry entry's `kinds`), so the
# database keeps no list of them: an order row holds a kind of the campaign's system, checked on entry.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('orders', '0006_order_place_sequence'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='order',
            name='order_kind',
        ),
        migrations.AlterField(
            model_name='order',
            name='kind',
            field=models.CharField(max_length=12),
        ),
    ]
