from enum import StrEnum


class WebhookEndpointUpdateStatusType0(StrEnum):
    DISABLED = "disabled"
    ENABLED = "enabled"

    def __str__(self) -> str:
        return str(self.value)
