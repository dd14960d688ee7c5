"""A Content-Security-Policy on every page, that the pages keep: no inline script, no event handler in an
attribute, scripts and styles only from this server's own files."""

from __future__ import annotations

import re

import pytest

PAGES = [
    ("anonymous", "/accounts/login/"),
    ("player", "/"),
    ("player", "/c/demo/"),
    ("player", "/c/demo/turns/"),
    ("player", "/c/demo/turns/1/"),
    ("player", "/settings/"),
    ("player", "/rules/"),
    ("gm", "/c/demo/gm/"),
    ("gm", "/c/demo/gm/turns/1/"),
    ("gm", "/c/demo/gm/turns/2/preview/"),
    ("anonymous", "/api/schema/swagger-ui/"),
]


def test_every_page_sends_a_policy_that_forbids_inline_script(client, db) -> None:
    policy = client.get("/accounts/login/")["Content-Security-Policy"]

    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    assert "unsafe" not in directives["style-src"]


@pytest.mark.parametrize("role, url", PAGES)
def test_the_page_keeps_to_it(as_role, conquest_played, admin_client, role, url) -> None:
    response = as_role(role).get(url)

    assert response.status_code == 200, url
    assert "Content-Security-Policy" in response
    html = response.content.decode()
    # A JSON data block (json_script) is data the policy never runs; any other script must be a file.
    inline = [
        s for s in re.findall(r"<script\b([^>]*)>", html) if "src=" not in s and "application/json" not in s
    ]
    assert inline == [], url
    assert not re.search(r"\son[a-z]+\s*=", html), "an event handler in an attribute"
    assert not re.search(r"href\s*=\s*[\"']javascript:", html)
    assert "<style" not in html


def test_the_admin_keeps_to_it(admin_client) -> None:
    html = admin_client.get("/admin/").content.decode()

    assert [s for s in re.findall(r"<script\b([^>]*)>", html) if "src=" not in s and "json" not in s] == []
