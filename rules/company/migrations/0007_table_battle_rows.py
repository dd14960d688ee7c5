"""Each company battle's table battle made, with its state, archive flag and nations; its result versions
move onto it (rules 0015 then drops their second foreign key)."""

from django.db import migrations


def tables_make(apps, schema_editor):
    Battle = apps.get_model("company", "Battle")
    TableBattle = apps.get_model("rules", "TableBattle")
    ResultVersion = apps.get_model("rules", "ResultVersion")
    for battle in Battle.objects.order_by("pk").iterator():
        table = TableBattle.objects.create(
            turn_id=battle.turn_id,
            key=battle.key,
            kind=battle.kind,
            position=battle.position,
            state=battle.status,
            archived=battle.archived,
            nations=list(battle.data.get("sides") or battle.nations.values_list("code", flat=True)),
        )
        battle.table = table
        battle.save(update_fields=["table"])
        ResultVersion.objects.filter(company_battle_id=battle.pk).update(battle=table, company_battle=None)


def tables_unmake(apps, schema_editor):
    Battle = apps.get_model("company", "Battle")
    ResultVersion = apps.get_model("rules", "ResultVersion")
    for battle in Battle.objects.select_related("table"):
        table = battle.table
        battle.status, battle.archived, battle.table = table.state, table.archived, None
        battle.save(update_fields=["status", "archived", "table"])
        ResultVersion.objects.filter(battle_id=table.pk).update(company_battle=battle.pk, battle=None)
        table.delete()


class Migration(migrations.Migration):
    dependencies = [("company", "0006_table_battle")]

    operations = [migrations.RunPython(tables_make, tables_unmake)]
