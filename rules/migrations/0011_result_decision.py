import re

from django.db import migrations, models

# The reasons the workflow wrote as English sentences before it kept a decision (rules.results_flow): each
# becomes its code, so that it reads in the reader's language; anything else is a GM's own words and stays.
FIXED = {
    "entered by the GM": "entered_by_gm",
    "agreed by every nation of the battle": "agreed_by_all",
    "confirmed by the GM": "confirmed_by_gm",
    "confirmed at the deadline": "confirmed_at_deadline",
    "archived at the deadline: not agreed": "not_agreed_at_deadline",
    "auto-resolved at the deadline: no agreed result": "auto_resolved_at_deadline",
    "auto-resolved by the GM": "auto_resolved_by_gm",
    "forces changed": "forces_changed",
    "battle no longer exists": "battle_gone",
    "replayed from the campaign's export": "replayed",
}
WHY = {"reopened: ": "reopened", "battle void: ": "battle_void", "auto-resolved by the GM: ": "auto_resolved_by_gm_why"}
CONFIRMED = re.compile(r"confirmed by the GM(?:; not agreed by (?P<missing>[^;]+))?(?:; disputed by (?P<disputed>.+))?$")
CARRIED = re.compile(r"carried over: version (?P<number>\d+) of the result rolled back at (?P<archived_at>.+) UTC$")


def _decision(reason):
    if reason in FIXED:
        return FIXED[reason], {}
    for prefix, code in WHY.items():
        if reason.startswith(prefix):
            return code, {"why": reason[len(prefix) :]}
    if found := CARRIED.match(reason):
        return "carried_over", {"number": int(found["number"]), "archived_at": found["archived_at"]}
    if found := CONFIRMED.match(reason):
        missing = found["missing"].split(", ") if found["missing"] else []
        disputed = found["disputed"].split(", ") if found["disputed"] else []
        code = "confirmed" + ("_not_agreed" if missing else "") + ("_disputed" if disputed else "")
        return code, {"missing": missing, "disputed": disputed}
    return None


def reasons_to_decisions(apps, schema_editor):
    ResultVersion = apps.get_model("rules", "ResultVersion")
    for version in ResultVersion.objects.exclude(reason="").filter(decision__isnull=True).iterator():
        found = _decision(version.reason)
        if found is not None:
            code, params = found
            version.decision, version.reason = {"code": "results.decided." + code, "params": params}, ""
            version.save(update_fields=["decision", "reason"])


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0010_tabletop_rollback_rounds"),
    ]

    operations = [
        migrations.AddField(
            model_name="resultversion",
            name="decision",
            field=models.JSONField(
                blank=True,
                help_text="Why it was confirmed, set aside or reopened: a stored message (rules.results_flow).",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="resultversion",
            name="reason",
            field=models.CharField(blank=True, help_text="The GM's own words for a void, as typed.", max_length=2000),
        ),
        migrations.RunPython(reasons_to_decisions, migrations.RunPython.noop),
    ]
