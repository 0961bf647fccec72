from enum import StrEnum


class ListWebhookDeliveriesSort(StrEnum):
    ATTEMPTS = "attempts"
    CREATEDAT = "createdAt"
    ENDPOINTID = "endpointId"
    EVENTID = "eventId"
    EVENTTYPE = "eventType"
    NEXTATTEMPTAT = "nextAttemptAt"
    STATUS = "status"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-status"
    VALUE_12 = "-attempts"
    VALUE_14 = "-nextAttemptAt"
    VALUE_16 = "-createdAt"
    VALUE_2 = "-_id"
    VALUE_4 = "-endpointId"
    VALUE_6 = "-eventId"
    VALUE_8 = "-eventType"

    def __str__(self) -> str:
        return str(self.value)
