from django.contrib import admin

from rules.models import Report


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """Reports are what the engine wrote: read-only."""

    list_display = ["turn", "position", "kind", "region", "conquest"]
    list_filter = ["turn__campaign", "kind", "conquest"]
    list_select_related = ["turn__campaign"]
    search_fields = ["region"]
    readonly_fields = ["turn", "position", "kind", "region", "regions", "conquest", "data", "nation_codes"]
    exclude = ["nations"]

    @admin.display(description="nations")
    def nation_codes(self, obj: Report) -> str:
        return ", ".join(n.code for n in obj.nations.all())

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
