from enum import StrEnum


class CardCancellationReasonType3Type1(StrEnum):
    LOST = "lost"
    STOLEN = "stolen"

    def __str__(self) -> str:
        return str(self.value)
