from enum import StrEnum


class DecisionSource(StrEnum):
    ENDPOINT = "endpoint"
    FALLBACK = "fallback"
    ISSUER = "issuer"

    def __str__(self) -> str:
        return str(self.value)
