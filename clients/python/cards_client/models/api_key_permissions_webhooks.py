from enum import StrEnum


class ApiKeyPermissionsWebhooks(StrEnum):
    NONE = "none"
    READ = "read"
    WRITE = "write"

    def __str__(self) -> str:
        return str(self.value)
