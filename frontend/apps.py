from django.apps import AppConfig


class FrontendConfig(AppConfig):
    name = "frontend"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        import frontend.tasks  # noqa: F401  registers the tasks that campaign.queue queues by name
        from frontend.views.language import language_remember

        # The browser's language at login becomes the language of the user's mails, until they choose one.
        user_logged_in.connect(language_remember, dispatch_uid="frontend.language_remember")
