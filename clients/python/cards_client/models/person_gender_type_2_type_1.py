from enum import StrEnum


class PersonGenderType2Type1(StrEnum):
    F = "f"
    M = "m"
    O = "o"

    def __str__(self) -> str:
        return str(self.value)
