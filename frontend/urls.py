"""The pages for players and the GM; the REST API lives under /api/ (config/api_urls.py)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from frontend.views import (
    accounts,
    battle_preview,
    battles,
    calculator,
    company,
    company_gm,
    language,
    player,
    settings,
    sodankaynti,
    turns,
)
from frontend.views.gm import clock, dashboard, diplomacy, inputs, processing, result, roster, system

app_name = "frontend"

urlpatterns = [
    # At Django's default LOGIN_URL, so settings need no entry; after login, the list of campaigns.
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="frontend:login"), name="logout"),
    *accounts.password_urls,
    path("", player.campaign_list, name="home"),
    path("rules/", turns.rules_page, name="rules"),
    path("calculator/", calculator.calculator_page, name="calculator"),
    path("language/", language.language_choose, name="language"),
    path("c/<slug:slug>/", player.campaign_page, name="campaign"),
    path("c/<slug:slug>/orders/", player.order_create, name="order_create"),
    path("c/<slug:slug>/orders/<int:order_id>/", player.order_edit, name="order_edit"),
    path("c/<slug:slug>/orders/<int:order_id>/delete/", player.order_remove, name="order_delete"),
    path("c/<slug:slug>/turns/", turns.turn_list, name="turns"),
    path("c/<slug:slug>/turns/<int:number>/", turns.turn_page, name="turn"),
    path("c/<slug:slug>/turns/<int:number>/battles/", battles.battle_list, name="battles"),
    path("c/<slug:slug>/turns/<int:number>/battles/<str:key>/", battles.battle_page, name="battle"),
    path("c/<slug:slug>/gm/", dashboard.dashboard, name="gm"),
    path("c/<slug:slug>/gm/deadline/", clock.deadline_post, name="gm_deadline"),
    path("c/<slug:slug>/gm/weather/", inputs.weather_post, name="gm_weather"),
    path("c/<slug:slug>/gm/modifiers/", inputs.modifier_post, name="gm_modifier"),
    path("c/<slug:slug>/gm/relations/", diplomacy.relation_post, name="gm_relation"),
    path("c/<slug:slug>/gm/roster/", roster.roster_post, name="gm_roster"),
    path("c/<slug:slug>/gm/system/", system.system_post, name="gm_system"),
    path("c/<slug:slug>/gm/ratings/", sodankaynti.ratings_post, name="gm_ratings"),
    path("c/<slug:slug>/gm/advantages/", sodankaynti.advantages_post, name="gm_advantages"),
    path("c/<slug:slug>/orders/doctrine/", sodankaynti.doctrine_post, name="doctrine_create"),
    path("c/<slug:slug>/orders/ambush/", sodankaynti.ambush_post, name="ambush_create"),
    path("c/<slug:slug>/gm/process/", processing.process_post, name="gm_process"),
    path("c/<slug:slug>/gm/turns/<int:number>/", result.turn_status_page, name="gm_turn"),
    path(
        "c/<slug:slug>/gm/turns/<int:number>/status.json", processing.turn_status_json, name="gm_turn_status"
    ),
    path("c/<slug:slug>/gm/pause/", clock.pause_post, name="gm_pause"),
    path("c/<slug:slug>/gm/resume/", clock.resume_post, name="gm_resume"),
    path("c/<slug:slug>/gm/extend/", clock.extend_post, name="gm_extend"),
    path("c/<slug:slug>/gm/lifecycle/", clock.lifecycle_post, name="gm_lifecycle"),
    path("c/<slug:slug>/gm/assign/", roster.assign_post, name="gm_assign"),
    path("c/<slug:slug>/gm/turns/<int:number>/preview/", result.preview_page, name="gm_preview"),
    path(
        "c/<slug:slug>/gm/turns/<int:number>/battles-preview/",
        battle_preview.battles_preview_page,
        name="gm_battles_preview",
    ),
    path("c/<slug:slug>/gm/turns/<int:number>/publish/", result.publish_post, name="gm_publish"),
    path("c/<slug:slug>/gm/turns/<int:number>/rollback/", result.rollback_post, name="gm_rollback"),
    path("c/<slug:slug>/gm/export.json", result.export_download, name="gm_export"),
    path("c/<slug:slug>/kasarmi/", company.kasarmi_home, name="company_home"),
    path("c/<slug:slug>/kasarmi/<str:nation>/", company.kasarmi_page, name="company_kasarmi"),
    path("c/<slug:slug>/kasarmi/<str:nation>/act/", company.kasarmi_post, name="company_act"),
    path("c/<slug:slug>/kasarmi/<str:nation>/orders/", company.orders_post, name="company_orders"),
    path("c/<slug:slug>/kasarmi/<str:nation>/gm/", company_gm.kasarmi_gm_post, name="company_gm_edit"),
    path("c/<slug:slug>/battles/<int:pk>/", company.battle_page, name="company_battle"),
    path("c/<slug:slug>/battles/<int:pk>/verify/", company.verify_page, name="company_verify"),
    path("settings/", settings.settings_page, name="settings"),
    path("settings/token/", settings.token_post, name="settings_token"),
]
