"""The pages of a tabletop turn's battles (TABLETOP.md A5, A6.2): who sees the list and a sheet (fog of war),
who may propose, agree, dispute and confirm through the forms, and a turn completed through them."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Turn
from rules.models import ResultVersion, TableBattle
from tests.conftest import k1_id


def sheet() -> str:
    return reverse("frontend:battle", args=["demo", 1, k1_id()])


LIST = reverse("frontend:battles", args=["demo", 1])


@pytest.mark.parametrize(
    ("url", "statuses"),
    [
        (lambda: LIST, {"gm": 200, "player": 200, "karelian": 200, "rival": 200, "outsider": 404}),
        (sheet, {"gm": 200, "player": 200, "karelian": 200, "rival": 404, "outsider": 404}),
    ],
)
def test_who_sees_the_battles_and_the_sheet(tabletop_battle, browsers, url, statuses) -> None:
    url = url()
    for role, expected in statuses.items():
        assert browsers[role].get(url).status_code == expected, role
    response = browsers["anonymous"].get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_sheet_shows_both_forces_and_prints_alone(tabletop_battle, browsers) -> None:
    page = browsers["karelian"].get(sheet()).content.decode()
    assert "Battle of Kaarnala" in page
    assert "battle_sheet.css" in page, "the print stylesheet"
    assert tabletop_battle.fingerprint in page, "the form sends the sheet's fingerprint"
    assert "N3" in page and "K1" in page


def test_the_rival_list_shows_no_battle_of_others(tabletop_battle, browsers) -> None:
    assert "region:K1" not in browsers["rival"].get(LIST).content.decode()
    assert "region:K1" in browsers["gm"].get(LIST).content.decode()


def _form(battle, **changes):
    data = {
        "action": "save",
        "fingerprint": battle.fingerprint,
        "winner": "NOR",
        "decisive": "1",
        "loss-NOR-JV": "1",
        "loss-KAR-JV": "3",
        "loss-KAR-PA": "1",
    }
    return {**data, **changes}


def test_the_form_chooses_no_winner_by_itself(tabletop_battle, browsers) -> None:
    """Issue on table play: the winner defaulted to "draw", so a result saved without a choice was a draw.
    No radio is checked; a result sent without a winner is refused, and choosing the draw is a choice."""
    page = browsers["player"].get(sheet()).content.decode()
    assert 'name="winner"' in page and "checked" not in page[page.index('name="winner"') :][:600]
    form = _form(tabletop_battle)
    del form["winner"]
    refused = browsers["player"].post(sheet(), form)
    assert refused.status_code == 400 and "winner:required" in refused.content.decode()
    assert "Choose the winner, or a draw." in refused.content.decode()
    assert not ResultVersion.objects.exists()
    drawn = browsers["player"].post(sheet(), _form(tabletop_battle, winner="", decisive=""))
    assert drawn.status_code == 302 and ResultVersion.objects.get().payload["winner"] is None


def test_a_refused_form_shows_every_error_with_its_code(tabletop_battle, browsers) -> None:
    response = browsers["player"].post(
        sheet(), _form(tabletop_battle, **{"loss-NOR-JV": "1.5", "winner": ""})
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "decisive_on_draw" in page and "losses_not_whole:NOR:JV" in page
    assert not ResultVersion.objects.exists()


def test_the_rival_cannot_post_to_a_battle_it_is_not_in(tabletop_battle, browsers) -> None:
    assert browsers["rival"].post(sheet(), _form(tabletop_battle)).status_code == 404
    assert not ResultVersion.objects.exists()


def test_propose_agree_confirm_through_the_pages_completes_the_turn(
    tabletop_battle, browsers, demo, django_capture_on_commit_callbacks
) -> None:
    assert browsers["player"].post(sheet(), _form(tabletop_battle)).status_code == 302
    version = ResultVersion.objects.get()
    assert version.state == ResultVersion.State.PROPOSED
    # Its author's nation agrees by saving it: offered only its withdrawal; the other nation answers.
    mine = browsers["player"].get(sheet()).content.decode()
    assert 'value="withdraw"' in mine and 'value="agree"' not in mine and 'value="dispute"' not in mine
    theirs = browsers["karelian"].get(sheet()).content.decode()
    assert 'value="agree"' in theirs and 'value="dispute"' in theirs and 'value="withdraw"' not in theirs
    assert browsers["player"].post(sheet(), {"action": "confirm", "version": 1}).status_code == 400
    assert browsers["karelian"].post(sheet(), {"action": "dispute", "version": 1}).status_code == 400
    assert browsers["karelian"].post(sheet(), {"action": "agree", "version": 1}).status_code == 302
    version.refresh_from_db()
    assert version.state == ResultVersion.State.AGREED
    with django_capture_on_commit_callbacks(execute=True):
        assert browsers["gm"].post(sheet(), {"action": "confirm", "version": 1}).status_code == 302
    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED
    assert demo.regions.get(code="K1").owner.code == "NOR"


def test_the_gm_sees_the_auto_resolution_preview_and_players_do_not(tabletop_battle, browsers) -> None:
    assert "Auto-resolution, if you choose it" in browsers["gm"].get(sheet()).content.decode()
    assert "Auto-resolution, if you choose it" not in browsers["player"].get(sheet()).content.decode()


def test_the_gm_moves_the_deadline_from_the_battle_page(tabletop_battle, browsers) -> None:
    """A8.2: the GM's controls on an open (or overdue) battle include extending its deadline; players have
    no such control."""
    assert 'value="deadline"' in browsers["gm"].get(sheet()).content.decode()
    assert 'value="deadline"' not in browsers["player"].get(sheet()).content.decode()
    moved = tabletop_battle.deadline + timedelta(days=2)
    response = browsers["gm"].post(
        sheet(),
        {"action": "deadline", "deadline": f"{moved.astimezone(UTC):%Y-%m-%dT%H:%M}", "reason": "club night"},
    )
    assert response.status_code == 302
    tabletop_battle.refresh_from_db()
    assert tabletop_battle.deadline == moved.replace(second=0, microsecond=0)
    response = browsers["player"].post(
        sheet(), {"action": "deadline", "deadline": "2030-01-01T10:00", "reason": "more time"}
    )
    assert response.status_code == 400 and "gm_only" in response.content.decode()


def test_the_sheet_says_what_the_result_means_as_the_campaign_reads_a_win(tabletop_battle, browsers) -> None:
    """A5.1 from A7.0: by default only a decisive win takes the region; with conquest_needs_decisive false,
    every win does, and the sheet must not tell the table otherwise."""
    page = browsers["karelian"].get(sheet()).content.decode()
    assert (
        "A decisive win by Kingdom of Nordmark takes Kaarnala and their survivors move in. Any other result "
        "leaves Kaarnala with Karelian Republic, and the attackers&#x27; survivors return to Isfjell."
    ) in page
    campaign = tabletop_battle.turn.campaign
    campaign.ruleset_overrides = {"tabletop": {"conquest_needs_decisive": False}}
    campaign.save(update_fields=["ruleset_overrides"])
    page = browsers["karelian"].get(sheet()).content.decode()
    assert "A decisive win" not in page
    assert (
        "A win by Kingdom of Nordmark takes Kaarnala and their survivors move in. A draw or a win by "
        "Karelian Republic leaves Kaarnala with Karelian Republic"
    ) in page


def test_a_joint_attack_of_nations_at_war_says_a_control_battle_follows(demo, db) -> None:
    """A5.1: "For a joint attack by nations at war with each other: If the attackers win decisively, Red
    and Green fight a control battle for X." NOR and EST are at war (no relation); NOR and WES allied."""
    from rules.engine.tabletop.settings import TabletopSettings
    from rules.models import TableBattle
    from rules.tabletop.sheets import result_meaning

    def sheet(attackers):
        return {
            "region": "K1",
            "sides": [
                {"nations": attackers, "groups": [{"nation": n, "origin": "N3"} for n in attackers]},
                {"nations": ["KAR"], "groups": []},
            ],
        }

    names = {n.code: n.name for n in demo.nations.all()}
    joint = TableBattle(kind="joint", key="region:K1")
    at_war = result_meaning(demo, joint, sheet(["NOR", "EST"]), TabletopSettings(), names)
    assert at_war[-1] == (
        "If the attackers take Kaarnala, Kingdom of Nordmark, Ostland Federation fight a control battle "
        "for it."
    )
    allied = result_meaning(demo, joint, sheet(["NOR", "WES"]), TabletopSettings(), names)
    assert len(allied) == 1 and "control battle" not in allied[0]


