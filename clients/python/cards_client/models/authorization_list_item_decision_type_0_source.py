from enum import StrEnum


class AuthorizationListItemDecisionType0Source(StrEnum):
    ENDPOINT = "endpoint"
    FALLBACK = "fallback"
    ISSUER = "issuer"

    def __str__(self) -> str:
        return str(self.value)
