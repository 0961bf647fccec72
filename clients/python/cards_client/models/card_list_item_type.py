from enum import StrEnum


class CardListItemType(StrEnum):
    PHYSICAL = "physical"
    VIRTUAL = "virtual"

    def __str__(self) -> str:
        return str(self.value)
