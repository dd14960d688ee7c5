"""The REST API under /api/: routes to the views in campaign/api.py, orders/api.py and rules/api.py."""

from django.conf import settings
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from campaign import api as campaign_api
from config.api_auth import TokenView
from orders import api as orders_api
from rules import api as rules_api
from rules import systems_api
from rules.company import api as company_api
from rules.tabletop import api as battles_api
from rules.tabletop import calculator_api
from rules.tabletop import preview_api as battle_preview_api
from rules.tabletop import rounds_api as battle_rounds_api

app_name = "api"


# campaigns/<slug>/companies/<nation>/: a nation's company (company_d20).
company_urls = [
    path("roster/", company_api.Roster.as_view(), name="company-roster"),
    path("events/", company_api.RosterEvents.as_view(), name="company-events"),
    path("orders/", company_api.Orders.as_view(), name="company-orders"),
    path("<str:action>/", company_api.KasarmiAction.as_view(), name="company-action"),
]

# campaigns/<slug>/battles/<pk>/: a company_d20 battle, fought at the table.
table_battle_urls = [
    path("", company_api.BattleDetail.as_view(), name="company-battle"),
    path("rolls/", company_api.BattleRolls.as_view(), name="company-rolls"),
    path("rolls/<int:seq>/<str:mark>/", company_api.BattleRollMark.as_view(), name="company-roll-mark"),
    path("kp/", company_api.BattleKp.as_view(), name="company-kp"),
    path("kp/<str:op>/", company_api.BattleKpOperation.as_view(), name="company-kp-op"),
    path("verify/", company_api.BattleVerify.as_view(), name="company-verify"),
    path("table-turn/", company_api.BattleTableTurn.as_view(), name="company-table-turn"),
    path("result/", company_api.BattleResult.as_view(), name="company-result"),
    path("result/<str:action>/", company_api.BattleResultAction.as_view(), name="company-result-action"),
    path("void/", company_api.BattleVoid.as_view(), name="company-void"),
]

# campaigns/<slug>/turns/<number>/battles/<key>/: a tabletop battle of the turn.
battle_urls = [
    path("", battles_api.BattleDetail.as_view(), name="battle-detail"),
    path("results/", battles_api.BattleResultSave.as_view(), name="battle-result"),
    path(
        "results/<int:version>/<str:action>/",
        battles_api.BattleResultAction.as_view(),
        name="battle-result-action",
    ),
    path("rounds/", battle_rounds_api.BattleRounds.as_view(), name="battle-rounds"),
    path(
        "rounds/<int:sequence>/", battle_rounds_api.BattleRoundCorrect.as_view(), name="battle-round-correct"
    ),
    path("<str:action>/", battles_api.BattleGMAction.as_view(), name="battle-gm-action"),
]

# campaigns/<slug>/turns/<number>/
turn_urls = [
    path("", campaign_api.TurnDetail.as_view(), name="turn-detail"),
    path("status/", rules_api.TurnStatus.as_view(), name="turn-status"),
    path("process/", rules_api.TurnProcess.as_view(), name="turn-process"),
    path("retry/", rules_api.TurnRetry.as_view(), name="turn-retry"),
    path("reports/", rules_api.ReportList.as_view(), name="report-list"),
    path("reports/<int:position>/", rules_api.ReportDetail.as_view(), name="report-detail"),
    path("company-battles/", company_api.TurnBattles.as_view(), name="company-battles"),
    path("company-preview/", company_api.TurnPreview.as_view(), name="company-preview"),
    path("battles/", battles_api.BattleList.as_view(), name="battle-list"),
    path("battles-preview/", battle_preview_api.TurnBattlesPreview.as_view(), name="battles-preview"),
    path("battles/<str:key>/", include(battle_urls)),
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
    path("companies/<str:nation>/", include(company_urls)),
    path("contacts/", company_api.Contacts.as_view(), name="company-contacts"),
    path("map/", company_api.CompanyMap.as_view(), name="company-map"),
    path("battles/<int:pk>/", include(table_battle_urls)),
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
    path("calculator/close-combat/", calculator_api.CloseCombatRound.as_view(), name="close-combat-round"),
    path("systems/", systems_api.SystemList.as_view(), name="system-list"),
    path("systems/<slug:name>/", systems_api.SystemDetail.as_view(), name="system-detail"),
]

if settings.IRONFIST_BENCH:
    from rules.bench.api import PingWrite

    urlpatterns.append(path("bench/ping-write/", PingWrite.as_view(), name="bench-ping-write"))
