"""The REST API under /api/: routes to the views in campaign/api.py, orders/api.py and rules/api.py."""

from django.conf import settings
from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView

from campaign import api as campaign_api
from config.api_auth import TokenView
from orders import api as orders_api
from rules import api as rules_api
from rules import battle_preview_api, battle_rounds_api, battles_api, calculator_api
from rules.company import api as company_api

app_name = "api"


campaign = "campaigns/<slug:slug>/"
turn = f"{campaign}turns/<int:number>/"
company = f"{campaign}companies/<str:nation>/"  # a nation's company (company_d20)
table_battle = f"{campaign}battles/<int:pk>/"  # a company_d20 battle, fought at the table
battle = f"{turn}battles/<str:key>/"  # a tabletop battle of the turn

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
    path(f"{company}roster/", company_api.Roster.as_view(), name="company-roster"),
    path(f"{company}events/", company_api.RosterEvents.as_view(), name="company-events"),
    path(f"{company}orders/", company_api.Orders.as_view(), name="company-orders"),
    path(f"{company}<str:action>/", company_api.KasarmiAction.as_view(), name="company-action"),
    path(f"{campaign}contacts/", company_api.Contacts.as_view(), name="company-contacts"),
    path(f"{campaign}map/", company_api.CompanyMap.as_view(), name="company-map"),
    path(f"{turn}company-battles/", company_api.TurnBattles.as_view(), name="company-battles"),
    path(f"{turn}company-preview/", company_api.TurnPreview.as_view(), name="company-preview"),
    path(f"{campaign}battles/<int:pk>/", company_api.BattleDetail.as_view(), name="company-battle"),
    path(f"{table_battle}rolls/", company_api.BattleRolls.as_view(), name="company-rolls"),
    path(
        f"{table_battle}rolls/<int:seq>/<str:mark>/",
        company_api.BattleRollMark.as_view(),
        name="company-roll-mark",
    ),
    path(f"{table_battle}kp/", company_api.BattleKp.as_view(), name="company-kp"),
    path(f"{table_battle}kp/<str:op>/", company_api.BattleKpOperation.as_view(), name="company-kp-op"),
    path(f"{table_battle}verify/", company_api.BattleVerify.as_view(), name="company-verify"),
    path(f"{table_battle}table-turn/", company_api.BattleTableTurn.as_view(), name="company-table-turn"),
    path(f"{table_battle}result/", company_api.BattleResult.as_view(), name="company-result"),
    path(
        f"{table_battle}result/<str:action>/",
        company_api.BattleResultAction.as_view(),
        name="company-result-action",
    ),
    path(f"{table_battle}void/", company_api.BattleVoid.as_view(), name="company-void"),
    path(f"{turn}battles/", battles_api.BattleList.as_view(), name="battle-list"),
    path(
        f"{turn}battles-preview/",
        battle_preview_api.TurnBattlesPreview.as_view(),
        name="battles-preview",
    ),
    path(f"{turn}battles/<str:key>/", battles_api.BattleDetail.as_view(), name="battle-detail"),
    path(f"{battle}results/", battles_api.BattleResultSave.as_view(), name="battle-result"),
    path(
        f"{battle}results/<int:version>/<str:action>/",
        battles_api.BattleResultAction.as_view(),
        name="battle-result-action",
    ),
    path(f"{battle}rounds/", battle_rounds_api.BattleRounds.as_view(), name="battle-rounds"),
    path(
        f"{battle}rounds/<int:sequence>/",
        battle_rounds_api.BattleRoundCorrect.as_view(),
        name="battle-round-correct",
    ),
    path(f"{battle}<str:action>/", battles_api.BattleGMAction.as_view(), name="battle-gm-action"),
    path("calculator/close-combat/", calculator_api.CloseCombatRound.as_view(), name="close-combat-round"),
]

if settings.IRONFIST_BENCH:
    from config.api_bench import PingWrite

    urlpatterns.append(path("bench/ping-write/", PingWrite.as_view(), name="bench-ping-write"))
