"""The invitations API (campaign.api_invitations): the GM makes, lists and revokes links; anyone signed in
accepts one, once. Each refusal in the one error envelope with its code and status (404, 409, 410, 429), a
bad body field by field, nothing half-written."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.utils import timezone

from campaign.invitations import invitation_create, invitation_revoke
from campaign.models import Invitation, Membership
from campaign.throttles import AcceptThrottle
from tests.api.conftest import client_for
from tests.errors import codes, errors, said

A = "/api/campaigns/demo"


@pytest.fixture(autouse=True)
def _fresh_counts(settings):
    cache.clear()  # the accept throttle counts in the cache
    settings.IRONFIST_SITE_URL = "https://ironfist.example"
    yield
    cache.clear()


@pytest.fixture
def link(demo, gm, nations):
    return invitation_create(by=gm, campaign=demo, nation=nations["SUD"])


def test_the_gm_makes_a_link_and_lists_every_link_with_its_state(demo, gm, player, nations):
    api = client_for(gm)
    made = api.post(f"{A}/invitations/", {"nation": "SUD", "days": 3}, format="json")

    assert made.status_code == 201, made.content
    body = made.json()
    assert body["nation"] == "SUD" and body["state"] == "open" and len(body["token"]) >= 43
    assert body["url"] == f"https://ironfist.example/join/{body['token']}/"
    invitation = Invitation.objects.get(token=body["token"])
    assert body["expires"] == invitation.expires_at.isoformat().replace("+00:00", "Z")
    assert invitation.expires_at - invitation.created_at == timezone.timedelta(days=3)
    default = api.post(f"{A}/invitations/", {"nation": "WES"}, format="json").json()
    assert Invitation.objects.get(pk=default["id"]).expires_at - invitation.created_at >= timezone.timedelta(
        days=7
    )
    invitation_revoke(by=gm, invitation=invitation)

    listed = api.get(f"{A}/invitations/").json()

    assert [(i["nation"], i["state"]) for i in listed] == [("WES", "open"), ("SUD", "revoked")]


def test_a_link_with_an_address_goes_by_mail(demo, gm, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        made = client_for(gm).post(
            f"{A}/invitations/", {"nation": "SUD", "email": "friend@example.org"}, format="json"
        )
    assert made.status_code == 201 and made.json()["email"] == "friend@example.org"
    [sent] = mailoutbox
    assert sent.to == ["friend@example.org"] and made.json()["url"] in sent.body


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"nation": "SUD", "days": 0}, "days", "min_value"),
        ({"nation": "SUD", "days": 31}, "days", "max_value"),
        ({"nation": "SUD", "days": "٣"}, "days", "invalid"),
        ({"nation": "XXX"}, "nation", "not_in_campaign"),
        ({"nation": "N" * 17}, "nation", "max_length"),
        ({"nation": "SUD", "email": "not an address"}, "email", "invalid"),
        ({"nation": "SUD", "colour": "red"}, "colour", "unknown_field"),
        ({}, "nation", "required"),
        ({"nation": "NOR"}, "nation", "invitation_nation_played"),
    ],
)
def test_a_bad_body_is_refused_field_by_field_and_makes_nothing(demo, gm, player, body, field, code):
    response = client_for(gm).post(f"{A}/invitations/", body, format="json")

    assert response.status_code == (409 if code == "invitation_nation_played" else 400), response.content
    assert [(e.get("field"), e["code"]) for e in errors(response)] == [(field, code)]
    assert not Invitation.objects.exists()


def test_the_gm_revokes_an_open_link_and_only_an_open_one(demo, gm, link):
    api = client_for(gm)
    revoked = api.post(f"{A}/invitations/{link.pk}/revoke/")

    assert revoked.status_code == 200 and revoked.json()["state"] == "revoked"
    again = api.post(f"{A}/invitations/{link.pk}/revoke/")
    assert again.status_code == 409 and codes(again) == ["invitation_not_open"]
    assert said(again)[0][2] == f"invitation link {link.pk} is revoked already"
    assert api.post(f"{A}/invitations/999999/revoke/").status_code == 404


def test_a_signed_in_user_accepts_a_link_and_plays_the_nation(demo, gm, outsider, link):
    accepted = client_for(outsider).post(f"/api/invitations/{link.token}/accept/")

    assert accepted.status_code == 200 and accepted.json() == {"campaign": "demo", "nation": "SUD"}
    seat = client_for(outsider).get(f"{A}/").json()["you"]
    assert seat == {"role": "player", "nation": "SUD"}
    listed = client_for(gm).get(f"{A}/invitations/").json()
    assert [(i["state"], i["used_by"]) for i in listed] == [("used", "outsider")]


def test_a_used_expired_or_revoked_link_is_gone_with_its_code(
    demo, gm, nations, outsider, django_user_model, link
):
    client_for(outsider).post(f"/api/invitations/{link.token}/accept/")
    late = client_for(django_user_model.objects.create_user(username="late", password="late-password-123"))
    made = timezone.now() - timezone.timedelta(days=3)
    old = invitation_create(by=gm, campaign=demo, nation=nations["WES"], days=1, now=lambda: made)
    revoked = invitation_revoke(
        by=gm, invitation=invitation_create(by=gm, campaign=demo, nation=nations["WES"])
    )

    for token, code in (
        (link.token, "invitation_used"),
        (old.token, "invitation_expired"),
        (revoked.token, "invitation_revoked"),
    ):
        response = late.post(f"/api/invitations/{token}/accept/")
        assert response.status_code == 410 and codes(response) == [code], response.content
        assert errors(response)[0]["field"] == "token"
    unknown = late.post("/api/invitations/no-such-link/accept/")
    assert unknown.status_code == 404 and codes(unknown) == ["invitation_unknown"]
    assert late.post(f"/api/invitations/{'x' * 200}/accept/").status_code == 404
    assert Membership.objects.filter(user__username="late").count() == 0


def test_a_member_of_the_campaign_gets_a_conflict(demo, gm, player, link):
    for user, code in ((gm, "invitation_user_runs"), (player, "invitation_user_plays")):
        response = client_for(user).post(f"/api/invitations/{link.token}/accept/")
        assert response.status_code == 409 and codes(response) == [code]
    link.refresh_from_db()
    assert link.used_at is None


def test_accepting_needs_a_login_and_is_rate_limited_per_user(demo, outsider, link):
    assert client_for(None).post(f"/api/invitations/{link.token}/accept/").status_code == 401
    api = client_for(outsider)
    for _ in range(int(AcceptThrottle.rate.split("/")[0])):
        assert api.post("/api/invitations/guess/accept/").status_code == 404

    refused = api.post(f"/api/invitations/{link.token}/accept/")

    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert codes(refused) == ["throttled"]
    link.refresh_from_db()
    assert link.used_at is None


def test_the_web_page_and_the_api_share_one_count(client, demo, outsider, link):
    client.force_login(outsider)
    for _ in range(int(AcceptThrottle.rate.split("/")[0])):
        client.post("/join/no-such-link/")

    assert client_for(outsider).post(f"/api/invitations/{link.token}/accept/").status_code == 429
