"""Signing up (frontend.views.accounts, campaign.accounts): a name, an address and a password the site's
validators accept; logged in at once; the address is the account's only once its link is opened, so no mail
reaches an unconfirmed account, which is told so on its home page. Sign-ups are throttled by address, and
the confirmation mails by user."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.urls import reverse

from campaign.accounts import email_confirm_token
from campaign.throttles import ConfirmMailThrottle, SignUpThrottle

SIGNUP = reverse("frontend:signup")
HOME = reverse("frontend:home")
LINK = re.compile(r"http://testserver(/accounts/confirm/[^/\s]+/)")


@pytest.fixture(autouse=True)
def _fresh_counts(settings):
    """Each test counts its own sign-ups (the throttles count in the cache); links lead to the test client."""
    cache.clear()
    settings.IRONFIST_SITE_URL = "http://testserver"
    yield
    cache.clear()
    from django.utils import translation

    translation.activate("en")


def _form(username="newcomer", email="newcomer@example.org", password="a-long-passphrase-42", **more):
    return {"username": username, "email": email, "password1": password, "password2": password, **more}


def _link(mail) -> str:
    [found] = LINK.findall(mail.body)
    assert f'href="http://testserver{found}"' in mail.alternatives[0][0]
    return found


def test_it_signs_up_logs_in_and_mails_the_link_that_confirms_the_address(client, db, mailoutbox):
    response = client.post(SIGNUP, _form())

    assert response.status_code == 302 and response["Location"] == HOME
    user = get_user_model().objects.get(username="newcomer")
    assert user.check_password("a-long-passphrase-42")
    assert user.email == "", "the address is the account's once confirmed"
    assert int(client.session["_auth_user_id"]) == user.pk
    [sent] = mailoutbox
    assert sent.to == ["newcomer@example.org"] and sent.subject == "[Iron Fist] Confirm your email address"
    page = client.get(HOME).content.decode()
    assert "A link to confirm your address is on its way to newcomer@example.org" in page
    assert 'id="confirm-email"' in page and "Confirm your email address: a link is on its way" in page

    confirmed = client.get(_link(sent))

    assert confirmed.status_code == 200 and "Mail about your campaigns goes to newcomer@example.org" in (
        confirmed.content.decode()
    )
    user.refresh_from_db()
    assert user.email == "newcomer@example.org"
    assert 'id="confirm-email"' not in client.get(HOME).content.decode()
    assert client.get(_link(sent)).status_code == 200, "opening it again changes nothing"


def test_a_new_account_gets_no_mail_until_its_address_is_confirmed(client, demo, gm, nations, mailoutbox):
    from campaign.invitations import invitation_accept, invitation_create
    from frontend.mail.turns import turn_reminders_send

    client.post(SIGNUP, _form())
    user = get_user_model().objects.get(username="newcomer")
    invitation_accept(user=user, token=invitation_create(by=gm, campaign=demo, nation=nations["SUD"]).token)
    [confirmation] = mailoutbox
    turn = demo.turns.get(number=1)

    assert turn_reminders_send(turn_id=turn.pk) == 0
    client.get(_link(confirmation))
    assert turn_reminders_send(turn_id=turn.pk) == 1
    assert mailoutbox[-1].to == ["newcomer@example.org"]


@pytest.mark.parametrize(
    ("form", "field"),
    [
        (_form(password="short"), "password2"),
        (_form(password="newcomer1234"), "password2"),  # too like the name
        (_form(password="password123"), "password2"),  # too common
        (_form(password2="another-long-phrase-42"), "password2"),
        (_form(username="gm"), "username"),
        (_form(username="GM"), "username"),  # names differ in more than case
        (_form(username="no spaces please"), "username"),
        (_form(email="not an address"), "email"),
        (_form(email="gm@example.org"), "email"),  # another account's
        (_form(username="x" * 151), "username"),
        (_form(password="p" * 5000), "password1"),
    ],
)
def test_it_refuses_a_bad_form_field_by_field_and_makes_nothing(client, gm, form, field, mailoutbox):
    gm.email = "gm@example.org"
    gm.save()
    before = get_user_model().objects.count()

    response = client.post(SIGNUP, form)

    assert response.status_code == 400
    assert response.context["form"].errors.get(field), response.context["form"].errors
    assert get_user_model().objects.count() == before and mailoutbox == []
    assert "_auth_user_id" not in client.session


def test_sign_up_goes_on_to_the_page_it_was_asked_from_on_this_site_only(client, db):
    response = client.post(SIGNUP, _form(next="/join/abc/"))
    assert response["Location"] == "/join/abc/"
    client.logout()
    response = client.post(
        SIGNUP, _form(username="second", email="second@example.org", next="https://evil.example/")
    )
    assert response["Location"] == HOME


def test_a_signed_in_user_is_sent_on_from_the_sign_up_page(client, player):
    client.force_login(player)
    assert client.get(SIGNUP)["Location"] == HOME
    assert client.get(SIGNUP + "?next=/settings/")["Location"] == "/settings/"


def test_the_login_page_links_to_sign_up_keeping_where_to_go(client, db):
    page = client.get(reverse("frontend:login") + "?next=/join/abc/").content.decode()
    assert f'href="{SIGNUP}?next=/join/abc/"' in page
    signup = client.get(SIGNUP + "?next=/join/abc/").content.decode()
    assert 'name="next" value="/join/abc/"' in signup


def test_sign_ups_are_throttled_by_address_and_say_when_to_try_again(client, db):
    limit = int(SignUpThrottle.rate.split("/")[0])
    for n in range(limit):
        client.post(SIGNUP, _form(username=f"user{n}", password="short"), REMOTE_ADDR="10.0.0.7")

    refused = client.post(SIGNUP, _form(), REMOTE_ADDR="10.0.0.7")

    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many sign-ups from this address. Try again in" in refused.content.decode()
    assert not get_user_model().objects.filter(username="newcomer").exists()
    # A player behind another address is not touched; a forged X-Forwarded-For changes nothing.
    forged = client.post(SIGNUP, _form(), REMOTE_ADDR="10.0.0.7", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert forged.status_code == 429
    assert client.post(SIGNUP, _form(), REMOTE_ADDR="10.0.0.8").status_code == 302


def test_a_link_too_old_tampered_or_for_an_address_since_changed_is_refused(client, db, monkeypatch):
    user = get_user_model().objects.create_user(username="newcomer", password="a-long-passphrase-42")
    real_time = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real_time() - 4 * 24 * 3600)
    old = email_confirm_token(user=user, email="old@example.org")
    monkeypatch.setattr(signing.time, "time", real_time)
    fresh = email_confirm_token(user=user, email="fresh@example.org")
    other = email_confirm_token(user=user, email="other@example.org")

    for token, said in (
        (old, "This confirmation link is not valid"),
        (fresh[:-3] + "abc", "This confirmation link is not valid"),
    ):
        response = client.get(reverse("frontend:email_confirm", args=[token]))
        assert response.status_code == 400 and said in response.content.decode()
    assert client.get(reverse("frontend:email_confirm", args=[fresh])).status_code == 200
    stale = client.get(reverse("frontend:email_confirm", args=[other]))
    assert stale.status_code == 400 and "no longer waits for" in stale.content.decode()
    user.refresh_from_db()
    assert user.email == "fresh@example.org"


def test_an_address_another_account_confirmed_meanwhile_is_refused(client, db):
    User = get_user_model()
    user = User.objects.create_user(username="newcomer", password="a-long-passphrase-42")
    token = email_confirm_token(user=user, email="shared@example.org")
    User.objects.create_user(username="quicker", password="a-long-passphrase-42", email="Shared@Example.org")

    response = client.get(reverse("frontend:email_confirm", args=[token]))

    assert (
        response.status_code == 400
        and "Another account already uses this address" in response.content.decode()
    )
    user.refresh_from_db()
    assert user.email == ""


def test_the_home_page_sends_the_link_again_a_few_times_an_hour(client, player, gm, mailoutbox):
    gm.email = "gm@example.org"
    gm.save()
    client.force_login(player)
    page = client.get(HOME).content.decode()
    assert "Your account has no confirmed email address." in page
    again = reverse("frontend:email_confirm_again")

    bad = client.post(again, {"email": "bad"}, follow=True)
    assert [str(m) for m in bad.context["messages"]] == ["Enter a valid email address."]
    taken = client.post(again, {"email": "GM@example.org"}, follow=True)
    assert [str(m) for m in taken.context["messages"]] == [
        "Another account already uses this address: log in to it, or reset its password."
    ]
    for n in range(int(ConfirmMailThrottle.rate.split("/")[0]) - 2):
        assert client.post(again, {"email": f"nor{n}@example.org"})["Location"] == HOME
    refused = client.post(again, {"email": "nor@example.org"})

    assert refused.status_code == 429 and len(mailoutbox) == 3
    assert "Too many confirmation mails asked for" in refused.content.decode()
    client.get(_link(mailoutbox[-1]))
    player.refresh_from_db()
    assert player.email == "nor2@example.org"


def test_the_sign_up_page_and_its_mail_speak_finnish_to_a_finnish_browser(client, db, mailoutbox):
    page = client.get(SIGNUP, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Rekisteröidy" in page and "Salasana uudelleen" in page

    client.post(SIGNUP, _form(), HTTP_ACCEPT_LANGUAGE="fi")

    [sent] = mailoutbox
    assert sent.subject == "[Iron Fist] Vahvista sähköpostiosoitteesi"
    assert "Vahvista osoite avaamalla tämä linkki (se toimii 3 päivää)" in sent.body
