from enum import StrEnum


class AuthorizationCreateChannel(StrEnum):
    ATM = "atm"
    MOBILE = "mobile"
    POS = "pos"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
