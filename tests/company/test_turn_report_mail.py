"""The company turn report, the mail after the battles (COMPANY.md §6 step 6, §11.1): besides its battles,
each nation reads its orders rejected at processing with their reasons (§4.2), its own recon rolls without
the target's dice or ids (§10.2, §10.3) and its units' retreats (§6); the GM reads every nation's. A
scouted nation is told so only with `recon.target_notified` (§10.2)."""

from __future__ import annotations

import pytest


def _turn_with_a_rejected_order(company):
    """NOR attacks and scouts M1 and also moves its commander into M1, which it does not hold: an order
    the submission check would refuse, stored as processing finds it."""
    from rules.company import models
    from tests.company.conftest import attack_and_scout

    turn = attack_and_scout(company)
    stored = models.OrderSet.objects.get(turn=turn, nation=company.nor)
    chief = company.units["Päällikkö"].number
    move = {"nation": "NOR", "kind": "move", "from": "N5", "to": "M1", "units": [chief]}
    stored.orders = [*stored.orders, move]
    stored.save()
    return turn


def _mails(company, gm, player, rival, capture, *, notified: bool = False):
    from django.core import mail

    from campaign.models import Campaign
    from rules.company import models
    from rules.services import turn_process
    from tests.company.conftest import result_final

    if notified:
        overrides = {**company.campaign.ruleset_overrides, "recon": {"target_notified": True}}
        Campaign.objects.filter(pk=company.campaign.pk).update(ruleset_overrides=overrides)
    for user in (gm, player, rival):
        user.email = f"{user.username}@example.org"
        user.save()
    turn = _turn_with_a_rejected_order(company)
    turn_process(turn_id=turn.pk)
    battle = models.Battle.objects.get(turn=turn, table__archived=False, kind="normal")
    nor = {str(u.number) for u in company.units.values() if u.nation_id == company.nor.pk}
    entry = {"units": [{"unit": int(n), "vp": 5 if n in nor else 0} for n in battle.data["units"]]}
    mail.outbox.clear()
    with capture(execute=True):
        result_final(battle, entry, gm)
    return {m.to[0]: m.body for m in mail.outbox if "after the battles" in m.body}


@pytest.mark.django_db
def test_the_turn_report_tells_each_nation_its_rejected_orders_recon_and_retreats(
    company, gm, player, rival, django_capture_on_commit_callbacks
):
    by = _mails(company, gm, player, rival, django_capture_on_commit_callbacks)
    mine, theirs, gms = by["player@example.org"], by["rival@example.org"], by["gm@example.org"]
    assert "Orders rejected at processing" in mine and "You do not hold M1; use an attack." in mine
    assert "Tiedustelu scouted M1: total" in mine
    assert "against" not in mine  # the target's total and id stay the GM's
    assert "Chef" in mine  # the battle's report, which NOR fought, names the defenders
    assert "rejected" not in theirs and "scouted" not in theirs  # EST is not told (target_notified false)
    assert "Retreats" in theirs and "Chef" in theirs.split("Retreats")[1]
    assert "Retreats" not in mine
    assert "NOR: You do not hold M1" in gms and "against #" in gms and "Retreats" in gms
    # §11.1: the report starts with a summary; EST's defenders, cut off from M1, fell.
    assert "Turn 1: 1 battle; you took M1\n" in mine
    assert "Turn 1: 1 battle; you lost M1; Chef, Gruppe 1, MG fell" in theirs
    assert "Turn 1: 1 battle\n" in gms


@pytest.mark.django_db
def test_a_scouted_nation_is_told_so_with_target_notified(
    company, gm, player, rival, django_capture_on_commit_callbacks
):
    from django.core import mail

    from campaign.lifecycle import language_set

    language_set(user=rival, language="fi")
    _mails(company, gm, player, rival, django_capture_on_commit_callbacks, notified=True)
    by = {m.to[0]: m.body for m in mail.outbox}
    assert "NOR tiedusteli alueen M1." in by["rival@example.org"]  # in the reader's language
    assert "Vuoro 1: 1 taistelu; menetit: M1; Chef, Gruppe 1, MG kaatuivat" in by["rival@example.org"]
    assert "scouted M1." not in by["player@example.org"].replace("Tiedustelu scouted M1:", "")
