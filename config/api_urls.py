"""The REST API under /api/: routes to the views in campaign/api.py, orders/api.py and rules/api.py."""

from django.conf import settings
from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView

from campaign import api as campaign_api
from config.api_auth import TokenView
from orders import api as orders_api
from rules import api as rules_api
from rules import calculator_api

app_name = "api"


campaign = "campaigns/<slug:slug>/"
turn = f"{campaign}turns/<int:number>/"

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path(
        "schema/swagger-ui/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="frontend/api/swagger_ui.html"
        ),
        name="swagger-ui",
    ),
    path("campaigns/", campaign_api.CampaignList.as_view(), name="campaign-list"),
    path(campaign, campaign_api.CampaignDetail.as_view(), name="campaign-detail"),
    path(f"{campaign}regions/", campaign_api.RegionList.as_view(), name="region-list"),
    path(f"{campaign}regions/<str:code>/", campaign_api.RegionDetail.as_view(), name="region-detail"),
    path(f"{campaign}borders/", campaign_api.BorderList.as_view(), name="border-list"),
    path(f"{campaign}stacks/", campaign_api.StackList.as_view(), name="stack-list"),
    path(f"{campaign}orders/", orders_api.OrderList.as_view(), name="order-list"),
    path(f"{campaign}orders/<int:pk>/", orders_api.OrderDetail.as_view(), name="order-detail"),
    path(f"{campaign}turns/", campaign_api.TurnList.as_view(), name="turn-list"),
    path(turn, campaign_api.TurnDetail.as_view(), name="turn-detail"),
    path(f"{turn}status/", rules_api.TurnStatus.as_view(), name="turn-status"),
    path(f"{turn}process/", rules_api.TurnProcess.as_view(), name="turn-process"),
    path(f"{turn}retry/", rules_api.TurnRetry.as_view(), name="turn-retry"),
    path(f"{turn}reports/", rules_api.ReportList.as_view(), name="report-list"),
    path(f"{turn}reports/<int:position>/", rules_api.ReportDetail.as_view(), name="report-detail"),
    path("calculator/close-combat/", calculator_api.CloseCombatRound.as_view(), name="close-combat-round"),
]

if settings.IRONFIST_BENCH:
    from config.api_bench import PingWrite

    urlpatterns.append(path("bench/ping-write/", PingWrite.as_view(), name="bench-ping-write"))
