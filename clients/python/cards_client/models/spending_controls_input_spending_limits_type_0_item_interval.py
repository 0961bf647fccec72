from enum import StrEnum


class SpendingControlsInputSpendingLimitsType0ItemInterval(StrEnum):
    ALL_TIME = "all_time"
    DAILY = "daily"
    MONTHLY = "monthly"
    PER_AUTHORIZATION = "per_authorization"
    WEEKLY = "weekly"
    YEARLY = "yearly"

    def __str__(self) -> str:
        return str(self.value)
