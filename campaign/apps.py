from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        import campaign.tasks  # noqa: F401  registers the tasks that campaign.queue queues by name
        from campaign import messages  # noqa: F401  (the GM's and the audit log's texts in the catalogue)
        from campaign.middleware import time_zone_remember

        # The time zone goes into the session at login, so that no page pays a query for it.
        user_logged_in.connect(time_zone_remember, dispatch_uid="campaign.time_zone_remember")
