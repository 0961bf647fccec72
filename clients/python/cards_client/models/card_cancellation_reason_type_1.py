from enum import StrEnum


class CardCancellationReasonType1(StrEnum):
    LOST = "lost"
    STOLEN = "stolen"

    def __str__(self) -> str:
        return str(self.value)
