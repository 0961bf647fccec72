from enum import StrEnum


class CardHolderCreateMultipartGender(StrEnum):
    F = "f"
    M = "m"
    O = "o"

    def __str__(self) -> str:
        return str(self.value)
