from enum import StrEnum


class AuditEventOutcome(StrEnum):
    REFUSED = "refused"
    SUCCESS = "success"

    def __str__(self) -> str:
        return str(self.value)
