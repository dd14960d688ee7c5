"""Order entry in the browser: plain forms, the engine's messages next to the field, what happened said."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from orders.models import Order
from tests.frontend.svg_map import map_labels, map_regions

CAMPAIGN = reverse("frontend:campaign", args=["demo"])
CREATE = reverse("frontend:order_create", args=["demo"])


def _messages(response):
    return [str(m) for m in response.context["messages"]]


def test_it_saves_an_order_and_says_what_it_was(as_player, turn1):
    response = as_player.post(
        CREATE,
        {"origin": "N5", "kind": "attack", "target": "M2", "units_JV": "4", "units_PA": "3"},
        follow=True,
    )
    assert _messages(response) == ["Order saved: N5 → M2: attack with 4 JV, 3 PA."]
    order = Order.objects.get(turn=turn1)
    assert (order.kind, order.origin.code, order.target.code, order.units) == (
        "attack",
        "N5",
        "M2",
        {"JV": 4, "PA": 3},
    )
    page = response.content.decode()
    assert "N5 → M2: attack with 4 JV, 3 PA" in page
    assert "Units without orders hold." in page
    # The order is drawn on the map as a solid arrow.
    assert 'class="arrow arrow-attack"' in page


def test_it_shows_the_rules_message_next_to_the_field_at_fault(as_player, turn1):
    response = as_player.post(CREATE, {"origin": "N4", "kind": "attack", "target": "K1", "units_JV": "2"})
    assert response.status_code == 400
    assert response.context["form"].errors["target"] == ["K1 is not adjacent to N4"]
    page = response.content.decode()
    assert page.index("K1 is not adjacent to N4") > page.index('name="target"')
    assert not Order.objects.filter(turn=turn1).exists()


def test_it_says_how_many_units_are_left_after_the_other_orders(as_player, turn1):
    as_player.post(CREATE, {"origin": "N5", "kind": "attack", "target": "M2", "units_PA": "2"})
    response = as_player.post(CREATE, {"origin": "N5", "kind": "attack", "target": "M1", "units_PA": "2"})
    assert response.context["form"].units_errors == ["only 1 PA left in N5 after your other orders, not 2"]
    assert "only 1 PA left in N5 after your other orders, not 2" in response.content.decode()


def test_it_offers_only_the_origins_with_units_and_targets_in_reach(as_player, turn1):
    response = as_player.get(CAMPAIGN + "?origin=N5")
    form = response.context["form"]
    assert [c for c, _ in form.fields["origin"].choices] == ["N1", "N2", "N3", "N4", "N5"]
    assert form["origin"].value() == "N5"
    targets = {c for c, _ in form.fields["target"].choices}
    assert {"M1", "M2", "N2", "N4"} <= targets and "E5" not in targets
    # The counts are capped at what is in N5: JV 4, PA 3, TY 1.
    assert form.fields["units_JV"].widget.attrs["max"] == "4"
    assert form.fields["units_IV"].widget.attrs["max"] == "0"


def test_a_hold_takes_no_units_from_the_form_or_the_roster(as_player, turn1):
    """Holds take nothing (§2.1): after `hold N5: JV 4` the form still offers the 4 JV for an attack, as
    order entry accepts it, and the roster counts them as free."""
    as_player.post(CREATE, {"origin": "N5", "kind": "hold", "units_JV": "4"})
    response = as_player.get(CAMPAIGN + "?origin=N5")
    assert response.context["form"].fields["units_JV"].widget.attrs["max"] == "4"
    [n5] = [row for row in response.context["roster"]["rows"] if row["code"] == "N5"]
    assert n5["cells"][0] == {"count": "4", "free": ""}

    attack = as_player.post(
        CREATE, {"origin": "N5", "kind": "attack", "target": "M2", "units_JV": "4"}, follow=True
    )
    assert _messages(attack) == ["Order saved: N5 → M2: attack with 4 JV."]
    response = as_player.get(CAMPAIGN + "?origin=N5")
    assert response.context["form"].fields["units_JV"].widget.attrs["max"] == "0", "the attack took them"
    [n5] = [row for row in response.context["roster"]["rows"] if row["code"] == "N5"]
    assert n5["cells"][0] == {"count": "4", "free": "0 free"}


def test_it_changes_an_order_in_place_and_says_from_what_to_what(as_player, turn1):
    as_player.post(CREATE, {"origin": "N5", "kind": "attack", "target": "M2", "units_JV": "4"})
    order = Order.objects.get(turn=turn1)
    place = order.sequence
    url = reverse("frontend:order_edit", args=["demo", order.pk])
    assert as_player.get(url).context["form"]["target"].value() == "M2"
    response = as_player.post(
        url, {"origin": "N5", "kind": "attack", "target": "M1", "units_JV": "3"}, follow=True
    )
    assert _messages(response) == ["Order changed: N5 → M2: attack with 4 JV; now N5 → M1: attack with 3 JV."]
    order.refresh_from_db()
    assert (order.target.code, order.units, order.sequence) == ("M1", {"JV": 3}, place)


def test_it_deletes_an_order_and_says_the_units_hold(as_player, turn1):
    as_player.post(CREATE, {"origin": "N5", "kind": "move", "target": "N4", "units_JV": "1"})
    order = Order.objects.get(turn=turn1)
    response = as_player.post(reverse("frontend:order_delete", args=["demo", order.pk]), follow=True)
    assert _messages(response)[-1:] == [
        "Order deleted: N5 → N4: move 1 JV. Those units hold unless you order them again."
    ]
    assert not Order.objects.filter(turn=turn1).exists()


def test_it_refuses_orders_after_the_deadline(as_player, turn1):
    turn1.deadline = timezone.now() - timedelta(minutes=1)
    turn1.save()
    response = as_player.post(CREATE, {"origin": "N5", "kind": "attack", "target": "M2", "units_JV": "1"})
    assert response.status_code == 400
    assert "the deadline of turn 1 has passed" in response.content.decode()
    page = as_player.get(CAMPAIGN).content.decode()
    assert "Orders for turn 1 are closed (the deadline has passed)" in page
    assert 'id="order-form"' not in page


def test_it_lets_a_click_on_the_map_choose_the_origin_without_script(as_player, turn1):
    page = as_player.get(CAMPAIGN).content.decode()
    assert '<a href="?origin=N5#order"' in page
    assert "frontend/site.js" in page


def test_it_shows_the_map_with_owners_terrain_forts_and_only_the_stacks_in_sight(as_player, turn1, nations):
    page = as_player.get(CAMPAIGN + "?view=table").content.decode()
    regions = map_regions(page)
    # N5 is Nordmark's: its colour; M2 is unowned: light grey.
    assert (regions["N5"]["owner"], regions["N5"]["fill"]) == ("NOR", nations["NOR"].color)
    assert (regions["M2"]["owner"], regions["M2"]["fill"]) == ("", "#e3e3e3")
    drawn = {tag for region in regions.values() for tag, attrs in region["drawing"]}
    hatched = [r for r in regions.values() if any(a.get("fill") == "url(#hatch)" for _, a in r["drawing"])]
    assert hatched and {"path", "circle"} <= drawn  # rough terrain, a city's tower, fort rings
    counters = map_labels(page, "stacks")
    assert "■ JV 4 · PA 3 · TY 1" in counters
    # Fog of war: EST's E5 (JV 5, IV 2) is far from every Nordmark region.
    assert '<tr id="row-N5"><th scope="row">N5 <span class="muted">Havsund</span></th>' in page
    row_e5 = page[page.index('<tr id="row-E5">') :].split("</tr>")[0]
    assert "JV" not in row_e5 and "—" in row_e5
    assert not any("JV 5 · IV 2" in counter for counter in counters), "not on the map either"
    row_n5 = page[page.index('<tr id="row-N5">') :].split("</tr>")[0]
    assert "NOR: JV 4 · PA 3 · TY 1" in row_n5


def test_it_sends_the_map_as_a_table_only_when_asked_for(as_player, turn1):
    page = as_player.get(CAMPAIGN).content.decode()
    assert '<a href="?view=table#map-table">' in page
    assert 'id="row-N5"' not in page

    table = as_player.get(CAMPAIGN, {"view": "table"}).content.decode()
    assert '<tr id="row-N5">' in table and "<details open>" in table
    assert map_regions(table) == map_regions(page), "the same map either way"


def test_it_shows_the_top_bar_with_turn_deadline_and_nation(as_player, turn1):
    page = as_player.get(CAMPAIGN).content.decode()
    assert "The Grenzwald Crisis" in page and "Turn 1" in page
    assert "Kingdom of Nordmark" in page
    assert f'datetime="{turn1.deadline.isoformat()}"' in page or "d 23 h left" in page
    assert "UTC" in page


def test_it_draws_a_nation_with_a_colour_that_is_not_a_hex_colour_in_grey(as_player, turn1, nations):
    nations["NOR"].color = 'red"x=1'  # fits the column's 7 characters on PostgreSQL too
    nations["NOR"].save()
    page = as_player.get(CAMPAIGN).content.decode()
    assert 'red"x=1' not in page and "red&quot;x=1" not in page
    assert 'fill="#888888"' in page


def test_it_says_so_when_the_nation_has_no_units_left(as_player, turn1, nations):
    from campaign.models import Stack

    Stack.objects.filter(nation=nations["NOR"]).update(count=0)
    page = as_player.get(CAMPAIGN).content.decode()
    assert "Your nation has no units left to give orders to." in page
    assert 'id="order-form"' not in page


def test_a_player_reads_the_numbers_of_its_own_list_not_the_turns_places(as_player, rival, turn1):
    from orders.services import OrderDraft, order_submit

    for _ in range(2):  # the rival's orders take the turn's first places
        order_submit(user=rival, turn=turn1, draft=OrderDraft("hold", "E1", None, {"JV": 1}))
    as_player.post(CREATE, {"origin": "N5", "kind": "attack", "target": "M2", "units_JV": "4"})
    order = Order.objects.get(turn=turn1, nation__code="NOR")

    page = as_player.get(reverse("frontend:campaign", args=["demo"])).content.decode()
    edit = as_player.get(reverse("frontend:order_edit", args=["demo", order.pk])).content.decode()

    assert "Delete order 1: N5 → M2: attack with 4 JV" in page
    assert "<h1>Edit order #1</h1>" in edit
