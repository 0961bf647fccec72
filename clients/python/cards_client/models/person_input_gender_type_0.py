from enum import StrEnum


class PersonInputGenderType0(StrEnum):
    F = "f"
    M = "m"
    O = "o"

    def __str__(self) -> str:
        return str(self.value)
