"""The Django admin does not offer to add a campaign (a bare row had no map, no GM and no turn: a dead end
for its creator) and says where campaigns are made; the campaigns made there can still be read and edited."""

from __future__ import annotations

import pytest

from campaign.models import Campaign

ADD = "/admin/campaign/campaign/add/"
LIST = "/admin/campaign/campaign/"


@pytest.fixture
def superuser(db, django_user_model):
    return django_user_model.objects.create_superuser(username="root", password="root-password-1")


def test_the_admin_offers_no_add_campaign_and_says_where_campaigns_are_made(client, superuser, demo) -> None:
    client.force_login(superuser)
    page = client.get(LIST).content.decode()
    assert ADD not in page
    assert "import_scenario FILE --campaign SLUG" in page
    index = client.get("/admin/").content.decode()
    assert ADD not in index and LIST in index


def test_adding_a_campaign_in_the_admin_is_refused_and_creates_nothing(client, superuser) -> None:
    client.force_login(superuser)
    assert client.get(ADD).status_code == 403
    response = client.post(ADD, {"name": "Bare", "slug": "bare", "status": "active"})
    assert response.status_code == 403
    assert not Campaign.objects.exists()


def test_a_campaign_made_by_the_importer_is_still_shown_and_edited(client, superuser, demo) -> None:
    client.force_login(superuser)
    assert client.get(f"/admin/campaign/campaign/{demo.pk}/change/").status_code == 200
    assert demo.name in client.get(LIST).content.decode()


def test_it_says_so_in_finnish(client, superuser, demo) -> None:
    client.force_login(superuser)
    client.cookies["django_language"] = "fi"
    page = client.get(LIST, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Kampanjoita ei lisätä täällä" in page


@pytest.mark.parametrize("who", ["gm", "player", "outsider"])
def test_no_one_but_staff_reaches_it(client, request, demo, who) -> None:
    client.force_login(request.getfixturevalue(who))
    assert client.get(ADD).status_code == 302  # to the admin's login
    assert client.post(ADD, {"name": "Bare", "slug": "bare"}).status_code == 302
    assert Campaign.objects.count() == 1
