"""The pages for players and the GM; the REST API lives under /api/ (config/api_urls.py)."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from frontend.systems import system_urls
from frontend.views import (
    accounts,
    battles,
    join,
    language,
    player,
    settings,
    turns,
)
from frontend.views.gm import (
    clock,
    dashboard,
    diplomacy,
    inputs,
    invitations,
    processing,
    result,
    roster,
    system,
)

app_name = "frontend"

# c/<slug>/turns/<number>/battles/<battle>/: a battle fought at the table, of any table system.
battle_urls = [
    path("", battles.battle_page, name="battle"),
    path("deadline/", battles.battle_deadline_post, name="battle_deadline"),
    path("<slug:part>/", battles.battle_part, name="battle_part"),
]

# c/<slug>/turns/<number>/: a turn's reports and its battles.
turn_urls = [
    path("", turns.turn_page, name="turn"),
    path("battles/", battles.battle_list, name="battles"),
    path("battles/<int:battle>/", include(battle_urls)),
    # Before their address, a tabletop battle's page and round were by its key.
    path("battles/<str:key>/", battles.battle_by_key, name="battle_by_key"),
    path("battles/<str:key>/<slug:part>/", battles.battle_by_key, name="battle_part_by_key"),
]

# c/<slug>/gm/turns/<number>/: the GM's view of a turn, its dry run, its result and its rollback.
gm_turn_urls = [
    path("", result.turn_status_page, name="gm_turn"),
    path("status.json", processing.turn_status_json, name="gm_turn_status"),
    path("preview/", result.preview_page, name="gm_preview"),
    path("publish/", result.publish_post, name="gm_publish"),
    path("rollback/", result.rollback_post, name="gm_rollback"),
    path("complete/", result.complete_post, name="gm_complete"),
]

# c/<slug>/gm/: the GM's dashboard and what its forms post to.
gm_urls = [
    path("", dashboard.dashboard, name="gm"),
    path("deadline/", clock.deadline_post, name="gm_deadline"),
    path("weather/", inputs.weather_post, name="gm_weather"),
    path("modifiers/", inputs.modifier_post, name="gm_modifier"),
    path("relations/", diplomacy.relation_post, name="gm_relation"),
    path("roster/", roster.roster_post, name="gm_roster"),
    path("system/", system.system_post, name="gm_system"),
    path("process/", processing.process_post, name="gm_process"),
    path("pause/", clock.pause_post, name="gm_pause"),
    path("resume/", clock.resume_post, name="gm_resume"),
    path("extend/", clock.extend_post, name="gm_extend"),
    path("lifecycle/", clock.lifecycle_post, name="gm_lifecycle"),
    path("assign/", roster.assign_post, name="gm_assign"),
    path("invitations/", invitations.invitation_post, name="gm_invite"),
    path(
        "invitations/<int:invitation_id>/revoke/", invitations.invitation_revoke_post, name="gm_invite_revoke"
    ),
    path("export.json", result.export_download, name="gm_export"),
    path("turns/<int:number>/", include(gm_turn_urls)),
]

# c/<slug>/: a campaign's pages.
campaign_urls = [
    path("", player.campaign_page, name="campaign"),
    path("orders/", player.order_create, name="order_create"),
    path("orders/<int:order_id>/", player.order_edit, name="order_edit"),
    path("orders/<int:order_id>/delete/", player.order_remove, name="order_delete"),
    path("turns/", turns.turn_list, name="turns"),
    path("turns/<int:number>/", include(turn_urls)),
    path("gm/", include(gm_urls)),
    *system_urls(),  # each battle system's own pages (its SystemPages' urls)
]

urlpatterns = [
    # At Django's default LOGIN_URL, so settings need no entry; after login, the list of campaigns.
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="frontend:login"), name="logout"),
    *accounts.password_urls,
    *accounts.signup_urls,
    path("join/<str:token>/", join.join_page, name="join"),
    path("", player.campaign_list, name="home"),
    path("rules/", turns.rules_page, name="rules"),
    path("rules/<slug:system>/", turns.rules_page, name="system_rules"),
    *system_urls(site=True),  # each battle system's own pages outside a campaign
    path("language/", language.language_choose, name="language"),
    path("c/<slug:slug>/", include(campaign_urls)),
    path("settings/", settings.settings_page, name="settings"),
    path("settings/token/", settings.token_post, name="settings_token"),
]
