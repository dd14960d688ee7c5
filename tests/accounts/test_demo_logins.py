"""The login page lists every demo campaign while the demo is loaded: its name, its battle system and its
logins, each of which logs in to it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from campaign.models import Campaign, Membership

LOGIN = "/accounts/login/"
SYSTEMS = {
    "en": {
        "demo": "Iron Fist",
        "tabletop": "Tabletop battles",
        "sampo": "Sodankäynti",
        "company": "Company d20",
    },
    "fi": {
        "demo": "Rautanyrkki",
        "tabletop": "Pöytätaistelut",
        "sampo": "Sodankäynti",
        "company": "Komppania d20",
    },
}


@pytest.fixture
def loaded(db):
    call_command("load_demo")


def _sections(page: str) -> dict[str, str]:
    """Each demo campaign's part of the login page, by its slug."""
    box = page[page.index('id="demo-logins"') :]
    parts = re.split(r'<h3 id="demo-([\w-]+)">', box)[1:]
    return dict(zip(parts[::2], parts[1::2], strict=True))


@pytest.mark.parametrize("language", ["en", "fi"])
def test_it_lists_each_demo_campaign_with_its_name_battle_system_and_logins(client, loaded, language) -> None:
    client.cookies["django_language"] = language
    page = client.get(LOGIN, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    sections = _sections(page)

    assert list(sections) == ["demo", "tabletop", "sampo", "company"]
    for slug, section in sections.items():
        campaign = Campaign.objects.get(slug=slug)
        assert campaign.name in section.split("</h3>")[0]
        assert SYSTEMS[language][slug] in section.split("</h3>")[0]
        users = re.findall(r"<td[^>]*><code>([\w-]+)</code></td><td[^>]*><code>([\w-]+)</code></td>", section)
        members = Membership.objects.filter(campaign=campaign).values_list("user__username", flat=True)
        assert {username for username, _ in users} == set(members), slug
        assert users[0] == ("gm", "ironfist-gm")
    assert "<code>poh</code>" in sections["sampo"] and "<code>poh</code>" not in sections["demo"]


def test_every_login_listed_logs_in_to_its_campaign(client, loaded) -> None:
    sections = _sections(client.get(LOGIN).content.decode())
    for slug, section in sections.items():
        for username, password in re.findall(
            r"<code>([\w-]+)</code></td><td[^>]*><code>([\w-]+)</code>", section
        ):
            browser = Client()
            response = browser.post(LOGIN, {"username": username, "password": password})
            assert response.status_code == 302, (slug, username)
            assert browser.get(f"/c/{slug}/").status_code == 200, (slug, username)


def test_it_lists_none_without_the_demo_or_once_its_password_changed(client, db) -> None:
    assert 'id="demo-logins"' not in client.get(LOGIN).content.decode()
    call_command("load_demo")
    assert 'id="demo-logins"' in client.get(LOGIN).content.decode()
    gm = get_user_model().objects.get(username="gm")
    gm.set_password("a-real-password-now")
    gm.save()
    assert 'id="demo-logins"' not in client.get(LOGIN).content.decode()


def test_a_demo_campaign_deleted_is_no_longer_listed(client, loaded) -> None:
    Campaign.objects.filter(slug="tabletop").delete()
    assert list(_sections(client.get(LOGIN).content.decode())) == ["demo", "sampo", "company"]


def test_the_list_costs_a_fixed_number_of_queries(client, loaded, django_assert_max_num_queries) -> None:
    with django_assert_max_num_queries(8):
        client.get(LOGIN)
