"""The invitation pages: the GM dashboard's panel (make a link, mail it, revoke it; a bad field said beside
it, nothing written) for every role, and /join/<token>/ for an anonymous visitor, a newcomer, a member of the
campaign and the one who used it: the words for a spent link, the statuses (410, 409, 404, 429)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from campaign.invitations import invitation_create, invitation_revoke
from campaign.models import Invitation, Membership
from campaign.throttles import AcceptThrottle

GM_PAGE = "/c/demo/gm/"
INVITE = "/c/demo/gm/invitations/"


@pytest.fixture(autouse=True)
def _fresh(settings):
    cache.clear()
    settings.IRONFIST_SITE_URL = "https://ironfist.example"
    yield
    cache.clear()
    from django.utils import translation

    translation.activate("en")


@pytest.fixture
def as_role(client, gm, player, rival, outsider):
    """as_role("rival"): the test client logged in as that member of the cast."""
    users = {"gm": gm, "player": player, "rival": rival, "outsider": outsider}

    def login(role):
        client.force_login(users[role])
        return client

    return login


@pytest.fixture
def link(demo, gm, nations):
    return invitation_create(by=gm, campaign=demo, nation=nations["SUD"])


def test_the_gm_makes_a_link_for_a_nation_without_a_player_and_copies_it(client, gm, player, mailoutbox):
    client.force_login(gm)
    page = client.get(GM_PAGE).content.decode()
    assert 'id="invitations"' in page and 'id="invite-SUD"' in page
    assert 'id="id_invite_' in page

    response = client.post(INVITE, {"nation": "SUD", "days": "5", "email": "friend@example.org"}, follow=True)

    invitation = Invitation.objects.get()
    url = f"https://ironfist.example/join/{invitation.token}/"
    said = [str(m) for m in response.context["messages"]]
    assert said == [f"Invitation link for Sudrian Empire made: {url} It is on its way to friend@example.org."]
    assert f'value="{url}"' in response.content.decode()
    assert "sent to friend@example.org" in response.content.decode()


def test_a_refused_link_is_said_beside_the_form_and_makes_nothing(client, gm, player):
    client.force_login(gm)
    for data, said in (
        ({"nation": "SUD", "days": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"nation": "SUD", "days": "7", "email": "nobody"}, "Enter a valid email address."),
        ({"nation": "NOR", "days": "7"}, "Kingdom of Nordmark already has a player: to replace them"),
        ({"nation": "XXX", "days": "7"}, "XXX is not in this campaign"),
    ):
        response = client.post(INVITE, data)
        assert response.status_code == 400 and said in response.content.decode(), data
    assert not Invitation.objects.exists()


@pytest.mark.parametrize(("role", "status"), [("player", 403), ("rival", 403), ("outsider", 404)])
def test_only_the_gm_makes_or_revokes_a_link(as_role, link, role, status):
    client = as_role(role)
    assert client.post(INVITE, {"nation": "SUD", "days": "7"}).status_code == status
    assert client.post(f"{INVITE}{link.pk}/revoke/").status_code == status
    assert Invitation.objects.count() == 1 and Invitation.objects.get().revoked_at is None


def test_anonymous_is_sent_to_log_in(client, link):
    response = client.post(INVITE, {"nation": "SUD", "days": "7"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("frontend:login"))


def test_the_gm_revokes_a_link_once(client, gm, link):
    client.force_login(gm)
    response = client.post(f"{INVITE}{link.pk}/revoke/", follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Invitation link for Sudrian Empire revoked: it lets no one in."
    ]
    response = client.post(f"{INVITE}{link.pk}/revoke/", follow=True)
    assert [str(m) for m in response.context["messages"]] == [f"invitation link {link.pk} is revoked already"]
    assert client.post(f"{INVITE}99999/revoke/").status_code == 404


def test_an_anonymous_visitor_sees_what_the_link_is_for_and_can_sign_up_or_log_in(client, gm, link):
    page = client.get(f"/join/{link.token}/").content.decode()

    assert "Join The Grenzwald Crisis" in page and "Sudrian Empire" in page and ">gm<" in page
    assert 'id="signup-form"' in page and f'name="next" value="/join/{link.token}/"' in page
    assert f'href="/accounts/login/?next=/join/{link.token}/"' in page
    assert 'id="join-button"' not in page
    response = client.post(f"/join/{link.token}/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert Invitation.objects.get().used_at is None


def test_a_newcomer_signs_up_on_the_page_joins_and_lands_in_the_campaign(client, link, mailoutbox):
    form = {
        "username": "newcomer",
        "email": "newcomer@example.org",
        "password1": "a-long-passphrase-42",
        "password2": "a-long-passphrase-42",
        "next": f"/join/{link.token}/",
    }
    response = client.post(reverse("frontend:signup"), form, follow=True)
    assert 'id="join-button"' in response.content.decode()
    assert "Join as Sudrian Empire" in response.content.decode()

    joined = client.post(f"/join/{link.token}/", follow=True)

    assert joined.redirect_chain[-1][0] == "/c/demo/"
    assert [str(m) for m in joined.context["messages"]] == [
        "Welcome to The Grenzwald Crisis: you play Sudrian Empire."
    ]
    assert Membership.objects.get(user__username="newcomer").nation.code == "SUD"
    # Opening it again, or pressing the button twice, leads back to the campaign.
    again = client.get(f"/join/{link.token}/")
    assert again.status_code == 200 and "You joined through this link" in again.content.decode()
    assert client.post(f"/join/{link.token}/")["Location"] == "/c/demo/"


def test_a_spent_link_says_so_in_words(client, gm, outsider, nations, demo, link):
    client.force_login(outsider)
    revoked = invitation_revoke(
        by=gm, invitation=invitation_create(by=gm, campaign=demo, nation=nations["WES"])
    )
    response = client.get(f"/join/{revoked.token}/")
    assert response.status_code == 410
    assert "The game master revoked this invitation link." in response.content.decode()
    assert 'id="join-button"' not in response.content.decode()

    client.post(f"/join/{link.token}/")
    client.force_login(gm)
    used = client.get(f"/join/{link.token}/")
    assert used.status_code == 410 and "This invitation link has been used" in used.content.decode()


def test_a_member_of_the_campaign_is_told_it_has_a_seat_already(client, player, link):
    client.force_login(player)
    response = client.get(f"/join/{link.token}/")
    assert response.status_code == 409
    assert "You already play Kingdom of Nordmark in this campaign." in response.content.decode()
    assert client.post(f"/join/{link.token}/").status_code == 409
    assert Invitation.objects.get().used_at is None


def test_an_unknown_link_is_a_404(client, outsider):
    client.force_login(outsider)
    assert client.get("/join/no-such-link/").status_code == 404
    assert client.get(f"/join/{'x' * 500}/").status_code == 404


def test_trying_many_links_is_throttled(client, outsider, link):
    client.force_login(outsider)
    for _ in range(int(AcceptThrottle.rate.split("/")[0])):
        client.post("/join/guess/")
    refused = client.post(f"/join/{link.token}/")
    assert refused.status_code == 429 and "Too many invitation links tried" in refused.content.decode()
    assert Invitation.objects.get().used_at is None


def test_the_join_page_speaks_finnish(client, link):
    page = client.get(f"/join/{link.token}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Liity kampanjaan The Grenzwald Crisis" in page and "Uusi täällä? Luo tunnus ja liity" in page
