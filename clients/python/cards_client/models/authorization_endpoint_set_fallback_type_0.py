from enum import StrEnum


class AuthorizationEndpointSetFallbackType0(StrEnum):
    APPROVE = "approve"
    DECLINE = "decline"

    def __str__(self) -> str:
        return str(self.value)
