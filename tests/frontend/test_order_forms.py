"""Forms that never lose work: a form carries its turn; a refused order comes back; the form keeps its state;
the targets offered are the legal ones for the kind chosen; the map's script gets the engine's judgement."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from orders.models import Order
from tests.frontend.svg_map import map_regions
from tests.frontend.test_order_pages import _messages
from tests.frontend.test_order_targets import fill

CAMPAIGN = reverse("frontend:campaign", args=["demo"])
CREATE = reverse("frontend:order_create", args=["demo"])
STALE = "Turn 1 was processed while you were editing; "


@pytest.fixture(autouse=True)
def _english_after():
    """A request in Finnish leaves Finnish active in this thread: the next test starts in English."""
    from django.utils import translation

    yield
    translation.activate("en")


class _OrderData(HTMLParser):
    """The order data's attribute as a browser reads it, whichever quotes and escapes the page uses."""

    found: str | None = None

    def handle_starttag(self, tag, attrs):
        if dict(attrs).get("id") == "order-data":
            self.found = dict(attrs)["data-json"]


def _verdict(data, origin, kind, target):
    """The verdict on `target` for `kind` from `origin`: at the target's place in the origin's reach."""
    judged = data["origins"][origin]
    return judged["kinds"][kind][judged["reach"].index(target)]


def _reason(data, origin, kind, target):
    """The reason the map's script shows (orders.js, reasonFor): a template from the list, filled in."""
    why = _verdict(data, origin, kind, target)
    return fill(data["reasons"][why], target=target, origin=origin) if isinstance(why, int) else why


def _order_data(response):
    parser = _OrderData()
    parser.feed(response.content.decode())
    return json.loads(parser.found)


def test_it_refuses_a_new_order_made_for_a_turn_processed_since_and_shows_it_back(
    as_player, conquest_played, demo
):
    order = {"turn": "1", "origin": "N4", "kind": "attack", "target": "W2", "units_JV": "2"}
    response = as_player.post(CREATE, order, follow=True)
    assert response.status_code == 200
    assert _messages(response) == [STALE + "your order was not saved."]
    turn2 = demo.turns.get(number=2)
    assert not Order.objects.filter(turn=turn2).exists()
    form = response.context["form"]
    # The order comes back, now for turn 2, for the player to look at and save again.
    assert (form["origin"].value(), form["kind"].value(), form["target"].value()) == ("N4", "attack", "W2")
    assert form["units_JV"].value() == "2"
    assert form["turn"].value() == 2


def test_it_refuses_a_change_to_an_order_of_a_processed_turn_without_a_404(as_player, conquest_played):
    old = Order.objects.get(turn=conquest_played)
    url = reverse("frontend:order_edit", args=["demo", old.pk])
    response = as_player.post(
        url, {"turn": "1", "origin": "N5", "kind": "attack", "target": "M1", "units_JV": "1"}, follow=True
    )
    assert response.status_code == 200
    assert _messages(response) == [STALE + "your change was not saved."]
    old.refresh_from_db()
    assert (old.target.code, old.units) == ("M2", {"JV": 4, "PA": 3})
    # Opening the old order's page says why it cannot be changed, rather than "not found".
    response = as_player.get(url, follow=True)
    assert response.status_code == 200
    assert _messages(response) == [
        "That order was for turn 1, which has been processed; it can no longer be changed."
    ]


def test_it_refuses_to_delete_from_a_form_of_a_processed_turn(as_player, conquest_played):
    old = Order.objects.get(turn=conquest_played)
    url = reverse("frontend:order_delete", args=["demo", old.pk])
    response = as_player.post(url, {"turn": "1"}, follow=True)
    assert response.status_code == 200
    assert _messages(response) == [STALE + "the order was not deleted."]
    assert Order.objects.filter(pk=old.pk).exists()


def test_it_never_saves_a_stale_form_into_the_open_turn_even_when_the_order_is_valid(
    as_player, conquest_played, demo
):
    # N4 → N5 would be a valid move in turn 2 too: still refused, the player never saw turn 2.
    as_player.post(CREATE, {"turn": "1", "origin": "N4", "kind": "move", "target": "N5", "units_JV": "1"})
    assert not Order.objects.filter(turn__number=2).exists()


