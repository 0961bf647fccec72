from enum import StrEnum


class ListCardTransactionsOfCardSort(StrEnum):
    AMOUNT = "amount"
    AUTHORIZATIONID = "authorizationId"
    CARDID = "cardId"
    CREATEDAT = "createdAt"
    CURRENCY = "currency"
    MERCHANT_CATEGORY = "merchant.category"
    MERCHANT_CITY = "merchant.city"
    MERCHANT_COUNTRY = "merchant.country"
    MERCHANT_MCC = "merchant.mcc"
    MERCHANT_NAME = "merchant.name"
    TYPE = "type"
    VALUE_0 = ""
    VALUE_1 = "_id"
    VALUE_10 = "-amount"
    VALUE_12 = "-currency"
    VALUE_14 = "-merchant.name"
    VALUE_16 = "-merchant.category"
    VALUE_18 = "-merchant.mcc"
    VALUE_2 = "-_id"
    VALUE_20 = "-merchant.city"
    VALUE_22 = "-merchant.country"
    VALUE_24 = "-createdAt"
    VALUE_4 = "-cardId"
    VALUE_6 = "-authorizationId"
    VALUE_8 = "-type"

    def __str__(self) -> str:
        return str(self.value)
