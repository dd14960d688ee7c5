"""The REST API under /api/: routes to the views in campaign/api.py, orders/api.py, rules/api.py and
rules/table_api.py (the battles fought at the table), and each battle system's own routes, from its
registry entry (frontend.systems.ApiUrls), under a campaign, a turn, a table battle or at the top."""

from django.conf import settings
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from campaign import api as campaign_api
from campaign import api_invitations
from config.api_auth import TokenView
from frontend.systems import system_api_urls
from orders import api as orders_api
from rules import api as rules_api
from rules import systems_api, table_api

app_name = "api"


# campaigns/<slug>/turns/<number>/battles/<battle>/: a battle fought at the table, of any table system; under
# it, each system's own routes.
battle_urls = [
    path("", table_api.TableBattleDetail.as_view(), name="battle-detail"),
    path("deadline/", table_api.TableBattleDeadline.as_view(), name="battle-deadline"),
    *system_api_urls("battle"),
]

# campaigns/<slug>/turns/<number>/
turn_urls = [
    path("", campaign_api.TurnDetail.as_view(), name="turn-detail"),
    path("status/", rules_api.TurnStatus.as_view(), name="turn-status"),
    path("process/", rules_api.TurnProcess.as_view(), name="turn-process"),
    path("retry/", rules_api.TurnRetry.as_view(), name="turn-retry"),
    path("reports/", rules_api.ReportList.as_view(), name="report-list"),
    path("reports/<int:position>/", rules_api.ReportDetail.as_view(), name="report-detail"),
    path("battles/", table_api.TableBattleList.as_view(), name="battle-list"),
    path("battles/<int:battle>/", include(battle_urls)),
    *system_api_urls("turn"),
]

# campaigns/<slug>/
campaign_urls = [
    path("", campaign_api.CampaignDetail.as_view(), name="campaign-detail"),
    path("regions/", campaign_api.RegionList.as_view(), name="region-list"),
    path("regions/<str:code>/", campaign_api.RegionDetail.as_view(), name="region-detail"),
    path("borders/", campaign_api.BorderList.as_view(), name="border-list"),
    path("stacks/", campaign_api.StackList.as_view(), name="stack-list"),
    path("orders/", orders_api.OrderList.as_view(), name="order-list"),
    path("orders/<int:pk>/", orders_api.OrderDetail.as_view(), name="order-detail"),
    path("turns/", campaign_api.TurnList.as_view(), name="turn-list"),
    path("turns/<int:number>/", include(turn_urls)),
    path("invitations/", api_invitations.InvitationList.as_view(), name="invitation-list"),
    path(
        "invitations/<int:pk>/revoke/", api_invitations.InvitationRevoke.as_view(), name="invitation-revoke"
    ),
    *system_api_urls("campaign"),
]

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path(
        "schema/swagger-ui/",
        # A page for people, not an endpoint: OPTIONS is not allowed (it has no description of itself).
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="frontend/api/swagger_ui.html", metadata_class=None
        ),
        name="swagger-ui",
    ),
    path("campaigns/", campaign_api.CampaignList.as_view(), name="campaign-list"),
    path("campaigns/<slug:slug>/", include(campaign_urls)),
    path(
        "invitations/<slug:token>/accept/",
        api_invitations.InvitationAccept.as_view(),
        name="invitation-accept",
    ),
    *system_api_urls("site"),
    path("systems/", systems_api.SystemList.as_view(), name="system-list"),
    path("systems/<slug:name>/", systems_api.SystemDetail.as_view(), name="system-detail"),
]

if settings.IRONFIST_BENCH:
    from rules.bench.api import PingWrite

    urlpatterns.append(path("bench/ping-write/", PingWrite.as_view(), name="bench-ping-write"))