def test_it_shows_a_refused_order_again_after_a_reload_or_a_language_switch(as_player, turn1):
    refused = {"turn": "1", "origin": "N5", "kind": "attack", "target": "K1", "units_JV": "2"}
    response = as_player.post(CREATE, refused)
    assert response.status_code == 400
    # A reload of the refused page's address (GET): the campaign page with the order, not a blank 405.
    response = as_player.get(CREATE, follow=True)
    assert response.status_code == 200
    form = response.context["form"]
    assert (form["origin"].value(), form["target"].value(), form["units_JV"].value()) == ("N5", "K1", "2")
    # The same after switching language from the refused page.
    as_player.post(CREATE, refused)
    response = as_player.post(reverse("frontend:language"), {"language": "fi", "next": CREATE}, follow=True)
    assert response.status_code == 200
    assert response.context["form"]["target"].value() == "K1"
    # And going back to the campaign page.
    as_player.post(CREATE, refused)
    assert as_player.get(CAMPAIGN).context["form"]["units_JV"].value() == "2"


def test_a_get_of_the_delete_address_goes_to_the_orders_not_a_405(as_player, turn1, place_orders):
    [order] = place_orders(turn1, [("NOR", "move", "N5", "N4", {"JV": 1})])
    response = as_player.get(reverse("frontend:order_delete", args=["demo", order.pk]))
    assert response.status_code == 302
    assert response.url.endswith("#orders")


def test_the_form_keeps_the_origin_and_the_kind_after_saving(as_player, turn1):
    response = as_player.post(
        CREATE,
        {"turn": "1", "origin": "N5", "kind": "attack", "target": "M2", "units_JV": "1"},
        follow=True,
    )
    form = response.context["form"]
    assert (form["origin"].value(), form["kind"].value()) == ("N5", "attack")
    assert _messages(response) == ["Order saved: N5 → M2: attack with 1 JV."]
    # The message is said in the order panel, where the player is looking, not only at the top.
    page = response.content.decode()
    assert page.index("Order saved:") > page.index('id="order"')


def test_the_default_kind_is_hold(as_player, turn1):
    form = as_player.get(CAMPAIGN).context["form"]
    assert form["kind"].value() == "hold"


def test_it_offers_only_the_targets_legal_for_the_kind(as_player, turn1):
    def targets(query):
        form = as_player.get(CAMPAIGN + query).context["form"]
        return {c for c, _ in form.fields["target"].choices} - {""}

    # From N5, an attack goes next door to a region not NOR's: not K1, two borders away, not N4, NOR's own.
    assert targets("?origin=N5&kind=attack") == {"M1", "M2"}
    assert targets("?origin=N5&kind=move") == {"N2", "N3", "N4"}
    # N1's IV rebase within their range of 2, only to NOR's own regions.
    assert targets("?origin=N1&kind=rebase") == {"N2", "N3", "N4", "N5"}


def test_the_map_script_gets_the_engines_reasons_and_only_the_kinds_the_units_allow(as_player, turn1):
    data = _order_data(as_player.get(CAMPAIGN))
    n5 = data["origins"]["N5"]
    assert n5["left"] == {"JV": 4, "PA": 3, "TY": 1}
    assert _verdict(data, "N5", "attack", "M2") is None
    assert _reason(data, "N5", "attack", "N4") == "N4 is NOR's own region: move there instead of attacking"
    assert _reason(data, "N5", "attack", "K1") == "K1 is not adjacent to N5"
    # N5 has no IV: nothing to rebase, so a click on an own region there means a move.
    assert "rebase" not in n5["kinds"]
    assert _verdict(data, "N1", "rebase", "N5") is None
    assert data["picked"] is None
    assert data["kind_roles"]["attack"] == ["ground"]


def test_the_map_scripts_data_keeps_quotes_ampersands_and_markup_in_names_as_they_are(as_player, turn1, demo):
    demo.regions.filter(code="M2").update(name='O\'Hara & <b>"Sons"</b>')
    response = as_player.get(CAMPAIGN)
    assert "<b>" not in response.content.decode().split('id="order-data"')[1].split("</div>")[0]
    assert _order_data(response)["labels"]["M2"] == 'M2 O\'Hara & <b>"Sons"</b>'


def test_it_takes_away_what_other_orders_used_from_what_the_map_offers(as_player, turn1, place_orders):
    place_orders(turn1, [("NOR", "attack", "N5", "M2", {"JV": 4})])
    data = _order_data(as_player.get(CAMPAIGN + "?origin=N5"))
    assert data["origins"]["N5"]["left"] == {"PA": 3, "TY": 1}
    assert data["picked"] == "N5"


