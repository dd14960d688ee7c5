from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from config.health import Health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("health/", Health.as_view(), name="health"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/", include("config.api_urls", namespace="api")),
    # set_language: the language chooser in the top bar posts here.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("frontend.urls")),
]
