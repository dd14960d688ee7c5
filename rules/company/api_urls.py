"""company_d20's API routes (COMPANY.md §11.3), under the API's namespace: registered with its pages
(rules/company/pages.py, `ApiUrls`), placed by config/api_urls.py under a campaign, under a turn and
under a battle's address (`campaigns/<slug>/turns/<number>/battles/<id>/`, whose list and detail are
every table system's: rules.table_api)."""

from django.urls import include, path

from campaign.api import api_alias
from rules.company import api

# campaigns/<slug>/companies/<nation>/: a nation's company.
company_urls = [
    path("roster/", api.Roster.as_view(), name="company-roster"),
    path("events/", api.RosterEvents.as_view(), name="company-events"),
    path("orders/", api.Orders.as_view(), name="company-orders"),
    path("<str:action>/", api.KasarmiAction.as_view(), name="company-action"),
]
# campaigns/<slug>/turns/<number>/battles/<id>/: a battle fought at the table.
battle_urls = [
    path("rolls/", api.BattleRolls.as_view(), name="company-rolls"),
    path("rolls/<int:seq>/<str:mark>/", api.BattleRollMark.as_view(), name="company-roll-mark"),
    path("kp/", api.BattleKp.as_view(), name="company-kp"),
    path("kp/<str:op>/", api.BattleKpOperation.as_view(), name="company-kp-op"),
    path("verify/", api.BattleVerify.as_view(), name="company-verify"),
    path("table-turn/", api.BattleTableTurn.as_view(), name="company-table-turn"),
    path("result/", api.BattleResult.as_view(), name="company-result"),
    path("result/<str:action>/", api.BattleResultAction.as_view(), name="company-result-action"),
    path("void/", api.BattleVoid.as_view(), name="company-void"),
]
# campaigns/<slug>/battles/<pk>/: the same by the battle's own id, as before its address.
battle_id_urls = [
    path("", api_alias(api.BattleDetail.as_view()), name="company-battle"),
    *(path(str(p.pattern), api_alias(p.callback), name=f"{p.name}-by-id") for p in battle_urls),
]
# campaigns/<slug>/
campaign_urls = [
    path("companies/<str:nation>/", include(company_urls)),
    path("contacts/", api.Contacts.as_view(), name="company-contacts"),
    path("map/", api.CompanyMap.as_view(), name="company-map"),
    path("battles/<int:pk>/", include(battle_id_urls)),
]
# campaigns/<slug>/turns/<number>/
turn_urls = [
    path("company-battles/", api.TurnBattles.as_view(), name="company-battles"),
    path("company-preview/", api.TurnPreview.as_view(), name="company-preview"),
]
