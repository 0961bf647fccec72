from enum import StrEnum


class CardHolderCreateMultipartGenderType0(StrEnum):
    F = "f"
    M = "m"
    O = "o"

    def __str__(self) -> str:
        return str(self.value)
