"""Close-combat rounds saved to a tabletop battle (TABLETOP.md B9, A11.2) through the pages and the API, and
the GM's two rollbacks of a tabletop turn on the turn's page (A10.4): who may do what, and what they see."""

from __future__ import annotations

from django.urls import reverse

from campaign.models import Turn
from campaign.selectors import viewer_get
from rules.engine.tabletop import derive_seed
from rules.models import CombatRound, TableBattle
from rules.tabletop.battles import battle_result_save
from rules.tabletop.rounds import close_combat_round_save
from tests.conftest import k1_id


def battle_page() -> str:
    return reverse("frontend:battle", args=["demo", 1, k1_id()])


def calculator() -> str:
    return reverse("frontend:battle_part", args=["demo", 1, k1_id(), "round"])


def api() -> str:
    return f"/api/campaigns/demo/turns/1/battles/{k1_id()}/rounds/"


ROUND = {
    "sides": [
        {"name": "Vikings", "units": [{"id": "axes", "wounds": 4, "full_ranks": 2}]},
        {"name": "Karelians", "units": [{"id": "spears", "wounds": 1, "full_ranks": 1, "discipline": 7}]},
    ],
    "dice": {"seed": 123456},
}
FORM = {
    "side-0-name": "Vikings",
    "side-0-unit-0-id": "axes",
    "side-0-unit-0-wounds": "4",
    "side-0-unit-0-full_ranks": "2",
    "side-1-name": "Karelians",
    "side-1-unit-0-id": "spears",
    "side-1-unit-0-wounds": "1",
    "side-1-unit-0-full_ranks": "1",
    "side-1-unit-0-discipline": "7",
    "dice_mode": "entered",
    "rolls": "3 4",
    "label": "Axes at the ford",
    "game_turn": "2",
    "battle_side-0": "NOR",
    "battle_side-1": "KAR",
    "action": "save",
}


def test_a_player_of_the_battle_saves_a_round_from_the_calculator_and_it_is_listed(
    tabletop_battle, browsers
) -> None:
    response = browsers["player"].post(calculator(), FORM)

    assert response.status_code == 302 and response["Location"].endswith("#rounds")
    [saved] = tabletop_battle.rounds.all()
    assert (saved.sequence, saved.label, saved.game_turn) == (1, "Axes at the ford", 2)
    assert saved.battle_sides == ["NOR", "KAR"] and saved.dice_mode == "entered"
    assert saved.output["dice"]["used"] == [3, 4], "the dice log"
    for role in ("player", "karelian", "gm"):
        page = browsers[role].get(battle_page()).content.decode()
        assert "Axes at the ford" in page and "Game turn 2" in page, role


def test_others_can_neither_save_nor_read_a_round_of_a_battle_not_theirs(
    tabletop_battle, browsers, player, demo
):
    close_combat_round_save(viewer=viewer_get(user=player, campaign=demo), battle=tabletop_battle, data=ROUND)
    for role in ("rival", "outsider"):
        assert browsers[role].get(calculator()).status_code == 404, role
        assert browsers[role].post(calculator(), FORM).status_code == 404, role
        assert browsers[role].get(api()).status_code == 404, role
        assert (
            browsers[role].post(api(), {"round": ROUND}, content_type="application/json").status_code == 404
        )
    assert tabletop_battle.rounds.count() == 1


def test_the_api_saves_a_seeded_round_with_the_battles_own_seed_never_the_clients(
    tabletop_battle, browsers, demo
):
    response = browsers["karelian"].post(
        api(), {"round": ROUND, "label": "Spears hold", "battle_sides": ["NOR", "KAR"]}, "application/json"
    )

    assert response.status_code == 201, response.json()
    seed = derive_seed(demo.turns.get(number=1).seed_value, "round:region:K1:1")
    assert response.json()["dice"] == {
        "mode": "seeded",
        "seed": str(seed),
        "used": response.json()["output"]["dice"]["used"],
    }
    assert response.json()["output"]["dice"]["seed"] == seed != 123456
    listed = browsers["player"].get(api()).json()
    assert [r["label"] for r in listed] == ["Spears hold"]


