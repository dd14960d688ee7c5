"""Sodankäynti's pages under a campaign (c/<slug>/), in the frontend's namespace: the GM's ratings and
advantages, and a player's doctrine and ambush orders (its SystemPages' `urls`)."""

from django.urls import path

from rules.sodankaynti import views

urlpatterns = [
    path("gm/ratings/", views.ratings_post, name="gm_ratings"),
    path("gm/advantages/", views.advantages_post, name="gm_advantages"),
    path("orders/doctrine/", views.doctrine_post, name="doctrine_create"),
    path("orders/ambush/", views.ambush_post, name="ambush_create"),
]
