from django.apps import AppConfig


class OrdersConfig(AppConfig):
    name = "orders"

    def ready(self) -> None:
        from orders import messages  # noqa: F401  (order entry's texts in the catalogue)
