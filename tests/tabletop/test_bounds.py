"""Every write path of tabletop bounded (issue 24): NUL refused before any view, no key a body does not know,
no list so long that refusing it is costly, and OPTIONS answered on every endpoint.

A finding of the security review each: a NUL in a result's notes or a dispute's comment reached PostgreSQL
(500); a result with an unknown 1,000,000-character `comment` was stored; the calculator took 25 s to refuse
100,000 dice; OPTIONS answered 500 where a view declared no serializer.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaign.selectors import viewer_get
from rules.engine.tabletop import close_combat_round
from rules.models import CombatRound, ResultAnswer, ResultVersion
from rules.tabletop.battles import battle_result_save
from tests.api.conftest import client_for
from tests.conftest import k1_id, tabletop_result


def battle() -> str:
    return f"/api/campaigns/demo/turns/1/battles/{k1_id()}"


def battle_page() -> str:
    return reverse("frontend:battle", args=["demo", 1, k1_id()])


def round_page() -> str:
    return reverse("frontend:battle_part", args=["demo", 1, k1_id(), "round"])


CALCULATOR = "/api/calculator/close-combat/"
CALCULATOR_PAGE = reverse("frontend:calculator")

ROUND = {
    "sides": [
        {"name": "Vikings", "units": [{"id": "axes", "wounds": 4, "full_ranks": 2}]},
        {"name": "Karelians", "units": [{"id": "spears", "wounds": 1, "full_ranks": 1, "discipline": 7}]},
    ],
    "dice": {"rolls": [3, 4]},
}


def _browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _codes(response) -> list[tuple[str, str | None]]:
    return [(e["code"], e.get("field")) for e in response.json()["errors"]]


def _proposed(battle, player) -> ResultVersion:
    viewer = viewer_get(user=player, campaign=battle.turn.campaign)
    return battle_result_save(viewer=viewer, battle=battle, result=tabletop_result(battle))


# -- NUL in a result's notes and a dispute's comment ------------------------------------------------------


def test_a_nul_in_a_results_notes_is_refused_by_the_form_and_the_api(tabletop_battle, tabletop_cast) -> None:
    player = tabletop_cast["player"]
    form = {
        "action": "save",
        "fingerprint": tabletop_battle.fingerprint,
        "winner": "NOR",
        "decisive": "1",
        "loss-NOR-JV": "1",
        "loss-KAR-JV": "3",
        "loss-KAR-PA": "1",
        "notes": "we held\x00",
    }
    assert _browser(player).post(battle_page(), form).status_code == 400
    result = tabletop_result(tabletop_battle, notes="we held\x00")
    assert client_for(player).post(f"{battle()}/results/", result, format="json").status_code == 400
    assert not ResultVersion.objects.exists()


def test_a_nul_in_a_disputes_comment_is_refused_by_the_form_and_the_api(
    tabletop_battle, tabletop_cast
) -> None:
    version = _proposed(tabletop_battle, tabletop_cast["player"])
    karelian = tabletop_cast["karelian"]
    form = {"action": "dispute", "version": str(version.number), "comment": "no\x00"}
    assert _browser(karelian).post(battle_page(), form).status_code == 400
    url = f"{battle()}/results/{version.number}/dispute/"
    assert client_for(karelian).post(url, {"comment": "no\x00"}, format="json").status_code == 400
    assert not ResultAnswer.objects.filter(answer="dispute").exists()


# -- unknown keys, and every value within its bound ------------------------------------------------------


def test_a_result_refuses_a_key_it_does_not_know_and_a_value_past_its_bound(
    tabletop_battle, tabletop_cast
) -> None:
    api = client_for(tabletop_cast["player"])
    url = f"{battle()}/results/"

    unknown = api.post(url, tabletop_result(tabletop_battle, comment="x" * 1_000_000), format="json")
    assert unknown.status_code == 400 and _codes(unknown) == [("unknown_field", "comment")]
    long_notes = api.post(url, tabletop_result(tabletop_battle, notes="x" * 5001), format="json")
    assert long_notes.status_code == 400 and _codes(long_notes) == [("notes_too_long", "notes")]
    many = {f"N{i}": {} for i in range(1000)}
    nations = api.post(url, tabletop_result(tabletop_battle, losses=many), format="json")
    assert nations.status_code == 400 and _codes(nations) == [("too_many_entries", "losses")]
    assert not ResultVersion.objects.exists()
    # The spec's own checks keep their codes: a count as text is A6.3's, not the shape's.
    text = api.post(
        url, tabletop_result(tabletop_battle, losses={"NOR": {"JV": "1"}, "KAR": {}}), format="json"
    )
    assert [e["code"] for e in text.json()["errors"]] == ["losses_not_whole"]


def test_the_answers_and_the_gms_actions_refuse_keys_they_do_not_know(tabletop_battle, tabletop_cast) -> None:
    version = _proposed(tabletop_battle, tabletop_cast["player"])
    agree = client_for(tabletop_cast["karelian"]).post(
        f"{battle()}/results/{version.number}/agree/", {"note": "x" * 10_000}, format="json"
    )
    assert agree.status_code == 400 and _codes(agree) == [("unknown_field", "note")]
    reopen = client_for(tabletop_cast["gm"]).post(
        f"{battle()}/reopen/", {"reason": "x" * 2001}, format="json"
    )
    assert reopen.status_code == 400 and _codes(reopen) == [("max_length", "reason")]


def test_the_result_form_keeps_its_fields_within_their_bounds(tabletop_battle, tabletop_cast) -> None:
    form = {
        "action": "check",
        "fingerprint": tabletop_battle.fingerprint,
        "score": "x" * 201,
        "loss-NOR-JV": "9" * 100,
    }
    response = _browser(tabletop_cast["player"]).post(battle_page(), form)
    page = response.content.decode()
    assert response.status_code == 400
    assert "<code>score_too_long</code>" in page and "<code>loss-NOR-JV:max_length</code>" in page


# -- dice and lists bounded before any work --------------------------------------------------------------


def test_the_calculator_refuses_more_dice_than_the_round_can_roll_before_any_work(player) -> None:
    api = client_for(player)
    response = api.post(CALCULATOR, {**ROUND, "dice": {"rolls": [9] * 100_000}}, format="json")
    assert response.status_code == 400
    # Two units, a test and a re-roll each, two dice a test (B6).
    [error] = response.json()["errors"]
    assert (error["code"], error["field"], error["message"]) == (
        "too_many_entries",
        "dice.rolls",
        "at most 8 entries",
    )
    sides = api.post(CALCULATOR, {"sides": [ROUND["sides"][0]] * 3}, format="json")
    assert _codes(sides) == [("sides_count", "sides")]
    extra = api.post(CALCULATOR, {**ROUND, "dice": {"rolls": [3, 4], "note": "x"}}, format="json")
    assert _codes(extra) == [("dice_malformed", "dice")]


def test_a_round_saved_to_a_battle_is_bounded_as_the_calculator(tabletop_battle, tabletop_cast) -> None:
    api = client_for(tabletop_cast["player"])
    url = f"{battle()}/rounds/"
    dice = api.post(url, {"round": {**ROUND, "dice": {"rolls": [3] * 100_000}}}, format="json")
    assert dice.status_code == 400 and _codes(dice) == [("too_many_entries", "round.dice.rolls")]
    label = api.post(url, {"round": ROUND, "label": "x" * 201}, format="json")
    assert _codes(label) == [("label_too_long", "label")]
    unknown = api.post(url, {"round": {**ROUND, "story": "x" * 100_000}}, format="json")
    assert _codes(unknown) == [("unknown_field", "round.story")]
    assert not CombatRound.objects.exists()


def test_the_calculator_page_keeps_its_fields_within_their_bounds(player) -> None:
    form = {"side-0-name": "RED", "side-0-unit-0-id": "x" * 6000, "side-0-unit-0-wounds": "9" * 100}
    response = _browser(player).post(CALCULATOR_PAGE, form)
    page = response.content.decode()
    assert response.status_code == 400
    assert "side-0-unit-0-id:max_length" in page and "side-0-unit-0-wounds:max_length" in page


def test_a_list_of_units_with_an_item_that_is_not_an_id_is_not_a_list() -> None:
    # B7 check 2, as amended: a list with an item that is not a string, such as [1], is not a list of units.
    data = {"sides": [{"name": "A", "units": [{"id": "a", "flank_of": [1]}]}, ROUND["sides"][1]]}
    assert [str(e) for e in close_combat_round(data).errors] == ["not_a_list:a:flank_of"]


# -- OPTIONS ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("{battle}/results/", "winner"),
        ("{battle}/results/1/agree/", "comment"),
        ("{battle}/reopen/", "reason"),
        ("{battle}/rounds/", "round"),
        ("{battle}/rounds/1/", "reason"),
        ("/api/campaigns/demo/turns/1/battles-preview/", "hypotheses"),
        (CALCULATOR, "sides"),
    ],
)
def test_options_describes_the_body_of_every_tabletop_endpoint(tabletop_battle, gm, path, field) -> None:
    response = client_for(gm).options(path.format(battle=battle()))
    assert response.status_code == 200, response.content
    assert field in response.json()["actions"]["POST"]
