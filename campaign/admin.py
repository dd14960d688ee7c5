from django.contrib import admin, messages
from django.utils.translation import gettext as _

from campaign.models import Border, Campaign, GMModifier, Membership, Nation, Region, Relation, Stack, Turn


class NationInline(admin.TabularInline):
    model = Nation
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "status", "created_at"]
    list_filter = ["status"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [NationInline]

    def has_add_permission(self, request) -> bool:
        # A campaign is its map, nations, borders, units, relations, game master and first turn, checked
        # together by the scenario importer (campaign.services.scenario_import). A bare row added here had
        # none of them: its creator met a 404 and, once made its GM by hand, a dashboard with nothing to do.
        # So the admin adds none, and says where campaigns are made (changelist_view).
        return False

    def changelist_view(self, request, extra_context=None):
        if request.method == "GET":
            self.message_user(
                request,
                _(
                    "Campaigns are not added here: a campaign needs its map, nations and first turn, checked "
                    "together. Make one from a scenario file with “python manage.py import_scenario FILE "
                    "--campaign SLUG”, then give it its game master under Memberships."
                ),
                messages.INFO,
            )
        return super().changelist_view(request, extra_context)


@admin.register(Nation)
class NationAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "campaign", "position"]
    list_filter = ["campaign"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "role", "nation"]
    list_filter = ["campaign", "role"]
    list_select_related = ["user", "campaign", "nation"]


@admin.register(Region)
class RegionAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "campaign", "terrain", "fort", "home", "owner"]
    list_filter = ["campaign", "terrain", "fort"]
    list_select_related = ["campaign", "home", "owner"]
    search_fields = ["code", "name"]


@admin.register(Border)
class BorderAdmin(admin.ModelAdmin):
    list_display = ["__str__", "region_a", "region_b"]
    list_select_related = ["region_a", "region_b"]
    list_filter = ["region_a__campaign"]
    raw_id_fields = ["region_a", "region_b"]


@admin.register(Stack)
class StackAdmin(admin.ModelAdmin):
    list_display = ["region", "nation", "unit_type", "count"]
    list_filter = ["region__campaign", "nation", "unit_type"]
    list_select_related = ["region", "nation"]
    raw_id_fields = ["region"]


@admin.register(Relation)
class RelationAdmin(admin.ModelAdmin):
    list_display = ["nation_a", "nation_b", "kind"]
    list_filter = ["nation_a__campaign", "kind"]
    list_select_related = ["nation_a", "nation_b"]


@admin.register(GMModifier)
class GMModifierAdmin(admin.ModelAdmin):
    list_display = ["turn", "region", "nation", "value", "reason"]
    list_filter = ["turn__campaign"]
    list_select_related = ["turn__campaign", "region", "nation"]
    raw_id_fields = ["turn", "region"]


class GMModifierInline(admin.TabularInline):
    model = GMModifier
    extra = 0
    raw_id_fields = ["region"]


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ["campaign", "number", "status", "deadline", "processed_at"]
    list_filter = ["campaign", "status"]
    inlines = [GMModifierInline]
    readonly_fields = ["seed", "status", "error", "result", "processed_at"]

    def get_readonly_fields(self, request, obj=None):
        # Processed history is a record: once a turn is resolved nothing on it changes.
        if obj is not None and obj.status == Turn.Status.RESOLVED:
            return [f.name for f in Turn._meta.fields]
        return self.readonly_fields

    def has_delete_permission(self, request, obj=None):
        return obj is None or obj.status != Turn.Status.RESOLVED
