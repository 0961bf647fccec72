from enum import StrEnum


class CardListItemCancellationReasonType3Type1(StrEnum):
    LOST = "lost"
    STOLEN = "stolen"

    def __str__(self) -> str:
        return str(self.value)
