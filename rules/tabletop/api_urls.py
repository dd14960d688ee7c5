"""tabletop's API routes (TABLETOP.md A12, B9), under the API's namespace: registered with its pages
(rules/tabletop/pages.py, `ApiUrls`), placed by config/api_urls.py under a battle's address
(`campaigns/<slug>/turns/<number>/battles/<id>/`, whose list and detail are every table system's:
rules.table_api), under a turn and at the site's top."""

from django.urls import include, path, re_path

from campaign.api import api_alias
from rules.tabletop import api, calculator_api, preview_api, rounds_api

# A battle's results and rounds, and the GM's actions on it, under its address and its key.
battle_actions = [
    path("results/", api.BattleResultSave.as_view(), name="battle-result"),
    path(
        "results/<int:version>/<str:action>/", api.BattleResultAction.as_view(), name="battle-result-action"
    ),
    path("rounds/", rounds_api.BattleRounds.as_view(), name="battle-rounds"),
    path("rounds/<int:sequence>/", rounds_api.BattleRoundCorrect.as_view(), name="battle-round-correct"),
]
# campaigns/<slug>/turns/<number>/battles/<id>/: a tabletop battle.
battle_urls = [
    *battle_actions,
    re_path(
        rf"^(?P<action>{'|'.join(api.GM_ACTIONS)})/$", api.BattleGMAction.as_view(), name="battle-gm-action"
    ),
]
# campaigns/<slug>/turns/<number>/battles/<key>/: the same by the battle's key, as before its address.
battle_key_urls = [
    path("", api_alias(api.BattleDetail.as_view()), name="battle-by-key"),
    *(path(str(p.pattern), api_alias(p.callback), name=f"{p.name}-by-key") for p in battle_actions),
    path("<str:action>/", api_alias(api.BattleGMAction.as_view()), name="battle-gm-action-by-key"),
]
# campaigns/<slug>/turns/<number>/
turn_urls = [
    path("battles-preview/", preview_api.TurnBattlesPreview.as_view(), name="battles-preview"),
    path("battles/<str:key>/", include(battle_key_urls)),
]
# At the API's top: the close-combat round calculator, outside any campaign (B).
site_urls = [
    path("calculator/close-combat/", calculator_api.CloseCombatRound.as_view(), name="close-combat-round"),
]
