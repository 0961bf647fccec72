from enum import StrEnum


class AuthorizationEndpointFallback(StrEnum):
    APPROVE = "approve"
    DECLINE = "decline"

    def __str__(self) -> str:
        return str(self.value)
