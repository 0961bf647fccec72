from enum import StrEnum


class WebhookEndpointUpdateEnabledEventsType0Type1Item(StrEnum):
    VALUE_0 = "*"

    def __str__(self) -> str:
        return str(self.value)
