from enum import StrEnum


class AuditEventListItemOutcome(StrEnum):
    REFUSED = "refused"
    SUCCESS = "success"

    def __str__(self) -> str:
        return str(self.value)
