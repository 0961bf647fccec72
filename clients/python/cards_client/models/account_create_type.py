from enum import StrEnum


class AccountCreateType(StrEnum):
    CHECKING = "checking"
    CREDIT = "credit"
    SAVINGS = "savings"
    TREASURY = "treasury"

    def __str__(self) -> str:
        return str(self.value)
