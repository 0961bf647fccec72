from enum import StrEnum


class ApiKeyCreatedPermissionsApiKeys(StrEnum):
    NONE = "none"
    READ = "read"
    WRITE = "write"

    def __str__(self) -> str:
        return str(self.value)
