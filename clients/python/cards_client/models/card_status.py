from enum import StrEnum


class CardStatus(StrEnum):
    ACTIVE = "active"
    CANCELED = "canceled"
    INACTIVE = "inactive"

    def __str__(self) -> str:
        return str(self.value)
