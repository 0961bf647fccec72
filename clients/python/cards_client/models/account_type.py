from enum import StrEnum


class AccountType(StrEnum):
    CHECKING = "checking"
    CREDIT = "credit"
    SAVINGS = "savings"
    TREASURY = "treasury"

    def __str__(self) -> str:
        return str(self.value)
