"""The Hypothesis settings of the rules' property tests."""

from __future__ import annotations

from hypothesis import HealthCheck, settings


def property_settings(max_examples: int, *suppress: HealthCheck) -> settings:
    """The same `max_examples` examples on every run (derandomized, no example database) and no deadline;
    a slow example is no failure, nor is any health check named in `suppress`."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, *suppress],
    )
