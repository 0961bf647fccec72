from enum import StrEnum


class ListDisputesSort(StrEnum):
    AMOUNT = "amount"
    AUTHORIZATIONID = "authorizationId"
    CARDID = "cardId"
    CREATEDAT = "createdAt"
    CURRENCY = "currency"
    EXPLANATION = "explanation"
    REASON = "reason"
    STATUS = "status"
    TRANSACTIONID = "transactionId"
    UPDATEDAT = "updatedAt"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-amount"
    VALUE_12 = "-currency"
    VALUE_14 = "-reason"
    VALUE_16 = "-explanation"
    VALUE_18 = "-status"
    VALUE_2 = "-_id"
    VALUE_20 = "-createdAt"
    VALUE_22 = "-updatedAt"
    VALUE_4 = "-cardId"
    VALUE_6 = "-transactionId"
    VALUE_8 = "-authorizationId"

    def __str__(self) -> str:
        return str(self.value)
