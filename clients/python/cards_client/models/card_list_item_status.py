from enum import StrEnum


class CardListItemStatus(StrEnum):
    ACTIVE = "active"
    CANCELED = "canceled"
    INACTIVE = "inactive"

    def __str__(self) -> str:
        return str(self.value)