def test_the_gm_dashboard_lists_overdue_battles_with_their_actions(
    tabletop_battle, browsers, django_capture_on_commit_callbacks
) -> None:
    """A8.2: the GM dashboard lists overdue battles, each with: extend the deadline; enter a result;
    confirm the current version; auto-resolve."""
    from rules.table_deadlines import battles_overdue

    dashboard = reverse("frontend:gm", args=["demo"])
    assert 'id="overdue"' not in browsers["gm"].get(dashboard).content.decode(), "nothing is overdue yet"
    TableBattle.objects.filter(pk=tabletop_battle.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert battles_overdue() == 1
    page = browsers["gm"].get(dashboard).content.decode()
    assert 'id="overdue"' in page and "region:K1" in page
    assert f'action="{sheet()}deadline/"' in page and 'value="auto_resolve"' in page
    assert f'href="{sheet()}"' in page, "the battle's page: enter or confirm a result"
    with django_capture_on_commit_callbacks(execute=True):
        response = browsers["gm"].post(sheet(), {"action": "auto_resolve", "why": "no result"})
    assert response.status_code == 302
    assert 'id="overdue"' not in browsers["gm"].get(dashboard).content.decode()


def test_the_sheet_and_the_form_print_the_campaign_s_decisive_text_and_scenario_notes(
    tabletop_ordered, tabletop_cast, browsers
) -> None:
    """A5.1, Part C: tabletop.decisive_text is printed on the sheet and beside the result form's decisive
    box; tabletop.sheet_notes_text is printed with the place, on the page and in the sheet mail's text."""
    from campaign.selectors import viewer_get
    from rules.services import turn_process
    from rules.tabletop.mails import battle_sheet_text

    campaign = tabletop_ordered.campaign
    campaign.ruleset_overrides = {
        "tabletop": {
            "decisive_text": "Decisive: the enemy general fell.",
            "sheet_notes_text": "Fort level 2 = a walled farm in the centre.",
        }
    }
    campaign.save(update_fields=["ruleset_overrides"])
    turn_process(turn_id=tabletop_ordered.pk)
    page = browsers["player"].get(sheet()).content.decode()
    assert page.count("Decisive: the enemy general fell.") == 2, "in what the result means and on the form"
    assert "Fort level 2 = a walled farm in the centre." in page
    assert "destroyed or routed" not in page, "the default text is replaced"
    battle = TableBattle.objects.get(turn=tabletop_ordered, key="region:K1")
    text = battle_sheet_text(
        viewer=viewer_get(user=tabletop_cast["karelian"], campaign=campaign), battle=battle
    )
    assert "Decisive: the enemy general fell." in text and "a walled farm in the centre" in text


def test_the_result_form_checks_a_result_before_it_is_submitted(tabletop_battle, browsers) -> None:
    """A6.4, A12: warnings are shown before the result is submitted, and the check stores nothing; the
    form keeps what was typed."""
    forces = tabletop_battle.sheet["forces"]
    wiped = {f"loss-KAR-{t}": str(n) for t, n in forces["KAR"].items()}
    data = {**_form(tabletop_battle), "loss-KAR-JV": "0", "loss-KAR-PA": "0", **wiped, "action": "check"}
    page = browsers["player"].post(sheet(), data).content.decode()
    assert "defender_wiped_out:KAR" in page and "it loses the region whatever the result" in page
    assert not tabletop_battle.versions.exists(), "a check saves nothing"
    assert f'name="loss-KAR-JV" inputmode="numeric" size="3" value="{forces["KAR"]["JV"]}"' in page
    partial = {**_form(tabletop_battle), "loss-KAR-JV": "1", "loss-KAR-PA": "0", "action": "check"}
    page = browsers["player"].post(sheet(), partial).content.decode()
    assert "No errors and no warnings" in page
    response = browsers["player"].post(sheet(), {**_form(tabletop_battle, winner=""), "action": "check"})
    assert response.status_code == 400 and "decisive_on_draw" in response.content.decode()
    assert not tabletop_battle.versions.exists()


def test_while_battles_are_pending_the_campaign_page_lists_them_and_the_map_marks_them(
    tabletop_battle, browsers
) -> None:
    """A11.3: while the turn is battles_pending the map shows a marker on every region with an open or
    waiting battle, and the campaign page lists the turn's battles with their state, deadline and the
    viewer's next action."""
    home = reverse("frontend:campaign", args=["demo"])
    page = browsers["player"].get(home).content.decode()
    assert 'id="turn-battles"' in page and "region:K1" in page and "Enter the result." in page
    assert 'data-battle="K1"' in page and f'href="{sheet()}"' in page, "the map's marker opens the sheet"
    assert "Enter the result." in browsers["karelian"].get(home).content.decode()
    assert "Waiting for the players&#x27; result." in browsers["gm"].get(home).content.decode()
    assert "region:K1" not in browsers["rival"].get(home).content.decode(), "fog of war (A11.2)"
    browsers["player"].post(sheet(), _form(tabletop_battle, **{"loss-KAR-PA": "0"}))
    assert "Agree or dispute version 1." in browsers["karelian"].get(home).content.decode()
    assert "Waiting for the other nations to answer." in browsers["player"].get(home).content.decode()


def test_the_sheet_names_each_nation_with_its_players(tabletop_battle, tabletop_cast, browsers) -> None:
    """A5.1: the sides, each nation with its players, so the table knows whom it plays; the mail too."""
    from campaign.selectors import viewer_get
    from rules.tabletop.mails import battle_sheet_text

    page = browsers["karelian"].get(sheet()).content.decode()
    assert "Kingdom of Nordmark (player)" in page and "Karelian Republic (karelian)" in page
    viewer = viewer_get(user=tabletop_cast["player"], campaign=tabletop_battle.turn.campaign)
    text = battle_sheet_text(viewer=viewer, battle=tabletop_battle)
    assert "Kingdom of Nordmark (player)" in text and "Karelian Republic (karelian)" in text


def test_the_printed_sheet_has_blank_tallies_with_every_term_of_the_combat_result(
    tabletop_battle, browsers
) -> None:
    """A5.1: "a few blank close-combat round tallies (the terms of B3 for each side)"."""
    page = browsers["player"].get(sheet()).content.decode()
    tallies = page.split('<table class="tally">')[1:]
    assert len(tallies) == 3
    for term in ("Wounds", "Overkill", "Charge", "Ranks", "Standards", "Battle standard", "Flank", "Rear"):
        assert f"<th>{term}</th>" in tallies[0], term
    assert "<th>Other</th>" in tallies[0] and "<th>Total</th>" in tallies[0]


def test_a_saved_version_keeps_its_warnings_in_words(tabletop_battle, browsers) -> None:
    """A6.4: the warnings are kept with the result; its history shows each with its message."""
    wiped = {f"loss-KAR-{t}": str(n) for t, n in tabletop_battle.sheet["forces"]["KAR"].items()}
    browsers["player"].post(sheet(), {**_form(tabletop_battle), "loss-KAR-PA": "0", **wiped})
    assert tabletop_battle.versions.get().warnings == ["defender_wiped_out:KAR"]
    page = browsers["karelian"].get(sheet()).content.decode()
    assert "defender_wiped_out:KAR — KAR has no ground units left in K1: it loses the region" in page


def test_a_battle_pages_top_bar_shows_its_results_deadline_not_the_turns(tabletop_battle, browsers) -> None:
    """Issue on table play: on a battle's page what is due is its result, by its own deadline."""
    due = (timezone.now() + timedelta(hours=30)).replace(second=0, microsecond=0)
    TableBattle.objects.filter(pk=tabletop_battle.pk).update(deadline=due)
    page = browsers["player"].get(sheet()).content.decode()
    bar = page[page.index('class="deadline') : page.index("</span>", page.index('class="deadline'))]
    assert "result due" in page and f'datetime="{due.isoformat()}"' in page, bar
    assert "1 d 6 h left" in bar or "1 d 5 h left" in bar, bar
    listed = browsers["player"].get(reverse("frontend:battles", args=["demo", 1])).content.decode()
    assert "result due" not in listed, "elsewhere the turn's deadline"


def test_the_loss_rows_follow_the_order_of_the_sides(demo, player, rival, karelian, place_orders) -> None:
    """Issue on table play: EST attacks KAR's K4, and KAR comes before EST in the campaign's nations; the
    sheet shows the attacker first, so its loss row comes first too."""
    from django.test import Client

    from rules.services import turn_process

    demo.battle_system = "tabletop"
    demo.save(update_fields=["battle_system"])
    turn = demo.turns.get(number=1)
    place_orders(turn, [("EST", "attack", "E2", "K4", {"JV": 3, "PA": 3})])
    turn_process(turn_id=turn.pk)
    battle = TableBattle.objects.get(turn=turn, key="region:K4")
    assert battle.nations == ["KAR", "EST"], "the campaign's order"
    client = Client()
    client.force_login(rival)
    page = client.get(reverse("frontend:battle", args=["demo", 1, battle.pk])).content.decode()
    assert page.index('name="loss-EST-JV"') < page.index('name="loss-KAR-JV"')
