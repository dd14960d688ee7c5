"""The OpenAPI schema is generated from the code, and its browser works without the internet."""

from __future__ import annotations

import re

from django.contrib.staticfiles import finders
from django.core.management import call_command


def test_it_generates_a_valid_schema_without_warnings(tmp_path) -> None:
    out = tmp_path / "schema.yaml"

    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(out))

    schema = out.read_text()
    for path in (
        "/api/campaigns/{slug}/orders/",
        "/api/campaigns/{slug}/turns/{number}/process/",
        "/api/auth/token/",
    ):
        assert f"{path}:" in schema


def test_it_serves_the_schema_to_anyone(client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert "/api/campaigns/{slug}/stacks/" in response.json()["paths"]


def test_the_api_browser_loads_its_scripts_from_this_server(client) -> None:
    # Swagger UI only: drf-spectacular's Redoc page fetches Google fonts; no internet at run time.
    page = client.get("/api/schema/swagger-ui/").content.decode()

    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    # Its settings come from the page's own address (?script=), not an inline script: the CSP allows none.
    own = "/api/schema/swagger-ui/?script="
    assert own in assets and "<script>" not in page
    assets.remove(own)
    assert len(assets) >= 3
    assert "/static/frontend/swagger_ui.css" in assets
    assets.remove("/static/frontend/swagger_ui.css")
    assert all(a.startswith("/static/drf_spectacular_sidecar/") for a in assets), assets
    assert all(finders.find(a.removeprefix("/static/")) for a in assets)
    assert not re.findall(r"https?://|//cdn|//fonts", page)
    assert client.get(own).status_code == 200
