"""Mail settings come from the environment: the console by default, SMTP from one URL, loud on bad values."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_email
from tests.test_settings import PRODUCTION, run

SHOW = (
    "from django.conf import settings as s; "
    "print(s.EMAIL_BACKEND, getattr(s, 'EMAIL_HOST', '-'), getattr(s, 'EMAIL_PORT', '-'), "
    "getattr(s, 'EMAIL_USE_TLS', '-'), s.DEFAULT_FROM_EMAIL)"
)


def test_it_prints_mail_to_the_console_by_default_and_uses_smtp_when_given_a_server():
    default = run(SHOW, **PRODUCTION)
    assert default.stdout.split()[0] == "django.core.mail.backends.console.EmailBackend", default.stderr
    smtp = run(SHOW, **PRODUCTION, EMAIL_HOST="mail.example.org", DEFAULT_FROM_EMAIL="gm@example.org")
    assert smtp.stdout.split() == [
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.org",
        "587",
        "True",
        "gm@example.org",
    ], smtp.stderr


def test_it_reads_the_smtp_server_from_one_url(monkeypatch):
    monkeypatch.setenv("EMAIL_URL", "smtps://iron%40example.org:p%23ss@mail.example.org")
    assert env_email("EMAIL_URL") == {
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 465,
        "EMAIL_HOST_USER": "iron@example.org",
        "EMAIL_HOST_PASSWORD": "p#ss",
        "EMAIL_USE_SSL": True,
        "EMAIL_USE_TLS": False,
    }
    monkeypatch.setenv("EMAIL_URL", "smtp://mail.example.org:2525?tls=false")
    assert env_email("EMAIL_URL")["EMAIL_PORT"] == 2525
    assert env_email("EMAIL_URL")["EMAIL_USE_TLS"] is False


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mail.example.org", "EMAIL_URL: expected a URL starting with smtp or smtps://"),
        ("smtp://mail.example.org:tls", "EMAIL_URL: the port must be a whole number"),
        ("smtp://mail.example.org?tls=maybe", "EMAIL_URL: ?tls= expects true or false"),
    ],
)
def test_it_fails_loudly_on_a_bad_mail_url(monkeypatch, url, message):
    monkeypatch.setenv("EMAIL_URL", url)
    with pytest.raises(ImproperlyConfigured, match=message.replace("?", r"\?")):
        env_email("EMAIL_URL")


def test_it_refuses_tls_and_ssl_at_once():
    result = run("pass", **PRODUCTION, EMAIL_HOST="mail.example.org", EMAIL_USE_SSL="true")
    assert "EMAIL_USE_TLS and EMAIL_USE_SSL: choose one" in result.stderr
