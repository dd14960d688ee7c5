"""tabletop's API routes (TABLETOP.md A12, B9), under the API's namespace: registered with its pages
(rules/tabletop/pages.py, `ApiUrls`), placed by config/api_urls.py under a turn and at the site's top."""

from django.urls import include, path

from rules.tabletop import api, calculator_api, preview_api, rounds_api

# campaigns/<slug>/turns/<number>/battles/<key>/: a battle of the turn.
battle_urls = [
    path("", api.BattleDetail.as_view(), name="battle-detail"),
    path("results/", api.BattleResultSave.as_view(), name="battle-result"),
    path(
        "results/<int:version>/<str:action>/", api.BattleResultAction.as_view(), name="battle-result-action"
    ),
    path("rounds/", rounds_api.BattleRounds.as_view(), name="battle-rounds"),
    path("rounds/<int:sequence>/", rounds_api.BattleRoundCorrect.as_view(), name="battle-round-correct"),
    path("<str:action>/", api.BattleGMAction.as_view(), name="battle-gm-action"),
]

# campaigns/<slug>/turns/<number>/
turn_urls = [
    path("battles/", api.BattleList.as_view(), name="battle-list"),
    path("battles-preview/", preview_api.TurnBattlesPreview.as_view(), name="battles-preview"),
    path("battles/<str:key>/", include(battle_urls)),
]

# At the API's top: the close-combat round calculator, outside any campaign (B).
site_urls = [
    path("calculator/close-combat/", calculator_api.CloseCombatRound.as_view(), name="close-combat-round"),
]
