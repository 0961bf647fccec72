from enum import StrEnum


class DecisionReasonType3Type1(StrEnum):
    ERROR = "error"
    INVALID_RESPONSE = "invalid_response"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return str(self.value)
