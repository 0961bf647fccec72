from enum import StrEnum


class DisputeListItemStatus(StrEnum):
    LOST = "lost"
    SUBMITTED = "submitted"
    WON = "won"

    def __str__(self) -> str:
        return str(self.value)
