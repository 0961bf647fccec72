from enum import StrEnum


class CardUpdateType1StatusType1(StrEnum):
    ACTIVE = "active"
    INACTIVE = "inactive"

    def __str__(self) -> str:
        return str(self.value)