def test_a_refused_round_names_every_error_in_english_and_finnish(tabletop_battle, browsers) -> None:
    bad = {"round": {**ROUND, "dice": {"rolls": [7]}}, "game_turn": 0, "battle_sides": ["EST", None]}
    response = browsers["player"].post(api(), bad, "application/json")
    assert response.status_code == 400
    assert [e["code"] for e in response.json()["errors"]] == ["game_turn_not_whole", "battle_side_unknown"]
    response = browsers["player"].post(
        api(), {"round": {**ROUND, "dice": {"rolls": [7]}}}, "application/json", HTTP_ACCEPT_LANGUAGE="fi"
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["code"] == "die_not_d6" and "d6" in error["message"]
    assert not CombatRound.objects.exists()


def test_after_publication_only_the_gm_adds_a_round_and_it_is_marked(
    tabletop_battle, browsers, demo, gm, django_capture_on_commit_callbacks
) -> None:
    result = {
        "winner": "NOR",
        "decisive": True,
        "losses": {"NOR": {"JV": 1}, "KAR": {"JV": 3}},
        "fingerprint": tabletop_battle.fingerprint,
    }
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_save(viewer=viewer_get(user=gm, campaign=demo), battle=tabletop_battle, result=result)
    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED

    refused = browsers["player"].post(api(), {"round": ROUND}, "application/json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "published"
    added = browsers["gm"].post(api(), {"round": ROUND, "label": "Told later"}, "application/json")
    assert added.status_code == 201 and added.json()["after_publication"] is True

    report = browsers["player"].get(reverse("frontend:turn", args=["demo", 1])).content.decode()
    assert "Told later" in report and "added after publication" in report, "the report tells the rounds"


def test_the_gm_rolls_a_tabletop_turn_back_to_its_battles_or_orders_and_players_get_403(
    tabletop_battle, browsers, demo, gm, django_capture_on_commit_callbacks
) -> None:
    result = {"winner": "KAR", "decisive": False, "losses": {"NOR": {"JV": 2}, "KAR": {}}}
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_save(
            viewer=viewer_get(user=gm, campaign=demo),
            battle=tabletop_battle,
            result={**result, "fingerprint": tabletop_battle.fingerprint},
        )
    rollback = reverse("frontend:gm_rollback", args=["demo", 1])
    page = browsers["gm"].get(reverse("frontend:gm_turn", args=["demo", 1])).content.decode()
    assert 'value="battles"' in page and 'value="orders"' in page
    for role in ("player", "karelian", "rival"):
        assert browsers[role].post(rollback, {"rollback-kind": "battles"}).status_code == 403, role
    assert browsers["outsider"].post(rollback, {"rollback-kind": "battles"}).status_code == 404

    response = browsers["gm"].post(rollback, {"rollback-kind": "battles", "rollback-reason": "typo"})

    assert response.status_code == 302
    assert demo.turns.get(number=1).status == Turn.Status.BATTLES_PENDING
    page = browsers["gm"].get(reverse("frontend:gm_turn", args=["demo", 1])).content.decode()
    assert "Complete turn 1" in page and 'value="battles"' not in page, "pending: only back to orders"
    complete = reverse("frontend:gm_complete", args=["demo", 1])
    assert browsers["player"].post(complete).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        assert browsers["gm"].post(complete).status_code == 302
    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED

    response = browsers["gm"].post(rollback, {"rollback-kind": "orders"})
    assert response.status_code == 302
    assert demo.turns.get(number=1).status == Turn.Status.OPEN
    assert not TableBattle.objects.filter(turn__number=1, turn__campaign=demo).exists()


def test_the_gm_reads_an_archived_result_that_was_not_carried_over_and_the_players_do_not(
    tabletop_battle, browsers, demo, gm, django_capture_on_commit_callbacks
) -> None:
    from rules.history import turn_rollback
    from rules.services import turn_process

    result = {"winner": "KAR", "decisive": False, "losses": {"NOR": {"JV": 2}, "KAR": {"PA": 1}}}
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_save(
            viewer=viewer_get(user=gm, campaign=demo),
            battle=tabletop_battle,
            result={**result, "fingerprint": tabletop_battle.fingerprint},
        )
    turn = demo.turns.get(number=1)
    turn_rollback(turn_id=turn.pk, by=gm)
    turn.orders.update(units={"JV": 1})  # other forces: the archived result does not fit the new sheet
    turn_process(turn_id=turn.pk)

    page = browsers["gm"].get(battle_page()).content.decode()
    assert "Rolled back with the turn&#x27;s orders" in page or "Rolled back with the turn's orders" in page
    assert "KAR wins" in page and "for reference only" in page
    assert "for reference only" not in browsers["player"].get(battle_page()).content.decode()


def test_a_round_is_corrected_by_its_author_until_confirmed_and_a_seeded_one_by_the_gm_with_its_seed(
    tabletop_battle, browsers, demo, gm, django_capture_on_commit_callbacks
) -> None:
    from campaign.models import AuditEntry

    entered = {**ROUND, "dice": {"rolls": [3, 4]}}
    browsers["player"].post(api(), {"round": entered, "label": "First try"}, "application/json")
    browsers["player"].post(api(), {"round": ROUND, "label": "Rolled"}, "application/json")
    fixed = {"round": {**ROUND, "dice": {"rolls": [6, 6]}}, "reason": "misread the dice"}

    assert browsers["karelian"].post(f"{api()}1/", fixed, "application/json").json()["errors"][0]["code"] == (
        "correct_not_permitted"
    ), "not its author"
    no_reason = browsers["player"].post(f"{api()}1/", {"round": entered}, "application/json")
    assert no_reason.json()["errors"][0]["code"] == "reason_missing"
    corrected = browsers["player"].post(f"{api()}1/", fixed, "application/json")
    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["output"]["dice"]["used"] == [6, 6] and corrected.json()["replaced"] == 1
    [kept] = CombatRound.objects.get(battle=tabletop_battle, sequence=1).replaced
    assert kept["output"]["dice"]["used"] == [3, 4] and kept["reason"] == "misread the dice"
    assert AuditEntry.objects.filter(code="audit.round_corrected").count() == 1

    seeded = browsers["player"].get(api()).json()[1]
    assert (
        browsers["player"].post(f"{api()}2/", {"round": ROUND, "reason": "x"}, "application/json").status_code
        == 400
    )
    again = browsers["gm"].post(
        f"{api()}2/", {"round": {**ROUND, "dice": {"seed": 1}}, "reason": "label"}, "application/json"
    )
    assert again.status_code == 200
    assert again.json()["output"]["dice"] == seeded["output"]["dice"], "the same seed, the same dice"

    result = {"winner": "NOR", "decisive": True, "losses": {"NOR": {}, "KAR": {}}}
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_save(
            viewer=viewer_get(user=gm, campaign=demo),
            battle=tabletop_battle,
            result={**result, "fingerprint": tabletop_battle.fingerprint},
        )
    late = browsers["player"].post(f"{api()}1/", fixed, "application/json")
    assert late.status_code == 400, "published: only the GM now"


def test_the_report_tells_how_the_result_was_agreed_to_the_battles_nations_only(
    tabletop_battle, browsers, demo, gm, player, karelian, django_capture_on_commit_callbacks
) -> None:
    from rules.tabletop.battles import battle_result_confirm, battle_result_dispute

    def viewer(user):
        return viewer_get(user=user, campaign=demo)

    result = {"winner": "NOR", "decisive": True, "losses": {"NOR": {"JV": 1}, "KAR": {"JV": 3}}}
    first = battle_result_save(
        viewer=viewer(player),
        battle=tabletop_battle,
        result={**result, "fingerprint": tabletop_battle.fingerprint},
    )
    battle_result_dispute(viewer=viewer(karelian), version=first, comment="We kept one spearman")
    second = battle_result_save(
        viewer=viewer(karelian),
        battle=tabletop_battle,
        result={
            **result,
            "losses": {"NOR": {"JV": 1}, "KAR": {"JV": 2}},
            "fingerprint": tabletop_battle.fingerprint,
        },
    )
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_confirm(viewer=viewer(gm), version=second)
    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED

    report = reverse("frontend:turn", args=["demo", 1])
    for role in ("player", "karelian", "gm"):
        page = browsers[role].get(report).content.decode()
        assert "How the result was agreed" in page, role
        assert "Version 1: " in page and "Version 2: " in page, role
        assert "We kept one spearman" in page and "karelian" in page, role  # the dispute and an author
    rival = browsers["rival"].get(report).content.decode()
    assert "We kept one spearman" not in rival and "How the result was agreed" not in rival
