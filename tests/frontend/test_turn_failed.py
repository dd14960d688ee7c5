"""A failed turn is never a campaign stuck for good: the GM's dashboard says why in words, not a traceback,
and offers the fix, the campaign's settings and a retry; only the GM may retry."""

from __future__ import annotations

import pytest

from campaign.models import Campaign, Turn
from rules.services import turn_process
from tests.api.conftest import client_for
from tests.frontend.conftest import demo_url


def failed_on_a_setting(demo) -> Turn:
    """Turn 1 processed with a ruleset override the battle system does not have: it fails."""
    Campaign.objects.filter(pk=demo.pk).update(ruleset_overrides={"no_such_rule": 3})
    turn = turn_process(turn_id=demo.turns.get(number=1).pk)
    assert turn.status == Turn.Status.FAILED
    return turn


def test_it_says_why_the_turn_failed_in_words_and_offers_the_settings_and_a_retry(as_gm, demo):
    failed_on_a_setting(demo)

    page = as_gm.get(demo_url("gm")).content.decode()

    assert (
        "a setting of the campaign does not fit its battle system: no_such_rule: not a ruleset key of the "
        "iron_fist battle system. Change the setting, then retry the turn." in page
    )
    assert "Traceback" not in page and "File " not in page
    assert "RulesetError" not in page, "the technical line is on the turn's page, not said twice here"
    assert "Retry turn 1" in page
    assert 'href="#system"' in page and "Change the campaign's settings first" in page


def test_a_failure_of_the_program_is_said_as_one(as_gm, demo):
    error = 'Traceback (most recent call last):\n  File "x.py", line 1\nZeroDivisionError: division by zero\n'
    demo.turns.filter(number=1).update(status=Turn.Status.FAILED, error=error)

    page = as_gm.get(demo_url("gm")).content.decode()

    assert (
        "an error in the server&#x27;s program (ZeroDivisionError), not in the campaign&#x27;s settings"
        in page
    )
    assert "Traceback" not in page


def test_the_gm_retries_once_the_setting_is_fixed_and_a_player_cannot(
    as_role, demo, player, django_capture_on_commit_callbacks
):
    turn = failed_on_a_setting(demo)
    client = as_role("gm")
    assert "Retry turn 1" in client.get(demo_url("gm")).content.decode()

    client = as_role("player")
    assert client.post(demo_url("gm_process")).status_code in (403, 404)
    assert client_for(player).post("/api/campaigns/demo/turns/1/retry/").status_code in (403, 404)
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.FAILED

    Campaign.objects.filter(pk=demo.pk).update(ruleset_overrides={})  # the GM has the setting fixed
    client = as_role("gm")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(demo_url("gm_process"), follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Turn 1 queued again."]
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.RESOLVED
    assert "failed:" not in client.get(demo_url("gm")).content.decode()


def test_the_gm_may_change_the_battle_system_of_a_failed_turn_to_fix_it(demo, gm):
    """A setting that fits another system only: the turn fails, and the GM's fix (switching the system) is
    taken while the turn is failed, as it is while it is open; a resolved turn's is not."""
    from campaign.gm.system import battle_system_set
    from rules.engine.messages import InputError

    Campaign.objects.filter(pk=demo.pk).update(ruleset_overrides={"tabletop": {"result_deadline_hours": 48}})
    turn = turn_process(turn_id=demo.turns.get(number=1).pk)
    assert turn.status == Turn.Status.FAILED

    demo.refresh_from_db()
    assert battle_system_set(by=gm, campaign=demo, name="tabletop").battle_system == "tabletop"

    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.PROCESSING)
    with pytest.raises(InputError) as refused:
        battle_system_set(by=gm, campaign=demo, name="iron_fist")
    assert refused.value.faults()[0].code == "inputs_closed"
