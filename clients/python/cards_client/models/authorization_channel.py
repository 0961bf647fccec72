from enum import StrEnum


class AuthorizationChannel(StrEnum):
    ATM = "atm"
    MOBILE = "mobile"
    POS = "pos"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
