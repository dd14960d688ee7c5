"""Battle reports that explain every number: terms, dice, difference, loss row, losses, the outcome, and
the reader's own support units' chances and rolls, never another nation's."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaign.models import Turn
from frontend.reports import battle_card, support_block
from tests.frontend.svg_map import map_regions
from tests.rules.test_report import KARELIA
from tests.rules.turns import play

NAMES = {"SUOMI": "Suomi", "NEUVOSTO": "Neuvosto"}


@pytest.fixture(autouse=True)
def _english_after():
    """A request in Finnish leaves Finnish active in this thread: the next test starts in English."""
    from django.utils import translation

    yield
    translation.activate("en")


@pytest.fixture(scope="module")
def karelia():
    result = play(**KARELIA)
    return result.battles[0], result.to_dict()


def test_it_lays_out_every_term_of_both_sides_with_its_rule(karelia):
    card = battle_card(karelia[0], names=NAMES)
    rows = {row["term"]: row for row in card["term_rows"]}
    assert rows["JV"]["cells"][0]["detail"] == "7 × 2" and rows["JV"]["cells"][1]["value"] == 8
    assert rows["pincer"]["cells"][1] is None and rows["pincer"]["rule"] == "§4"
    assert rows["fortification"]["cells"][0] is None
    assert card["term_rows"][-1]["term"] == "fortune of war"
    assert [s["kta"] for s in card["sides"]] == [28, 16]
    assert [s["dice"] for s in card["sides"]] == [[2], [3]]


def test_it_explains_the_difference_row_losses_and_why_the_region_changed_hands(karelia):
    card = battle_card(karelia[0], names=NAMES)
    assert card["difference"] == 12
    assert card["row_text"] == "loss table row 11–13: the loser loses 60 %, the winner 20 %"
    assert card["past_threshold"]
    attacker, defender = card["sides"]
    assert (attacker["losses"], defender["losses"]) == ("JV 2, PA 1", "JV 4, PA 2")
    assert (attacker["after"], defender["after"]) == ("JV 5, PA 2", "none")
    # The "how" in words: the exact value and what it was rounded to.
    assert (
        "JV: 20 % of 7, scaled by the larger side's 10 ground units to this side's 10: 1.4, rounded up to 2"
        in attacker["loss_notes"]
    )
    assert card["result"] == "Suomi takes KAR."
    assert "§5 exception 2" in card["decided_by"]
    assert attacker["support"] == ["1 TY of Suomi from LAD", "2 IV of Suomi from VII"]


def test_it_shows_support_rolls_only_for_the_readers_nation(karelia):
    data, result = karelia
    own = {
        "chances": [c for c in result["support_chances"] if c["nation"] == "SUOMI"],
        "rolls": [r for r in result["support_rolls"] if r["nation"] == "SUOMI"],
    }
    block = support_block(own)
    assert [(r["unit_type"], r["unit"], r["roll"]) for r in block["rolls"]] == [
        ("TY", 1, 14),
        ("IV", 1, 93),
        ("IV", 2, 51),
    ]
    assert support_block({"chances": [], "rolls": []})["rolls"] == []
    # Rolled once per turn, not once per battle: the cards carry none of it.
    assert "support_rolls" not in battle_card(data, names=NAMES)


@pytest.fixture
def battle_played(demo, turn1, player, rival, place_orders):
    """NOR attacks KAR's K1 from N3; KAR's units in K2 support the defence. Turn 1 resolved."""
    from campaign.services import membership_set
    from rules.services import turn_process

    kar = membership_set(
        campaign=demo, username="kar", password="kar-password-1", nation=demo.nations.get(code="KAR")
    )
    place_orders(turn1, [("NOR", "attack", "N3", "K1", {"JV": 2}), ("NOR", "attack", "N5", "M2", {"JV": 1})])
    assert turn_process(turn_id=turn1.pk).status == "resolved"
    return kar.user


def test_it_shows_a_player_the_summary_its_battles_and_the_public_changes(client, player, battle_played):
    client.force_login(player)
    response = client.get(reverse("frontend:turn", args=["demo", 1]))
    page = response.content.decode()
    assert response.context["summary"] == "Turn 1: 2 battles, you took M2"
    assert "Battle of K1" in page and "Battle of M2" in page
    assert "fortune of war" in page and "1d6 rolled" in page and "loss table row" in page
    # KAR's supporting units fought in K1: their loss rolls are KAR's business only.
    assert all(c["nation"] == "NOR" for c in response.context["support"]["chances"])
    assert all(r["nation"] == "NOR" for r in response.context["support"]["rolls"])
    assert [c["region"] for c in response.context["changes"]] == ["M2"]


def test_it_shows_the_supporters_own_rolls_to_the_supporter(client, battle_played):
    client.force_login(battle_played)
    response = client.get(reverse("frontend:turn", args=["demo", 1]))
    cards = {card["region"]: card for card in response.context["cards"]}
    assert set(cards) == {"K1"}
    support = response.context["support"]
    assert support["chances"] and all(c["nation"] == "KAR" for c in support["chances"])
    # Once on the page, after the cards, not under each battle.
    page = response.content.decode()
    assert page.count('id="support"') == 1 and page.index('id="support"') > page.index('id="battle-K1"')


def test_it_keeps_every_past_turn_readable(client, player, battle_played, demo, place_orders):
    from rules.services import turn_process

    turn2 = demo.turns.get(number=2)
    place_orders(turn2, [("NOR", "attack", "M2", "M1", {"JV": 1})])
    turn_process(turn_id=turn2.pk)
    client.force_login(player)
    listing = client.get(reverse("frontend:turns", args=["demo"]))
    assert [t.number for t in listing.context["turns"]] == [2, 1]
    assert client.get(reverse("frontend:turn", args=["demo", 1])).status_code == 200
    assert client.get(reverse("frontend:turn", args=["demo", 3])).status_code == 404


def test_it_draws_the_new_owner_on_the_map_after_the_turn(client, player, battle_played, nations):
    client.force_login(player)
    page = client.get(reverse("frontend:campaign", args=["demo"])).content.decode()
    assert map_regions(page)["M2"]["owner"] == "NOR"
    turn_page = client.get(reverse("frontend:turn", args=["demo", 1])).content.decode()
    assert map_regions(turn_page)["M2"]["owner"] == "NOR"


def test_it_links_every_term_to_the_section_of_the_rules_that_produced_it(client, karelia):
    from frontend.rules_doc import rule_anchor, rules_html

    card = battle_card(karelia[0], names=NAMES)
    page = client.get(reverse("frontend:rules")).content.decode()
    assert page.count("<h2") >= 13 and str(rules_html()) in page
    for row in card["term_rows"]:
        assert f'id="{row["anchor"]}"' in page, row
    assert rule_anchor("the defender loses the region (§5 exception 2)") == "s5"
    assert rule_anchor("no defending ground units (§7.1)") == "s7-1"
    assert 'id="s7-1"' in page


def test_it_shows_the_map_before_and_after_the_turn_with_the_changes_outlined(client, player, battle_played):
    client.force_login(player)
    url = reverse("frontend:turn", args=["demo", 1])
    after = client.get(url).content.decode()
    before = client.get(url + "?map=before").content.decode()
    after, before = map_regions(after), map_regions(before)
    assert (after["M2"]["owner"], after["M2"]["classes"]) == ("NOR", {"changed"})
    assert (before["M2"]["owner"], before["M2"]["classes"]) == ("", {"changed"})
    assert (before["K1"]["owner"], before["K1"]["classes"]) == ("KAR", set())


def test_it_pages_the_cards_of_a_turn_with_many_battles(client, gm, demo, turn1, place_orders, monkeypatch):
    from frontend.views import turns
    from rules.services import turn_process

    monkeypatch.setattr(turns, "CARDS_PER_PAGE", 1)
    place_orders(turn1, [("NOR", "attack", "N3", "K1", {"JV": 2}), ("NOR", "attack", "N5", "M2", {"JV": 1})])
    turn_process(turn_id=turn1.pk)
    client.force_login(gm)
    url = reverse("frontend:turn", args=["demo", 1])
    first, second = client.get(url), client.get(url + "?page=2")
    assert [c["region"] for c in first.context["cards"]] == ["K1"]
    assert [c["region"] for c in second.context["cards"]] == ["M2"]
    assert first.context["summary"] == "Turn 1: 2 battles, 1 region changed hands"
    assert "Battles 1–1 of 2" in first.content.decode()


def test_it_renders_meeting_engagements_and_joint_attacks(client, gm, demo, turn1, place_orders):
    from rules.models import Report
    from rules.services import turn_process

    place_orders(
        turn1,
        [
            ("NOR", "attack", "N3", "K1", {"JV": 2}),
            ("KAR", "attack", "K1", "N3", {"JV": 3}),
            ("NOR", "attack", "N5", "M2", {"JV": 4}),
            ("WES", "attack", "W2", "M2", {"JV": 5}),
            ("EST", "attack", "E2", "M3", {"JV": 4}),
            ("SUD", "attack", "S1", "M3", {"JV": 4}),
        ],
    )
    assert turn_process(turn_id=turn1.pk).status == "resolved"
    kinds = set(Report.objects.filter(turn=turn1).values_list("kind", flat=True))
    assert {"meeting", "joint"} <= kinds or {"meeting", "unopposed"} <= kinds, kinds
    client.force_login(gm)
    response = client.get(reverse("frontend:turn", args=["demo", 1]))
    assert response.status_code == 200
    titles = [card["title"] for card in response.context["cards"]]
    assert any(t.startswith("Meeting engagement of ") for t in titles), titles
    for card in response.context["cards"]:
        assert card["result"] and card["subtitle"]
    meeting = next(c for c in response.context["cards"] if c["kind"] == "meeting")
    assert meeting["result"].startswith(
        ("Karelian Republic wins the meeting", "Kingdom of Nordmark wins the meeting")
    )
    anchors = [c["anchor"] for c in response.context["cards"]]
    assert len(anchors) == len(set(anchors)) and "battle-K1-N3" in anchors


def test_it_says_who_holds_a_region_taken_by_several_nations():
    data = {
        "kind": "unopposed",
        "region": "M2",
        "nations": ["NOR", "WES"],
        "defender": None,
        "units": {"NOR": {"JV": 4}, "WES": {"JV": 5}},
        "conquest": True,
        "decided_by": "no defending ground units (§7.1)",
        "owner_after": "WES",
    }
    card = battle_card(data, names={"NOR": "Nordmark", "WES": "Westmark"})
    assert (
        card["result"] == "Nordmark and Westmark take M2 (unowned) without a fight. Westmark holds it (§7.2)."
    )
    control = battle_card({**data, "kind": "control", "sides": []}, names={})
    assert control["title"] == "Battle for control of M2"


def test_it_counts_in_the_turn_list_only_the_battles_a_player_may_read(
    client, player, rival, gm, battle_played
):
    url = reverse("frontend:turns", args=["demo"])
    counts = {}
    for who in (player, rival, gm):
        client.force_login(who)
        turn = client.get(url).context["turns"][0]
        counts[who.username] = (turn.battles, turn.conquests)
    assert counts == {"player": (2, 1), "rival": (0, 0), "gm": (2, 1)}


def test_a_players_conquests_are_the_regions_its_nation_took_not_every_conquest_it_fought_in(
    client, demo, turn1, player, karelian, place_orders
):
    """Found in play: NOR attacks K1 from N3 and loses the meeting engagement; KAR continues into N3 and
    takes it. NOR fought in that conquest but made none: its turn list said 1."""
    from rules.services import turn_process

    place_orders(
        turn1, [("NOR", "attack", "N3", "K1", {"JV": 2}), ("KAR", "attack", "K1", "N3", {"JV": 3, "PA": 1})]
    )
    assert turn_process(turn_id=turn1.pk).status == "resolved"
    assert demo.regions.get(code="N3").owner.code == "KAR", "the story of the finding"
    url = reverse("frontend:turns", args=["demo"])
    counts = {}
    for who in (player, karelian):
        client.force_login(who)
        turn = client.get(url).context["turns"][0]
        counts[who.username] = turn.conquests
    assert counts == {"player": 0, "karelian": 1}


# NOR and its ally WES both take the empty M2 with 7 ground units each: §7.2 draws the holder by lot.
TIED_JOINT_ATTACK = [
    ("NOR", "attack", "N5", "M2", {"JV": 4, "PA": 3}),
    ("WES", "attack", "W2", "M2", {"JV": 5, "PA": 2}),
]


@pytest.fixture
def tie_drawn(turn1, place_orders):
    """Turn 1 resolved with TIED_JOINT_ATTACK: the holder of M2 drawn by lot."""
    from rules.services import turn_process

    place_orders(turn1, TIED_JOINT_ATTACK)
    assert turn_process(turn_id=turn1.pk).status == "resolved"
    return turn1


def test_a_joint_attacks_card_shows_each_nation_and_the_tie_draw_that_decided_the_holder(
    client, player, demo, turn1, tie_drawn
):
    holder = demo.regions.get(code="M2").owner.name
    client.force_login(player)
    response = client.get(reverse("frontend:turn", args=["demo", 1]))
    card = next(c for c in response.context["cards"] if c["region"] == "M2")
    assert card["unopposed"] == [
        {"nation": "Kingdom of Nordmark", "units": "JV 4, PA 3"},
        {"nation": "Westmark", "units": "JV 5, PA 2"},
    ]
    settlement = card["settlement"]
    assert "Kingdom of Nordmark 7, Westmark 7" in settlement
    # The engine's own record of the draw (TurnResult.settlements), shown as it was rolled.
    (stored,) = Turn.objects.get(pk=turn1.pk).result["settlements"]
    assert (stored["die"], stored["tied"]) == ("1d2", ["NOR", "WES"])
    assert stored["holder"] == stored["tied"][stored["roll"] - 1]
    assert (
        "drawn by lot among 1 = Kingdom of Nordmark, 2 = Westmark: "
        f"1d2 rolled {stored['roll']}, so {holder} holds M2 (§7.2)"
    ) in settlement
    assert settlement in response.content.decode()


def test_a_tie_draw_stored_before_the_engine_recorded_its_roll_still_shows_the_roll_it_was(
    client, player, demo, turn1, tie_drawn
):
    turn = Turn.objects.get(pk=turn1.pk)
    (stored,) = turn.result["settlements"]
    roll = stored.pop("roll")
    del stored["die"]
    turn.save(update_fields=["result"])
    client.force_login(player)
    response = client.get(reverse("frontend:turn", args=["demo", 1]))
    card = next(c for c in response.context["cards"] if c["region"] == "M2")
    assert f"1d2 rolled {roll}, so " in card["settlement"]


def test_the_kta_bars_are_proportional_and_in_the_nations_colours(client, player, battle_played, nations):
    client.force_login(player)
    response = client.get(reverse("frontend:turn", args=["demo", 1]))
    card = next(c for c in response.context["cards"] if c["region"] == "K1")
    assert [s["color"] for s in card["sides"]] == [nations["NOR"].color, nations["KAR"].color]
    page = response.content.decode()
    bars = re.findall(r'<svg class="bar" [^>]*><rect width="(\d+)" height="4" fill="([^"]+)"/>', page)
    ktas = [s["kta"] for s in card["sides"]]
    expected = [str(int(k / max(ktas) * 100 + 0.5)) for k in ktas]
    assert [w for w, _ in bars[:2]] == expected


@pytest.mark.parametrize(("language", "how"), [("en", "How to play"), ("fi", "Näin pelaat")])
def test_the_rules_page_is_for_players_with_how_to_play_and_contents(client, db, language, how):
    client.cookies["django_language"] = language
    response = client.get(reverse("frontend:rules"))
    page = response.content.decode()
    assert f"<h2>{how}</h2>" in page and 'id="how-to-play"' in page
    toc = response.context["toc"]
    assert toc[0] == ("s1", "1. Words") and ("s7", "7. Joint attack (yhteishyökkäys)") in toc
    for anchor, _title in toc:
        assert f'id="{anchor}"' in page
    # Nothing meant for developers: the note on source files and issues, the engine's determinism.
    assert "raise it in a note on your issue" not in page and "seeds/" not in page
    assert "11. Determinism" not in page


def test_a_report_stored_before_the_loss_notes_in_words_still_reads(karelia):
    from rules.engine.messages import Message

    old = {
        "code": "iron_fist.loss.rounded_up",
        "params": {"percent": 20, "count": 7, "larger": 10, "total": 10},
    }
    data = {
        **karelia[0],
        "sides": [{**karelia[0]["sides"][0], "loss_notes": {"JV": old}}, karelia[0]["sides"][1]],
    }
    attacker = battle_card(data, names=NAMES)["sides"][0]
    assert attacker["loss_notes"] == ["JV: 20% of 7 × 10/10, rounded up"]
    assert str(Message.from_dict(old)) == "20% of 7 × 10/10, rounded up"


def test_the_gms_preview_shows_the_tie_draw_of_a_joint_attack_as_the_report_will(
    client, gm, demo, turn1, place_orders
):
    place_orders(turn1, TIED_JOINT_ATTACK)
    client.force_login(gm)
    response = client.post(reverse("frontend:gm_preview", args=["demo", 1]), follow=True)
    (stored,) = response.context["preview"].result["settlements"]
    card = next(c for c in response.context["cards"] if c["region"] == "M2")
    assert f"1d2 rolled {stored['roll']}, so " in card["settlement"]
    assert card["settlement"] in response.content.decode()
