from enum import StrEnum


class ListAuditEventsSort(StrEnum):
    ACTION = "action"
    ADDRESS = "address"
    CARDID = "cardId"
    CREATEDAT = "createdAt"
    ERROR = "error"
    KEYID = "keyId"
    OUTCOME = "outcome"
    REQUESTID = "requestId"
    SUBJECTKEYID = "subjectKeyId"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-keyId"
    VALUE_12 = "-cardId"
    VALUE_14 = "-subjectKeyId"
    VALUE_16 = "-requestId"
    VALUE_18 = "-address"
    VALUE_2 = "-_id"
    VALUE_20 = "-createdAt"
    VALUE_4 = "-action"
    VALUE_6 = "-outcome"
    VALUE_8 = "-error"

    def __str__(self) -> str:
        return str(self.value)
