from enum import StrEnum


class ListAccountDetailsSort(StrEnum):
    ACCOUNTID = "accountId"
    CREATEDAT = "createdAt"
    DETAILS = "details"
    ISPRIMARY = "isPrimary"
    PROVIDER = "provider"
    TYPE = "type"
    UPDATEDAT = "updatedAt"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-provider"
    VALUE_12 = "-isPrimary"
    VALUE_14 = "-createdAt"
    VALUE_16 = "-updatedAt"
    VALUE_2 = "-_id"
    VALUE_4 = "-accountId"
    VALUE_6 = "-type"
    VALUE_8 = "-details"

    def __str__(self) -> str:
        return str(self.value)
