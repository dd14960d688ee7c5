from django.contrib import admin

from campaign.models import Turn
from orders.models import Order


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    list_display = ["turn", "sequence", "nation", "kind", "origin", "target", "units"]
    list_filter = ["turn__campaign", "kind", "nation"]
    list_select_related = ["turn__campaign", "nation", "origin", "target"]
    raw_id_fields = ["turn", "origin", "target"]

    def _processed(self, obj) -> bool:
        return obj is not None and obj.turn.status != Turn.Status.OPEN

    # Orders of a processed turn are history: readable, never edited.
    def has_change_permission(self, request, obj=None):
        return not self._processed(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self._processed(obj) and super().has_delete_permission(request, obj)