def test_the_arrows_are_in_the_nations_colour_with_their_counts(as_player, turn1, place_orders, nations):
    place_orders(turn1, [("NOR", "attack", "N5", "M2", {"JV": 4, "PA": 3})])
    page = as_player.get(CAMPAIGN).content.decode()
    arrow = re.search(r'<g class="order-arrow">.*?</g>', page).group(0)
    assert f'stroke="{nations["NOR"].color}"' in arrow
    assert '<text class="arrow-count"' in arrow and ">4JV 3PA</text>" in arrow
    # The script lives in a static file (no inline script: the content security policy).
    assert "frontend/orders.js" in page
    assert "onclick" not in page


@pytest.mark.parametrize(
    ("language", "forbidden", "missing"),
    [
        ("en", "This page is not for you", "Nothing here"),
        ("fi", "Tämä sivu ei ole sinua varten", "Täällä ei ole mitään"),
    ],
)
def test_403_and_404_are_pages_of_the_site_in_the_readers_language(
    as_player, turn1, language, forbidden, missing
):
    as_player.cookies["django_language"] = language
    response = as_player.get(reverse("frontend:gm", args=["demo"]))
    assert response.status_code == 403
    page = response.content.decode()
    assert forbidden in page and 'class="topbar"' in page
    response = as_player.get(reverse("frontend:campaign", args=["no-such-campaign"]))
    assert response.status_code == 404
    assert missing in response.content.decode()


def test_after_a_turn_the_campaign_page_has_a_banner_battle_markers_and_the_changes(
    as_player, demo, turn1, place_orders
):
    from rules.services import turn_process

    place_orders(
        turn1,
        [("NOR", "attack", "N5", "M2", {"JV": 4, "PA": 3}), ("NOR", "attack", "N3", "K1", {"JV": 2})],
    )
    assert turn_process(turn_id=turn1.pk).status == "resolved"
    response = as_player.get(CAMPAIGN)
    after = response.context["after"]
    assert after["banner"].startswith("Turn 1: 2 battles, you took M2; you lost ")
    assert "JV at K1" in after["banner"]
    page = response.content.decode()
    turn_url = reverse("frontend:turn", args=["demo", 1])
    assert f'<a href="{turn_url}">{after["banner"]}.</a>' in page
    # A marker on each battle opens its card; M2, which changed hands, has the heavy outline.
    assert f'<a class="battle-marker" href="{turn_url}#battle-K1"' in page
    assert f'<a class="battle-marker" href="{turn_url}#battle-M2"' in page
    assert map_regions(page)["M2"]["classes"] == {"changed"}


def test_the_banner_names_a_meeting_by_both_regions_and_at_most_five_losses(demo, turn1, nations, player):
    from campaign.selectors import viewer_get
    from frontend.situation import BANNER_LOSSES, after_turn
    from rules.models import Report, ReportNation

    places = ["N3|N4", "K1", "K2", "K3", "K4", "K5", "K6"]
    for position, place in enumerate(places):
        report = Report.objects.create(
            turn=turn1,
            position=position,
            kind="battle",
            region=place,
            data={"kind": "battle", "region": place, "losses": {"NOR": {"JV": position + 1}}},
        )
        ReportNation.objects.create(report=report, nation=nations["NOR"])

    banner = after_turn(viewer=viewer_get(user=player, campaign=demo), last=turn1)["banner"]

    assert "1 JV at N3–N4" in banner and "|" not in banner
    assert f"{BANNER_LOSSES} JV at K4" in banner and "JV at K5" not in banner
    assert banner.endswith("and in 2 more battles")


def test_the_legend_names_each_nation_with_its_colour_the_readers_relations_and_the_weather(
    as_player, turn1, nations
):
    turn1.weather = "rain"
    turn1.region_weather = {"M1": "snow", "N5": "snow"}
    turn1.save()
    response = as_player.get(CAMPAIGN)
    legend = {row["code"]: row["relation"] for row in response.context["legend"]}
    assert legend == {"NOR": "you", "KAR": "war", "EST": "war", "WES": "alliance", "SUD": "war"}
    assert response.context["weather"] == "rain; snow in M1, N5"
    assert "Weather: rain; snow in M1, N5" in response.content.decode()


def test_a_nation_in_civil_disorder_is_told_before_it_tries_to_give_orders(as_player, turn1, nations):
    nations["NOR"].civil_disorder = True
    nations["NOR"].save()
    page = as_player.get(CAMPAIGN).content.decode()
    assert "Kingdom of Nordmark is in civil disorder." in page
    assert page.index("is in civil disorder") < page.index('id="order"')
