"""The pages for players and the GM; the REST API lives under /api/ (config/api_urls.py)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from frontend.views import gm, language, player, settings, turns

app_name = "frontend"

urlpatterns = [
    # At Django's default LOGIN_URL, so settings need no entry; after login, the list of campaigns.
    path("accounts/login/", auth_views.LoginView.as_view(next_page="frontend:home"), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="frontend:login"), name="logout"),
    path("", player.campaign_list, name="home"),
    path("rules/", turns.rules_page, name="rules"),
    path("language/", language.language_choose, name="language"),
    path("c/<slug:slug>/", player.campaign_page, name="campaign"),
    path("c/<slug:slug>/orders/", player.order_create, name="order_create"),
    path("c/<slug:slug>/orders/<int:order_id>/", player.order_edit, name="order_edit"),
    path("c/<slug:slug>/orders/<int:order_id>/delete/", player.order_remove, name="order_delete"),
    path("c/<slug:slug>/turns/", turns.turn_list, name="turns"),
    path("c/<slug:slug>/turns/<int:number>/", turns.turn_page, name="turn"),
    path("c/<slug:slug>/gm/", gm.dashboard, name="gm"),
    path("c/<slug:slug>/gm/deadline/", gm.deadline_post, name="gm_deadline"),
    path("c/<slug:slug>/gm/weather/", gm.weather_post, name="gm_weather"),
    path("c/<slug:slug>/gm/modifiers/", gm.modifier_post, name="gm_modifier"),
    path("c/<slug:slug>/gm/relations/", gm.relation_post, name="gm_relation"),
    path("c/<slug:slug>/gm/roster/", gm.roster_post, name="gm_roster"),
    path("c/<slug:slug>/gm/system/", gm.system_post, name="gm_system"),
    path("c/<slug:slug>/gm/process/", gm.process_post, name="gm_process"),
    path("c/<slug:slug>/gm/turns/<int:number>/", gm.turn_status_page, name="gm_turn"),
    path("c/<slug:slug>/gm/turns/<int:number>/status.json", gm.turn_status_json, name="gm_turn_status"),
    path("c/<slug:slug>/gm/pause/", gm.pause_post, name="gm_pause"),
    path("c/<slug:slug>/gm/resume/", gm.resume_post, name="gm_resume"),
    path("c/<slug:slug>/gm/extend/", gm.extend_post, name="gm_extend"),
    path("c/<slug:slug>/gm/lifecycle/", gm.lifecycle_post, name="gm_lifecycle"),
    path("c/<slug:slug>/gm/assign/", gm.assign_post, name="gm_assign"),
    path("c/<slug:slug>/gm/turns/<int:number>/preview/", gm.preview_page, name="gm_preview"),
    path("c/<slug:slug>/gm/turns/<int:number>/publish/", gm.publish_post, name="gm_publish"),
    path("c/<slug:slug>/gm/turns/<int:number>/rollback/", gm.rollback_post, name="gm_rollback"),
    path("c/<slug:slug>/gm/export.json", gm.export_download, name="gm_export"),
    path("settings/", settings.settings_page, name="settings"),
]
