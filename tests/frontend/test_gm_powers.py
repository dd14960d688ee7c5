"""The GM's powers on the dashboard: the clock (pause, resume, extend, settings), players for nations in civil
disorder, a turn's preview, publication and rollback with what changed, the export; and everyone's time zone.

Every page says what happened; what the GM alone may do is refused to the player, the rival, the outsider
and the anonymous visitor, and changes nothing when refused.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from campaign.models import AuditEntry, Campaign, Membership, Nation, Profile, Turn
from rules.models import Report, TurnArchive, TurnPreview
from rules.services import turn_process
from tests.campaign.test_turn_processing import ORDERS  # a busy first turn on the demo map
from tests.frontend.conftest import demo_url
from tests.frontend.test_permissions import _check
from tests.frontend.test_queries import CEILING
from tests.history.conftest import world_rows


def _said(response):
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def busy_turn1(demo, player, rival, place_orders):
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)
    return turn


# --- The clock -------------------------------------------------------------------------------------------


def test_it_pauses_the_campaign_and_the_top_bar_says_paused(as_gm, client, demo, turn1, player):
    Turn.objects.filter(pk=turn1.pk).update(deadline=timezone.now() + timedelta(days=2, hours=3, seconds=20))

    response = as_gm.post(demo_url("gm_pause"), {"pause-reason": "the GM is on holiday"}, follow=True)

    assert _said(response) == [
        "Campaign paused with 2 days 3 hours left: nothing is reminded or processed until you resume it."
    ]
    assert Campaign.objects.get(pk=demo.pk).paused_at is not None
    assert '<span class="deadline paused"><strong>paused</strong></span>' in response.content.decode()
    assert AuditEntry.objects.get(action="pause").reason == "the GM is on holiday"
    client.force_login(player)
    page = client.get(demo_url("campaign")).content.decode()
    assert "<strong>paused</strong>" in page and "deadline passed" not in page


def test_it_resumes_with_the_time_that_was_left(as_gm, demo, turn1):
    as_gm.post(demo_url("gm_pause"), {"pause-reason": ""})

    response = as_gm.post(demo_url("gm_resume"), {"pause-reason": "back"}, follow=True)

    turn1.refresh_from_db()
    assert _said(response)[-1] == f"Campaign resumed: turn 1 is due {turn1.deadline:%Y-%m-%d %H:%M} UTC."
    assert Campaign.objects.get(pk=demo.pk).paused_at is None
    assert "<strong>paused</strong>" not in response.content.decode()


def test_it_says_beside_the_button_that_a_campaign_not_paused_cannot_resume(as_gm, turn1):
    response = as_gm.post(demo_url("gm_resume"), {"pause-reason": ""})

    assert response.status_code == 400
    assert response.context["pause_form"].non_field_errors() == ["the campaign is not paused"]
    assert not AuditEntry.objects.exists()


def test_it_extends_the_deadline_of_the_open_turn(as_gm, turn1):
    before = turn1.deadline

    response = as_gm.post(
        demo_url("gm_extend"), {"extend-extra": "36", "extend-reason": "a holiday"}, follow=True
    )

    turn1.refresh_from_db()
    assert turn1.deadline == before + timedelta(hours=36)
    assert _said(response) == [
        f"Turn 1 has 36 more hours: due {turn1.deadline.astimezone(UTC):%Y-%m-%d %H:%M} UTC."
    ]


def test_it_shows_a_refused_extension_next_to_its_field(as_gm, turn1):
    before = turn1.deadline

    response = as_gm.post(demo_url("gm_extend"), {"extend-extra": "-2", "extend-reason": ""})

    assert response.status_code == 400
    assert response.context["extend_form"].errors["extra"] == ["extend by a positive amount of time"]
    page = response.content.decode()
    assert page.index('id="extend"') < page.index("extend by a positive amount of time")
    turn1.refresh_from_db()
    assert turn1.deadline == before


def test_it_saves_the_life_cycle_settings(as_gm, demo):
    response = as_gm.post(
        demo_url("gm_lifecycle"),
        {
            "lifecycle-process_early": "on",
            "lifecycle-reminder_before": "6",
            "lifecycle-civil_disorder_after": "2",
        },
        follow=True,
    )

    demo.refresh_from_db()
    assert (demo.process_early, demo.reminder_before, demo.civil_disorder_after) == (
        True,
        timedelta(hours=6),
        2,
    )
    assert _said(response) == [
        "Settings saved: process early on; reminder 6 hours before the deadline; "
        "civil disorder after 2 missed turns in a row."
    ]
    assert response.context["lifecycle_form"].initial["reminder_before"] == 6


def test_it_shows_a_refused_setting_next_to_its_field(as_gm, demo):
    response = as_gm.post(
        demo_url("gm_lifecycle"),
        {"lifecycle-reminder_before": "12", "lifecycle-civil_disorder_after": "-1"},
    )

    assert response.status_code == 400
    assert response.context["lifecycle_form"].errors["civil_disorder_after"] == [
        "0 (never) or more missed turns"
    ]


# --- Missed turns and players ---------------------------------------------------------------------------


def test_it_shows_civil_disorder_and_assigns_the_nation_a_new_player(as_gm, demo, nations, rival, outsider):
    Nation.objects.filter(pk=nations["EST"].pk).update(
        civil_disorder=True, turns_missed=3, turns_missed_in_row=3
    )
    rows = {n["code"]: n for n in as_gm.get(demo_url("gm")).context["nations"]}
    assert (rows["EST"]["civil_disorder"], rows["EST"]["turns_missed_in_row"]) == (True, 3)
    assert dict(as_gm.get(demo_url("gm")).context["assign_form"].fields["nation"].choices)["EST"] == (
        "EST Ostland Federation (civil disorder)"
    )

    response = as_gm.post(
        demo_url("gm_assign"), {"assign-nation": "EST", "assign-user": "outsider"}, follow=True
    )

    assert _said(response) == ["outsider now plays EST Ostland Federation; it takes orders again."]
    assert Membership.objects.get(nation=nations["EST"]).user == outsider
    est = Nation.objects.get(pk=nations["EST"].pk)
    assert (est.civil_disorder, est.turns_missed_in_row, est.turns_missed) == (False, 0, 3)
    rows = {n["code"]: n for n in response.context["nations"]}
    assert [p["username"] for p in rows["EST"]["players"]] == ["outsider"]


def test_it_says_beside_the_username_when_there_is_no_such_user(as_gm, nations, rival):
    response = as_gm.post(demo_url("gm_assign"), {"assign-nation": "EST", "assign-user": "nobody-at-all"})

    assert response.status_code == 400
    assert response.context["assign_form"].errors["user"] == ["no user is called nobody-at-all"]
    assert Membership.objects.get(nation=nations["EST"]).user == rival


# --- Preview, publish ------------------------------------------------------------------------------------


def test_it_previews_the_turn_without_writing_to_the_world_and_shows_every_battle(as_gm, demo, busy_turn1):
    before = world_rows(demo)

    response = as_gm.post(demo_url("gm_preview", 1), follow=True)

    assert world_rows(demo) == before
    assert not Report.objects.exists()
    battles = TurnPreview.objects.get(turn=busy_turn1).result["battles"]
    assert battles
    assert _said(response) == [
        f"Turn 1 previewed: {len(battles)} battles. Nothing was written; the players see none of it."
    ]
    page = response.content.decode()
    assert page.count('class="card battle"') == len(battles)
    assert "Battle of E4" in page and "Publish turn 1" in page


def test_it_publishes_exactly_the_previewed_result(as_gm, busy_turn1):
    as_gm.post(demo_url("gm_preview", 1))

    response = as_gm.post(demo_url("gm_publish", 1))

    assert response.status_code == 200
    assert _said(response)[-1] == "Turn 1 published exactly the previewed result."
    assert "Published exactly the previewed result." in response.content.decode()
    busy_turn1.refresh_from_db()
    assert busy_turn1.status == Turn.Status.RESOLVED
    assert TurnPreview.objects.get(turn=busy_turn1).published_matched is True


def test_it_says_what_changed_when_the_orders_changed_after_the_preview(as_gm, busy_turn1, place_orders):
    as_gm.post(demo_url("gm_preview", 1))
    place_orders(busy_turn1, [("WES", "attack", "W1", "M3", {"JV": 2})])

    response = as_gm.post(demo_url("gm_publish", 1))

    page = response.content.decode()
    assert _said(response)[-1] == "Turn 1 published, but not the previewed result: see what changed below."
    assert "orders changed since the preview" in page
    published = response.context["published"]
    assert published.matched is False and published.diff.lines
    for line in published.diff.lines:
        assert escape(line) in page


def test_it_says_when_there_was_no_preview_to_compare_with(as_gm, busy_turn1):
    response = as_gm.post(demo_url("gm_publish", 1))

    assert _said(response) == ["Turn 1 published; there was no preview to compare it with."]


def test_it_shows_the_last_preview_again_and_says_when_there_is_none(as_gm, busy_turn1):
    assert "No preview of turn 1 yet." in as_gm.get(demo_url("gm_preview", 1)).content.decode()
    as_gm.post(demo_url("gm_preview", 1))

    page = as_gm.get(demo_url("gm_preview", 1)).content.decode()

    assert "Preview again (orders of now)" in page and 'class="card battle"' in page


# --- Rollback and what changed ---------------------------------------------------------------------------


def test_it_rolls_back_the_last_turn_and_shows_what_changed_once_processed_again(
    as_gm, demo, gm, conquest_played
):
    assert demo.regions.get(code="M2").owner.code == "NOR", "NOR took M2 in turn 1"
    response = as_gm.post(
        demo_url("gm_rollback", 1), {"rollback-reason": "NOR had 2 JV in N5, not 4"}, follow=True
    )

    turn = Turn.objects.get(pk=conquest_played.pk)
    assert turn.status == Turn.Status.OPEN
    assert _said(response) == [
        "Turn 1 rolled back: the world is as it was before it, its result is archived, and it is open again "
        f"until {turn.deadline.astimezone(UTC):%Y-%m-%d %H:%M} UTC."
    ]
    assert demo.regions.get(code="M2").owner is None, "M2 unowned again"
    assert not demo.turns.filter(number=2).exists()
    page = as_gm.get(demo_url("gm_turn", 1)).content.decode()
    assert "Rolled-back results" in page and "NOR had 2 JV in N5, not 4" in page

    # The GM corrects the roster and the turn is processed again: the attack on M2 is too big to be given.
    as_gm.post(
        demo_url("gm_roster"),
        {"region": "N5", "nation": "NOR", "unit_type": "JV", "count": "2", "reason": "as it was"},
    )
    assert turn_process(turn_id=turn.pk).status == Turn.Status.RESOLVED

    response = as_gm.get(demo_url("gm_turn", 1))
    assert response.context["diff"].same is False
    page = response.content.decode()
    assert "What changed since the rolled-back result" in page
    lines = [str(line) for line in response.context["diff"].lines]
    for line in lines:
        assert escape(line) in page
    assert any(line.startswith("M2") for line in lines)


def test_it_asks_for_force_before_deleting_what_the_next_turn_has(as_gm, demo, conquest_played, place_orders):
    place_orders(demo.turns.get(number=2), [("NOR", "move", "N4", "N5", {"JV": 1})])

    response = as_gm.post(demo_url("gm_rollback", 1), {"rollback-reason": ""})

    assert response.status_code == 400
    message = response.context["rollback_form"].errors["force"][0]
    assert message.startswith("turn 2 has 1 orders already")
    page = response.content.decode()
    assert 'name="rollback-force"' in page
    assert Turn.objects.get(pk=conquest_played.pk).status == Turn.Status.RESOLVED

    response = as_gm.post(demo_url("gm_rollback", 1), {"rollback-reason": "", "rollback-force": "on"})

    assert response.status_code == 302
    assert list(demo.turns.values_list("number", "status")) == [(1, "open")]
    assert TurnArchive.objects.filter(turn=conquest_played).count() == 1


def test_it_offers_no_force_checkbox_until_the_rollback_needs_it(as_gm, conquest_played):
    page = as_gm.get(demo_url("gm_turn", 1)).content.decode()

    assert "Roll back last turn" in page and 'name="rollback-force"' not in page


def test_it_refuses_to_roll_back_an_open_turn(as_gm, turn1):
    response = as_gm.post(demo_url("gm_rollback", 1), {"rollback-reason": ""})

    assert response.status_code == 400
    assert "only a resolved turn rolls back" in response.content.decode()


# --- Export ----------------------------------------------------------------------------------------------


def test_it_downloads_the_campaign_as_one_json_file(as_gm, conquest_played):
    response = as_gm.get(demo_url("gm_export"))

    assert response["Content-Disposition"] == 'attachment; filename="demo-campaign.json"'
    data = json.loads(response.content)
    assert data["format"] == "iron-fist-campaign/1"
    assert [t["number"] for t in data["turns"]] == [1, 2]


# --- Only the GM -----------------------------------------------------------------------------------------

HISTORY = {
    # name, method, turn number, data
    "preview": ("gm_preview", "post", 1, {}),
    "preview_page": ("gm_preview", "get", 1, {}),
    "publish": ("gm_publish", "post", 1, {}),
    "export": ("gm_export", "get", None, {}),
}
REFUSED = {"player": 403, "rival": 403, "outsider": 404, "anonymous": "login"}


@pytest.mark.parametrize("role", list(REFUSED))
@pytest.mark.parametrize("action", list(HISTORY))
def test_it_refuses_preview_publish_and_export_to_anyone_but_the_gm(as_role, demo, busy_turn1, action, role):
    name, method, number, data = HISTORY[action]
    args = [number] if number is not None else []
    before = world_rows(demo)

    response = getattr(as_role(role), method)(demo_url(name, *args), data)

    _check(response, REFUSED[role])
    assert world_rows(demo) == before
    assert not TurnPreview.objects.exists()


@pytest.mark.parametrize("role", list(REFUSED))
def test_it_refuses_a_rollback_to_anyone_but_the_gm(as_role, demo, conquest_played, role):
    response = as_role(role).post(demo_url("gm_rollback", 1), {"rollback-reason": "", "rollback-force": "on"})

    _check(response, REFUSED[role])
    assert Turn.objects.get(pk=conquest_played.pk).status == Turn.Status.RESOLVED
    assert not TurnArchive.objects.exists()


@pytest.mark.parametrize("role", list(REFUSED))
def test_it_refuses_to_resume_a_paused_campaign_for_anyone_but_the_gm(as_role, gm, demo, turn1, role):
    from campaign.gm.clock import campaign_pause

    campaign_pause(campaign=demo, by=gm)

    _check(as_role(role).post(demo_url("gm_resume"), {"pause-reason": ""}), REFUSED[role])
    assert Campaign.objects.get(pk=demo.pk).paused_at is not None


# --- Time zones: everyone's own ----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["gm", "player", "rival", "outsider"])
def test_it_lets_every_user_choose_a_time_zone(client, request, who):
    user = request.getfixturevalue(who)
    client.force_login(user)
    assert client.get(reverse("frontend:settings")).status_code == 200

    response = client.post(reverse("frontend:settings"), {"time_zone": "Europe/Helsinki"}, follow=True)

    assert _said(response) == ["Time zone set to Europe/Helsinki: times are shown in it."]
    assert Profile.objects.get(user=user).time_zone == "Europe/Helsinki"


def test_it_sends_the_anonymous_visitor_to_log_in_for_settings(client, db):
    _check(client.get(reverse("frontend:settings")), "login")
    _check(client.post(reverse("frontend:settings"), {"time_zone": "Europe/Helsinki"}), "login")


def test_it_shows_the_deadline_in_the_users_new_zone_with_utc_on_hover(client, player, turn1):
    Turn.objects.filter(pk=turn1.pk).update(deadline=datetime(2099, 1, 2, 10, 0, tzinfo=UTC))
    client.force_login(player)
    assert "Fri 2 Jan, 10:00 UTC</time>" in client.get(demo_url("campaign")).content.decode()

    response = client.post(
        reverse("frontend:settings"),
        {"time_zone": "Europe/Helsinki", "next": demo_url("campaign")},
        follow=True,
    )

    page = response.content.decode()
    assert response.redirect_chain[-1][0] == demo_url("campaign")
    assert 'title="Fri 2 Jan 2099, 10:00 UTC">Fri 2 Jan, 12:00 EET</time>' in page


def test_it_says_beside_the_field_when_a_time_zone_is_unknown(client, player):
    client.force_login(player)

    response = client.post(reverse("frontend:settings"), {"time_zone": "Mars/Olympus"})

    assert response.status_code == 400
    assert response.context["form"].errors["time_zone"] == [
        "unknown time zone 'Mars/Olympus', try Europe/Helsinki"
    ]


def test_it_does_not_send_anyone_elsewhere_after_saving_the_time_zone(client, player):
    client.force_login(player)

    response = client.post(
        reverse("frontend:settings"), {"time_zone": "UTC", "next": "https://elsewhere.example/"}
    )

    assert response["Location"] == reverse("frontend:settings")


# --- Cost ------------------------------------------------------------------------------------------------


def test_it_compresses_pages_for_browsers_that_accept_gzip(client, player, turn1):
    client.force_login(player)

    response = client.get(demo_url("campaign"), headers={"accept-encoding": "gzip"})

    assert response["Content-Encoding"] == "gzip"


def test_it_serves_the_gm_pages_in_a_fixed_number_of_queries(
    as_gm, gm, demo, conquest_played, nations, django_assert_max_num_queries
):
    from campaign.gm.clock import campaign_pause
    from rules.history import turn_preview, turn_rollback

    Nation.objects.filter(pk=nations["EST"].pk).update(civil_disorder=True)
    turn_rollback(turn_id=conquest_played.pk, by=gm)
    assert turn_process(turn_id=conquest_played.pk).status == Turn.Status.RESOLVED
    turn_preview(turn_id=demo.turns.get(number=2).pk, by=gm)
    campaign_pause(campaign=demo, by=gm)
    # After a rollback the turn page compares results, reading the turn's reports once more for it.
    for url in (demo_url("gm"), demo_url("gm_turn", 1), demo_url("gm_preview", 2)):
        with django_assert_max_num_queries(CEILING + 1):
            assert as_gm.get(url).status_code == 200, url
