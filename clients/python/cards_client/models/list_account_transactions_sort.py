from enum import StrEnum


class ListAccountTransactionsSort(StrEnum):
    ACCOUNTID = "accountId"
    AMOUNT = "amount"
    BALANCEAFTER = "balanceAfter"
    CARDID = "cardId"
    CREATEDAT = "createdAt"
    TYPE = "type"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-balanceAfter"
    VALUE_12 = "-cardId"
    VALUE_14 = "-createdAt"
    VALUE_2 = "-_id"
    VALUE_4 = "-accountId"
    VALUE_6 = "-type"
    VALUE_8 = "-amount"

    def __str__(self) -> str:
        return str(self.value)
