"""The load balancer's health check, /health/ (django-health-check): the database, the broker, the beat.

200 when all is well; 503 naming what is not (JSON with `Accept: application/json` or `?format=json`):

- the database answers a query;
- the broker (Redis, where REDIS_URL names one) answers a ping;
- the minute tick (beat, or `manage.py lifecycle_tick` from cron) ran within IRONFIST_TICK_STALE_SECONDS:
  without it no deadline processes a turn and no lost turn is queued again.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView

from campaign.models import Heartbeat


@dataclasses.dataclass
class MinuteTick(HealthCheck):
    """The minute tick ran lately (campaign.queue.tick_record)."""

    stale_after: timedelta = timedelta(minutes=3)

    def run(self) -> None:
        last = Heartbeat.objects.filter(name="tick").values_list("at", flat=True).first()
        if last is None:
            raise ServiceUnavailable("the minute tick has never run: is celery beat running?")
        late = timezone.now() - last
        if late > self.stale_after:
            raise ServiceUnavailable(f"the minute tick last ran {int(late.total_seconds())} s ago")


def _checks() -> list:
    checks: list = ["health_check.checks.Database"]
    if settings.REDIS_URL:
        from redis.asyncio import Redis

        url = settings.REDIS_URL
        checks.append(("health_check.contrib.redis.Redis", {"client_factory": lambda: Redis.from_url(url)}))
        stale = timedelta(seconds=settings.IRONFIST_TICK_STALE_SECONDS)
        checks.append((MinuteTick, {"stale_after": stale}))
    return checks


class Health(HealthCheckView):
    def get_checks(self):
        self.checks = _checks()
        return super().get_checks()

    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        if response.status_code == 500:
            response.status_code = 503  # unhealthy, not broken: the balancer sends traffic elsewhere
        return response
