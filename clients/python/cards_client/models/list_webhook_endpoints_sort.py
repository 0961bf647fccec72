from enum import StrEnum


class ListWebhookEndpointsSort(StrEnum):
    CREATEDAT = "createdAt"
    DESCRIPTION = "description"
    ENABLEDEVENTS = "enabledEvents"
    SECRET = "secret"
    STATUS = "status"
    UPDATEDAT = "updatedAt"
    URL = "url"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-status"
    VALUE_12 = "-secret"
    VALUE_14 = "-createdAt"
    VALUE_16 = "-updatedAt"
    VALUE_2 = "-_id"
    VALUE_4 = "-url"
    VALUE_6 = "-enabledEvents"
    VALUE_8 = "-description"

    def __str__(self) -> str:
        return str(self.value)
