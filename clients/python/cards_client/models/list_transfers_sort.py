from enum import StrEnum


class ListTransfersSort(StrEnum):
    AMOUNT = "amount"
    CREATEDAT = "createdAt"
    CREDITACCOUNTID = "creditAccountId"
    CURRENCY = "currency"
    DEBITACCOUNTID = "debitAccountId"
    NARRATION = "narration"
    REFERENCE = "reference"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-currency"
    VALUE_12 = "-narration"
    VALUE_14 = "-reference"
    VALUE_16 = "-createdAt"
    VALUE_2 = "-_id"
    VALUE_4 = "-debitAccountId"
    VALUE_6 = "-creditAccountId"
    VALUE_8 = "-amount"

    def __str__(self) -> str:
        return str(self.value)
