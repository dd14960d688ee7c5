"""A minimal write endpoint, the baseline of the API benchmark (manage.py bench_api).

Routed only when IRONFIST_BENCH is on: one serializer, one row written (an admin log entry, a table every
install has), behind the same authentication as the real endpoints, so that the difference in throughput
between it and order submission is the cost of order entry itself.
"""

from __future__ import annotations

from django.contrib.admin.models import ADDITION, LogEntry
from rest_framework import generics, serializers


class PingWriteSerializer(serializers.ModelSerializer):
    class Meta:
        model = LogEntry
        fields = ["id", "object_repr", "change_message"]


class PingWrite(generics.CreateAPIView):
    serializer_class = PingWriteSerializer

    def perform_create(self, serializer) -> None:
        serializer.save(user=self.request.user, action_flag=ADDITION)
