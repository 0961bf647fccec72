from enum import StrEnum


class DisputeReason(StrEnum):
    DUPLICATE = "duplicate"
    FRAUDULENT = "fraudulent"
    NOT_AS_DESCRIBED = "not_as_described"
    NOT_RECEIVED = "not_received"
    OTHER = "other"

    def __str__(self) -> str:
        return str(self.value)
