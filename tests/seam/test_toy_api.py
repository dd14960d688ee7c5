"""A system's own API routes come from its registry entry alone (frontend.systems.ApiUrls): a toy system's
route, registered by the test, is served under a campaign and a turn through the API's own urlconf, named
in its namespace; unregistered, it is gone. No product file names it."""

from __future__ import annotations

import importlib

from django.urls import clear_url_caches, path, reverse
from rest_framework.response import Response
from rest_framework.views import APIView

from frontend.systems import ApiUrls, SystemPages, pages_register, pages_unregister
from tests.api.conftest import client_for


class Muster(APIView):
    def get(self, request, slug, number=None):
        return Response({"muster": slug, "turn": number})


def _urlconf_again() -> None:
    """The API's routes as the registry has them now (a urlconf reads them once, as the server starts)."""
    import config.api_urls
    import config.urls

    importlib.reload(config.api_urls)
    importlib.reload(config.urls)  # its include() keeps the API's resolver, routes and all
    clear_url_caches()


def test_a_toy_systems_api_routes_come_from_its_registry_entry(demo, gm) -> None:
    routes = ApiUrls(
        campaign=(path("muster/", Muster.as_view(), name="toy-muster"),),
        turn=(path("muster/", Muster.as_view(), name="toy-turn-muster"),),
    )
    pages_register(SystemPages("api_toy", api_urls=routes))
    try:
        _urlconf_again()
        client = client_for(gm)
        assert client.get("/api/campaigns/demo/muster/").json() == {"muster": "demo", "turn": None}
        assert client.get("/api/campaigns/demo/turns/1/muster/").json() == {"muster": "demo", "turn": 1}
        assert reverse("api:toy-muster", kwargs={"slug": "demo"}) == "/api/campaigns/demo/muster/"
    finally:
        pages_unregister("api_toy")
        _urlconf_again()

    assert client_for(gm).get("/api/campaigns/demo/muster/").status_code == 404
