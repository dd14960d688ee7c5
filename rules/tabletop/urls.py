"""Tabletop's pages, in the frontend's namespace: under a campaign (c/<slug>/) the GM's preview with
hypothetical results; outside any, the close-combat calculator (TABLETOP.md Part B). A battle's page and
its round are at the address of every table battle (frontend.views.battles), as its pages register them
(rules/tabletop/pages.py)."""

from django.urls import path

from rules.tabletop import views_calculator, views_preview

urlpatterns = [
    path(
        "gm/turns/<int:number>/battles-preview/",
        views_preview.battles_preview_page,
        name="gm_battles_preview",
    ),
]
site_urlpatterns = [
    path("calculator/", views_calculator.calculator_page, name="calculator"),
]
