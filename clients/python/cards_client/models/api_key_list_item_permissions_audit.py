from enum import StrEnum


class ApiKeyListItemPermissionsAudit(StrEnum):
    NONE = "none"
    READ = "read"
    WRITE = "write"

    def __str__(self) -> str:
        return str(self.value)
