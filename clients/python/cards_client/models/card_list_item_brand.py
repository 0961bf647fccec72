from enum import StrEnum


class CardListItemBrand(StrEnum):
    MASTERCARD = "MasterCard"
    VISA = "Visa"

    def __str__(self) -> str:
        return str(self.value)
