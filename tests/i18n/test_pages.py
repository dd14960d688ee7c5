"""The pages in Finnish, from the browser's Accept-Language or the top bar's chooser; English by default.

The rules' own terms (KTA, JV, PA, TY, IV) read the same in both languages."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from campaign.lifecycle import language_of

RULE_TERMS = ("KTA", "JV", "PA", "TY", "IV")


def _page(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_the_campaign_page_in_finnish_when_the_browser_asks_for_it(demo, finnish_player):
    page = _page(finnish_player, "frontend:campaign", "demo")
    assert '<html lang="fi">' in page
    for words in (
        "Uusi käsky",
        "Käskysi vuorolle 1",
        "Joukkoluettelo",
        "Tallenna käsky",
        "Kartta taulukkona",
    ):
        assert words in page
    assert ">hyökkää</option>" in page, "the order kinds of the form"
    for term in ("JV", "PA", "TY", "IV"):
        assert f">{term}</th>" in page, "the roster's columns keep the rules' own terms"
    assert "New order" not in page and "Your orders for turn" not in page


def test_it_keeps_the_english_default_when_the_browser_says_nothing(demo, english_player):
    page = _page(english_player, "frontend:campaign", "demo")
    assert '<html lang="en">' in page
    assert "New order" in page and "Roster" in page and ">attack</option>" in page
    assert "Uusi käsky" not in page


def test_it_switches_to_finnish_with_the_chooser_and_remembers_it_for_mail(demo, player):
    client = Client()
    client.force_login(player)
    assert "New order" in _page(client, "frontend:campaign", "demo")

    campaign_url = reverse("frontend:campaign", args=["demo"])
    response = client.post(reverse("frontend:language"), {"language": "fi", "next": campaign_url})
    assert response.status_code == 302 and response["Location"] == campaign_url
    page = _page(client, "frontend:campaign", "demo")
    assert "Uusi käsky" in page and "New order" not in page
    assert language_of(user=player) == "fi", "the mails follow the language chosen on the web"

    client.post(reverse("frontend:language"), {"language": "en", "next": campaign_url})
    assert "New order" in _page(client, "frontend:campaign", "demo")
    assert language_of(user=player) == "en"


def test_it_offers_both_languages_in_the_top_bar_each_in_its_own_words(demo, english_player):
    page = _page(english_player, "frontend:campaign", "demo")
    assert 'value="en" lang="en"' in page and ">English</button>" in page
    assert 'value="fi" lang="fi"' in page and ">suomi</button>" in page


def test_it_lets_an_anonymous_visitor_choose_a_language_without_a_profile(db):
    client = Client()
    response = client.post(reverse("frontend:language"), {"language": "fi", "next": "/rules/"})
    assert response.status_code == 302
    assert "Kirjaudu sisään" in client.get(reverse("frontend:login")).content.decode()


def test_it_shows_a_turn_report_in_finnish_with_the_kta_terms_as_they_are(played, finnish_player):
    page = _page(finnish_player, "frontend:turn", "demo", played.number)
    for words in (
        "Vuoron 1 tulokset",
        "Taistelu: M2",
        "Omistajaa vaihtaneet alueet",
        "Taistelu: K1",
        "Vuoro 1: 2 taistelua",
        "valtasit: M2",
        "hyökkääjä",
        "puolustaja",
        "sotaonni",
        "tappiotaulukon rivi",
        "Tulos:",
    ):
        assert words in page, words
    for term in ("KTA", "JV 2", "JV 4", "PA 3"):
        assert term in page, term
    assert "Battle of M2" not in page and "Result:" not in page and "fortune of war" not in page


def test_it_shows_the_same_turn_report_in_english_by_default(played, english_player):
    page = _page(english_player, "frontend:turn", "demo", played.number)
    assert "Turn 1 results" in page and "Battle of K1" in page and "you took M2" in page
    assert "fortune of war" in page and "attacker" in page and "KTA" in page and "JV 2" in page


def test_it_shows_the_gm_dashboard_in_finnish(demo, finnish_gm):
    page = _page(finnish_gm, "frontend:gm", "demo")
    assert "Pelinjohdon näkymä" in page and "Pelinjohtaja" in page
    assert '<span class="tag status-open">avoin</span>' in page and ">sota</td>" in page
    assert "Käsittele vuoro 1 nyt" in page and "Muutosloki" in page and "päivää" in page
    assert "GM dashboard" not in page and "Process turn" not in page
    assert "KTA" in page, "the modifiers' column keeps the rules' term"


def test_it_says_why_an_order_is_refused_in_finnish(demo, finnish_player):
    response = finnish_player.post(
        reverse("frontend:order_create", args=["demo"]),
        {"origin": "N5", "kind": "attack", "target": "K1", "units_JV": "2"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "K1 ei rajoitu alueeseen N5" in page and "Käskyä ei tallennettu" in page
    assert "is not adjacent" not in page
