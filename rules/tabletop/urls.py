"""Tabletop's pages, in the frontend's namespace: under a campaign (c/<slug>/) the turn's battles, a battle's
page and its close-combat round, and the GM's preview with hypothetical results; outside any, the
close-combat calculator (TABLETOP.md Part B)."""

from django.urls import path

from rules.tabletop import views, views_calculator, views_preview, views_rounds

urlpatterns = [
    path("turns/<int:number>/battles/", views.battle_list, name="battles"),
    path("turns/<int:number>/battles/<str:key>/", views.battle_page, name="battle"),
    path("turns/<int:number>/battles/<str:key>/round/", views_rounds.battle_round_page, name="battle_round"),
    path(
        "gm/turns/<int:number>/battles-preview/",
        views_preview.battles_preview_page,
        name="gm_battles_preview",
    ),
]

site_urlpatterns = [
    path("calculator/", views_calculator.calculator_page, name="calculator"),
]
