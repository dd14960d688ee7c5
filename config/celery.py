"""The Celery application: configured from Django settings (the CELERY_ prefix), tasks found in the apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("iron_fist")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
