from enum import StrEnum


class CardCreateCurrencyType0(StrEnum):
    NGN = "NGN"
    USD = "USD"

    def __str__(self) -> str:
        return str(self.value)
