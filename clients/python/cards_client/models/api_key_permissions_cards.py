from enum import StrEnum


class ApiKeyPermissionsCards(StrEnum):
    NONE = "none"
    READ = "read"
    WRITE = "write"

    def __str__(self) -> str:
        return str(self.value)
