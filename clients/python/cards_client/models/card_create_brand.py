from enum import StrEnum


class CardCreateBrand(StrEnum):
    MASTERCARD = "MasterCard"
    VISA = "Visa"

    def __str__(self) -> str:
        return str(self.value)
