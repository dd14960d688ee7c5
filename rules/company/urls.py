"""company_d20's pages under a campaign (c/<slug>/), in the frontend's namespace: the Kasarmi of each nation
(its roster, actions and orders, and the GM's edits) and the company battles (COMPANY.md §11.2)."""

from django.urls import include, path

from rules.company import views, views_gm

# kasarmi/<nation>/: a nation's barracks.
kasarmi_urls = [
    path("", views.kasarmi_page, name="company_kasarmi"),
    path("act/", views.kasarmi_post, name="company_act"),
    path("orders/", views.orders_post, name="company_orders"),
    path("gm/", views_gm.kasarmi_gm_post, name="company_gm_edit"),
]

urlpatterns = [
    path("kasarmi/", views.kasarmi_home, name="company_home"),
    path("kasarmi/<str:nation>/", include(kasarmi_urls)),
    # Before their address (c/<slug>/turns/<n>/battles/<id>/, every table battle's), by their own id.
    path("battles/<int:pk>/", views.battle_by_id, name="company_battle_by_id"),
    path("battles/<int:pk>/<slug:part>/", views.battle_by_id, name="company_battle_part_by_id"),
]
