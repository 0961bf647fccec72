from enum import StrEnum


class WebhookEndpointListItemStatus(StrEnum):
    DISABLED = "disabled"
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
