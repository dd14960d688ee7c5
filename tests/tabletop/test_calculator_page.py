"""The close-combat calculator's page: a round entered in a form, no JavaScript, in English or Finnish."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

URL = reverse("frontend:calculator")


def _unit(side: int, row: int, **fields: str) -> dict[str, str]:
    return {f"side-{side}-unit-{row}-{field}": value for field, value in fields.items()}


# TABLETOP.md B10, the worked example (case c09), as the form posts it.
WORKED = {
    "side-0-name": "RED",
    "side-1-name": "BLUE",
    **_unit(0, 0, id="infantry", name="Infantry", wounds="3", full_ranks="2"),
    **_unit(0, 1, id="cavalry", name="Cavalry", wounds="3", charged="1", full_ranks="2", flank_of="blocks"),
    **_unit(0, 2, id="scouts", wounds="1", full_ranks="1", rear_of="militia"),
    **_unit(1, 0, id="blocks", name="Blocks", wounds="2", full_ranks="4", standards="1", discipline="8"),
    **_unit(1, 1, id="militia", name="Militia", wounds="2", full_ranks="3", discipline="7"),
    "dice_mode": "entered",
    "rolls": "1 3, 4 3",
    "action": "roll",
}


def test_it_shows_the_empty_form(as_role) -> None:
    page = as_role("player").get(URL).content.decode()

    assert "Close-combat calculator" in page
    assert 'name="side-1-unit-3-discipline"' in page and 'name="side-1-unit-4-id"' not in page
    assert 'name="side-0-unit-5-id"' in as_role("player").get(f"{URL}?units=6").content.decode()


def test_it_works_out_the_worked_example(as_role) -> None:
    response = as_role("player").post(URL, WORKED)

    page = response.content.decode()
    assert response.status_code == 200
    assert "<td><strong>14</strong></td>" in page and "<td><strong>8</strong></td>" in page
    assert "RED wins the round by 6." in page
    assert "Steadfast lost: Cavalry (2 full ranks) fights it in the flank." in page
    assert "Steadfast: 3 full ranks, more than any enemy unit (most: Infantry, Cavalry, 2)." in page
    assert "1 + 3 = 4" in page and "<strong>broken</strong>" in page and "<strong>holds</strong>" in page
    assert 'value="cavalry"' in page, "the form keeps what was entered"


def test_it_previews_without_dice(as_role) -> None:
    page = as_role("player").post(URL, {**WORKED, "action": "preview", "rolls": ""}).content.decode()

    assert "Preview" in page and "<td>2</td>" in page
    assert "<strong>broken</strong>" not in page


def test_it_rolls_from_a_seed_and_prints_it(as_role) -> None:
    page = as_role("player").post(URL, {**WORKED, "dice_mode": "seeded", "seed": "9"}).content.decode()

    # random.Random(9) draws 4, 5, 3, 3 (case c14)
    assert "Seeded dice, seed 9" in page and "4 + 5 = 9" in page and "3 + 3 = 6" in page


def test_it_lists_every_error_of_a_refused_round(as_role) -> None:
    form = {**WORKED, "side-1-unit-1-discipline": "seven", "side-0-unit-0-wounds": "2.5"}

    response = as_role("player").post(URL, form)

    page = response.content.decode()
    assert response.status_code == 400
    assert "not_whole_number:infantry:wounds" in page
    assert "infantry: wounds must be a whole number, 0 or more." in page
    assert "militia: Discipline must be a whole number." in page


def test_it_speaks_finnish_to_a_finnish_browser(player) -> None:
    client = Client(headers={"accept-language": "fi"})
    client.force_login(player)

    page = client.post(URL, WORKED).content.decode()

    assert '<html lang="fi">' in page
    assert "Lähitaistelulaskuri" in page
    assert "RED voittaa kierroksen 6 pisteellä." in page
    assert "Järkähtämättömyys menetetty: Cavalry (2 täyttä riviä) taistelee sen kylkeen." in page


def test_it_sends_anyone_not_logged_in_to_the_login_page(as_role) -> None:
    response = as_role("anonymous").get(URL)

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_calculator_is_linked_in_tabletop_campaigns_only(demo, player, client) -> None:
    """Issue on table play: a campaign whose battles never use the round calculator does not link it;
    outside any campaign it is the site's tool."""
    from django.urls import reverse

    calculator = f'href="{reverse("frontend:calculator")}"'
    client.force_login(player)
    assert calculator not in client.get(reverse("frontend:campaign", args=["demo"])).content.decode()
    demo.battle_system = "tabletop"
    demo.save(update_fields=["battle_system"])
    assert calculator in client.get(reverse("frontend:campaign", args=["demo"])).content.decode()
    assert calculator in client.get(reverse("frontend:settings")).content.decode()
